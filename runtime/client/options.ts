/**
 * The client's options (on the client and per request), what it hands to `fetch`, what it reports after
 * every attempt.
 * @module
 */
import type { ApiError } from "./failures.js";

/** A credential: a string, or a function that returns one (called before each attempt, for tokens that refresh). */
export type Credential = string | (() => string | Promise<string>);

/** What the client passes to `fetch`; the platform's `fetch` accepts it. */
export interface FetchInit {
  method: string;
  headers: Headers;
  /** The JSON body, or null when the request has none. */
  body?: string | null;
  signal: AbortSignal;
  /** Always `manual`: the client follows redirects itself, and only on the same origin. */
  redirect: "manual";
}

/** The `fetch` the client calls (the platform's by default); inject one for tests, proxies or tracing. */
export type Fetch = (url: string, init: FetchInit) => Promise<Response>;

/** One attempt of a request, reported to `onAttempt` when it ends. */
export interface AttemptEvent {
  readonly method: string;
  readonly url: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The HTTP status, or null when no response arrived. */
  readonly status: number | null;
  /** Why the attempt failed, or null when it succeeded. */
  readonly error: ApiError | null;
  readonly durationMs: number;
  /** Milliseconds until the next attempt, or null when this attempt was the last. */
  readonly retryInMs: number | null;
  /** The server's `Deprecation` header (RFC 9745): this version is deprecated. */
  readonly deprecation: string | null;
  /** The server's `Sunset` header (RFC 8594): the date this version stops answering. */
  readonly sunset: string | null;
  /** The version the server echoed in the versioning header (APIs versioned by a header), or null. */
  readonly version: string | null;
}

/**
 * Access tokens the client obtains itself: `clientCredentials({ ... })` of an API with that OAuth 2.0 flow.
 * Given the client's options, it answers the `bearer` and `fetch` (which renews a refused token) to use.
 */
export type Auth = (
  options: ClientOptions,
) => Required<Pick<ClientOptions, "bearer" | "fetch">>;

/** Options of the client; every one but `baseUrl` can be overridden per request. */
export interface ClientOptions {
  /** Where the API lives, e.g. `https://api.example.com` (version paths are appended). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`. */
  bearer?: Credential;
  /** Sent in the API's key header. */
  apiKey?: Credential;
  /**
   * Obtain access tokens by itself: `clientCredentials({ clientId, clientSecret })` (OAuth 2.0): cached,
   * renewed before they expire and once when the API refuses one. A request's own `bearer` takes precedence.
   */
  auth?: Auth;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** Milliseconds each attempt may take, credential, redirects and response body included (default 60000). */
  timeout?: number;
  /** First backoff delay in milliseconds, doubled on each retry (default 500). */
  retryDelay?: number;
  /** Longest backoff delay in milliseconds (default 8000). */
  maxRetryDelay?: number;
  /** Longest `Retry-After` wait honoured, in milliseconds (default 60000); a longer one is not retried. */
  maxRetryAfter?: number;
  /** The largest response body read, in bytes (default 10 MiB); a larger one is an InvalidResponseError. */
  maxResponseBytes?: number;
  fetch?: Fetch;
  /** Sent with every request. */
  headers?: Record<string, string>;
  /** Aborts every request (and every wait between attempts). */
  signal?: AbortSignal;
  /** Called after every attempt: for logging, metrics and deprecation warnings. */
  onAttempt?: (event: AttemptEvent) => void;
}

/**
 * The options of a client whose API declares where it is served: those of `O`, with `baseUrl` optional (the
 * first server the API declares when it is left out).
 */
export type WithDefaultBaseUrl<O extends { baseUrl: string }> = Omit<
  O,
  "baseUrl"
> & {
  /** Where the API lives (default: the first server the API declares); version paths are appended. */
  baseUrl?: string;
};

/** Options of one request: any client option (but `baseUrl` and `auth`), an idempotency key, and preconditions. */
export interface RequestOptions extends Partial<
  Omit<ClientOptions, "baseUrl" | "auth">
> {
  /** Sent as `Idempotency-Key`; creates and transitions generate one per call when it is not given. */
  idempotencyKey?: string;
  /** `If-Match`: write only if the resource still has this ETag (else 412): `etagOf(resource)`, say. */
  ifMatch?: string;
  /** `If-None-Match`: a get answers NotModifiedError (304) while the resource has this ETag (or any: `*`). */
  ifNoneMatch?: string;
}
