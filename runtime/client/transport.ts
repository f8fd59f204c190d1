/**
 * The transport every generated client shares: credentials, timeouts, same-origin redirects, a capped
 * response body, retries with backoff, typed errors, and `onAttempt` reports.
 * @module
 */
import { fetchFollowing, pageProblem, parseBody, readText } from "./body.js";
import { rememberEtag, tagOf } from "./etags.js";
import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  InvalidResponseError,
  TimeoutError,
  causeText,
  errorFor,
} from "./failures.js";
import type {
  ApiConfig,
  ClientOptions,
  Credential,
  Fetch,
  FetchInit,
  RequestOptions,
} from "./options.js";
import { createTokenSource, type TokenSource } from "./oauth.js";
import {
  ApiPromise,
  PagePromise,
  type Page,
  type WithResponse,
} from "./promises.js";
import { retryDelay } from "./retry.js";
import {
  abortReason,
  guardAttempt,
  sleep,
  throwIfAborted,
  untilAborted,
} from "./signals.js";

/** The default cap of a response body: 10 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** What one request sends and how its answer is checked. */
interface Call {
  readonly method: string;
  readonly version: string;
  readonly path: string;
  readonly body: unknown;
  readonly opts: RequestOptions;
  readonly query?: object | undefined;
  /** Why a successful body is not what the operation answers, or null. */
  readonly check?: (data: unknown) => string | null;
}

/** Sends requests: credentials, timeouts, retries with backoff, errors, `onAttempt` reports. */
export class Transport {
  /** Access tokens the client fetches itself (`auth.clientCredentials`), or null. */
  private readonly tokens: TokenSource | null;

  constructor(
    readonly options: ClientOptions,
    readonly config: ApiConfig,
  ) {
    const credentials = options.auth?.clientCredentials;
    if (credentials !== undefined && options.bearer !== undefined)
      throw new TypeError(
        "give either bearer or auth.clientCredentials, not both: both set the Authorization header.",
      );
    this.tokens =
      credentials === undefined
        ? null
        : createTokenSource(
            credentials,
            config.tokenUrl ?? null,
            options.fetch,
            options.timeout ?? 60_000,
            options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
          );
  }

  /** One request; its promise also offers `withResponse()`. */
  request<T>(
    method: string,
    version: string,
    path: string,
    body: unknown,
    opts: RequestOptions | undefined,
    query?: object,
  ): ApiPromise<T> {
    return new ApiPromise(
      this.send<T>({ method, version, path, body, opts: opts ?? {}, query }),
    );
  }

  /** A list request whose promise also walks every following page. */
  list<T>(
    version: string,
    path: string,
    query: object,
    opts: RequestOptions | undefined,
  ): PagePromise<T> {
    const call: Call = {
      method: "GET",
      version,
      path,
      body: undefined,
      opts: opts ?? {},
      query,
      check: pageProblem,
    };
    return new PagePromise(this.send<Page<T>>(call), (cursor) =>
      this.list<T>(version, path, { ...query, cursor }, opts),
    );
  }

  private async send<T>(call: Call): Promise<WithResponse<T>> {
    const { method, version, path, body, opts } = call;
    // An option given as undefined is not given: the client's own applies, not the default.
    const o: RequestOptions = { ...this.options, ...definedOnly(opts) };
    const { versionHeader } = this.config;
    const url = buildUrl(
      this.options.baseUrl,
      versionHeader ? path : `${version}/${path}`,
      call.query,
    );
    const what = `${method} ${url}`;
    const headers = new Headers({
      accept: "application/json, application/problem+json",
    });
    for (const [k, v] of Object.entries({
      ...this.options.headers,
      ...opts.headers,
    }))
      headers.set(k, v);
    if (versionHeader) headers.set(versionHeader, version);
    // A request without a body says nothing about a body's type, whatever the defaults hold.
    if (body !== undefined) headers.set("content-type", "application/json");
    else headers.delete("content-type");
    // One key per call, the same on every attempt, so the server can replay a create (or a transition,
    // also a POST) that was retried.
    const key =
      o.idempotencyKey ?? (method === "POST" ? newIdempotencyKey() : undefined);
    if (key !== undefined) headers.set("idempotency-key", key);
    if (opts.ifMatch !== undefined)
      headers.set("if-match", tagOf(opts.ifMatch, "ifMatch"));
    if (opts.ifNoneMatch !== undefined)
      headers.set("if-none-match", tagOf(opts.ifNoneMatch, "ifNoneMatch"));
    const signals = [this.options.signal, opts.signal].filter(
      (s): s is AbortSignal => s !== undefined,
    );
    const maxRetries = o.maxRetries ?? 2;
    const timeout = o.timeout ?? 60_000;
    const maxBytes = o.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const fetchFn: Fetch = o.fetch ?? ((u, init) => fetch(u, init));
    const payload = body === undefined ? undefined : JSON.stringify(body);
    // A fetched token the API refused is renewed once; that extra attempt is not one of the retries.
    let renewed = 0;
    for (let attempt = 1; ; attempt++) {
      throwIfAborted(signals);
      const started = Date.now();
      const guard = guardAttempt(signals, timeout);
      let response: Response | null = null;
      let result: WithResponse<T> | null = null;
      let error: ApiError | null = null;
      let fetched: string | null = null;
      try {
        fetched = await this.applyCredentials(headers, o, guard.signal);
        const init: FetchInit = {
          method,
          headers,
          signal: guard.signal,
          redirect: "manual",
          ...(payload !== undefined ? { body: payload } : {}),
        };
        response = await fetchFollowing(fetchFn, url, init);
        const text = await readText(response, maxBytes);
        if (response.ok) {
          if (text === null) throw tooLarge(response, maxBytes, what);
          const data = parseBody(text, response, what, method !== "DELETE");
          const problem = call.check?.(data) ?? null;
          if (problem !== null)
            throw new InvalidResponseError(
              `${response.status}: the response is not a page: ${problem} (${what})`,
              response.status,
              response.headers,
              null,
            );
          rememberEtag(data, response.headers.get("etag"));
          result = { data: data as T, response };
        } else error = errorFor(response, text ?? "", what);
      } catch (cause) {
        if (signals.some((s) => s.aborted)) throw abortReason(signals);
        if (cause instanceof ApiError) error = cause;
        else if (guard.timedOut())
          error = new TimeoutError(
            `Timed out after ${timeout} ms (${what})`,
            0,
            new Headers(),
            null,
            { cause },
          );
        else if (cause instanceof CredentialFailure) throw cause.cause;
        else
          error = new ConnectionError(
            `Connection failed (${what}): ${causeText(cause)}`,
            0,
            new Headers(),
            null,
            { cause },
          );
      } finally {
        guard.done();
      }
      const renew =
        fetched !== null &&
        renewed === 0 &&
        error instanceof AuthenticationError &&
        error.oauthError === "invalid_token";
      if (renew) {
        this.tokens?.invalidate(fetched!);
        renewed = 1;
      }
      const retryInMs = renew
        ? 0
        : error && attempt - renewed <= maxRetries
          ? retryDelay(error, attempt - renewed, o)
          : null;
      o.onAttempt?.({
        method,
        url,
        attempt,
        status: response?.status ?? null,
        error,
        durationMs: Date.now() - started,
        retryInMs,
        deprecation: response?.headers.get("deprecation") ?? null,
        sunset: response?.headers.get("sunset") ?? null,
      });
      if (result) return result;
      if (retryInMs === null) throw error;
      await sleep(retryInMs, signals);
    }
  }

  /**
   * Sets the credential headers; a credential function may not outlast the attempt's signal. Returns the
   * access token fetched by the client itself (to renew it when the API refuses it), else null.
   */
  private async applyCredentials(
    headers: Headers,
    o: RequestOptions,
    signal: AbortSignal,
  ): Promise<string | null> {
    const { apiKeyHeader } = this.config;
    let fetched: string | null = null;
    if (o.bearer !== undefined)
      setCredential(
        headers,
        "authorization",
        `Bearer ${await resolveCredential(o.bearer, signal)}`,
      );
    else if (this.tokens !== null) {
      fetched = await this.tokens.get(signal);
      setCredential(headers, "authorization", `Bearer ${fetched}`);
    }
    if (o.apiKey !== undefined && apiKeyHeader)
      setCredential(
        headers,
        apiKeyHeader,
        await resolveCredential(o.apiKey, signal),
      );
    return fetched;
  }
}

/** An error thrown by the caller's credential function: rethrown as is, never retried. */
class CredentialFailure {
  constructor(readonly cause: unknown) {}
}

/**
 * Sets a credential header. A value no header can carry (a line break, a character above U+00FF) is a
 * TypeError, thrown as is and not retried, whose message does not quote the secret.
 */
function setCredential(headers: Headers, name: string, value: string): void {
  try {
    headers.set(name, value);
  } catch {
    // The platform's own error quotes the value: the secret must not reach an error message, or a log.
    throw new CredentialFailure(
      new TypeError(
        `The ${name} credential is not a valid header value (a line break, or a character above U+00FF); nothing was sent.`,
      ),
    );
  }
}

async function resolveCredential(
  c: Credential,
  signal: AbortSignal,
): Promise<string> {
  if (typeof c !== "function") return c;
  let pending: Promise<string>;
  try {
    pending = Promise.resolve(c());
  } catch (error) {
    throw new CredentialFailure(error);
  }
  return untilAborted(
    pending.catch((error: unknown) => {
      throw new CredentialFailure(error);
    }),
    signal,
  );
}

/** `options` without the members whose value is undefined. */
function definedOnly<O extends object>(options: O): Partial<O> {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as Partial<O>;
}

/**
 * A random UUID v4. `crypto.randomUUID` exists only in secure contexts (a browser page on plain `http://`
 * other than localhost has none); `crypto.getRandomValues` exists everywhere.
 */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function tooLarge(response: Response, max: number, what: string): ApiError {
  return new InvalidResponseError(
    `${response.status}: the response body is larger than maxResponseBytes (${max} bytes); not read (${what})`,
    response.status,
    response.headers,
    null,
  );
}

function buildUrl(
  baseUrl: string,
  path: string,
  query: object | undefined,
): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {}))
    if (v !== undefined && v !== null)
      for (const item of Array.isArray(v) ? v : [v])
        params.append(k, String(item));
  const qs = params.toString();
  return `${baseUrl.replace(/\/+$/, "")}/${path}${qs ? `?${qs}` : ""}`;
}
