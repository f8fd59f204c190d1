/**
 * OAuth 2.0 client credentials (RFC 6749 section 4.4), copied only for APIs that declare that flow and
 * bundled only when the app imports `clientCredentials`: the client fetches its own access token from the
 * token endpoint, keeps it until shortly before it expires, and shares one token request between every
 * call that needs a token meanwhile. The secret goes only to the token endpoint, with HTTP Basic (section
 * 2.3.1), never to the API.
 * @module
 */
import { readText } from "./body.js";
import {
  AuthenticationError,
  ConnectionError,
  InvalidResponseError,
  TimeoutError,
  errorFor,
} from "./failures.js";
import type { Auth, Fetch } from "./options.js";
import { guardAttempt, untilAborted } from "./signals.js";

/** Client credentials: what the client sends to the identity provider's token endpoint. */
export interface ClientCredentials {
  /** The token endpoint; by default the `clientCredentials` flow's `tokenUrl` the API declares. */
  tokenUrl?: string;
  clientId: string;
  clientSecret: string;
  /** Scopes to ask for (`scope`, space-separated); by default the identity provider's default for the client. */
  scopes?: readonly string[];
  /** The `audience` parameter some identity providers need to issue a token for this API. */
  audience?: string;
  /**
   * How the id and secret are sent: `basic` (default: `Authorization: Basic`, RFC 6749 section 2.3.1) or
   * `body` (`client_id` and `client_secret` form parameters, for providers that accept only those).
   */
  authMethod?: "basic" | "body";
  /** Milliseconds before expiry a token is replaced (default 30 000, at most half its lifetime). */
  refreshBefore?: number;
}

/** Where access tokens come from: a cached token, or one token request shared by every waiting call. */
export interface TokenSource {
  /** A token valid for a while yet; fetches one (once, for every concurrent caller) when there is none. */
  get(signal?: AbortSignal): Promise<string>;
  /** Forgets `token` after the API refused it (`invalid_token`), so the next `get` fetches a new one. */
  invalidate(token: string): void;
  /** Whether `token` is one of the last few this source handed out. */
  issued(token: string): boolean;
  /**
   * The scopes granted with the current token (fetched when none is held): the token endpoint's `scope`, else those
   * asked for (RFC 6749 section 5.1), else null (not known).
   */
  scopes(signal?: AbortSignal): Promise<readonly string[] | null>;
}

/**
 * The client's `auth`: access tokens fetched with `credentials` (the token endpoint is `tokenUrl`, else
 * `declaredUrl`, the API's declared one), under the client's `fetch`, `timeout` and `maxResponseBytes`.
 * When the API refuses one of them (`401` with RFC 6750's `invalid_token`), the attempt fetches a new
 * token and sends the request again, once; a request's own `bearer` is left alone.
 */
export function clientCredentials(
  credentials: ClientCredentials,
  declaredUrl: string | null = null,
): Auth {
  return (options) => {
    if (options.bearer !== undefined)
      throw new TypeError("give either bearer or auth, not both");
    const send = options.fetch ?? ((url, init) => fetch(url, init));
    const tokens = createTokenSource(
      credentials,
      declaredUrl,
      options.fetch,
      options.timeout ?? 60_000,
      options.maxResponseBytes ?? 10 * 1024 * 1024,
    );
    return {
      bearer: () => tokens.get(),
      scopes: () => tokens.scopes(),
      fetch: async (url, init) => {
        const response = await send(url, init);
        const sent = init.headers.get("authorization")?.slice(7);
        if (
          response.status !== 401 ||
          sent === undefined ||
          !tokens.issued(sent) ||
          new AuthenticationError("", 401, response.headers, null)
            .oauthError !== "invalid_token"
        )
          return response;
        await response.body?.cancel();
        tokens.invalidate(sent);
        init.headers.set(
          "authorization",
          `Bearer ${await tokens.get(init.signal)}`,
        );
        return send(url, init);
      },
    };
  };
}

interface Held {
  readonly token: string;
  readonly scopes: readonly string[] | null;
  /** When to stop using it (ms since the epoch), or Infinity when the endpoint gave no lifetime. */
  readonly refreshAt: number;
}

/** The OAuth `error` code of a token endpoint's answer, and its description. */
function oauthFailure(
  body: unknown,
): { error: string; description: string } | null {
  if (typeof body !== "object" || body === null) return null;
  const { error, error_description } = body as Record<string, unknown>;
  if (typeof error !== "string") return null;
  return {
    error,
    description: typeof error_description === "string" ? error_description : "",
  };
}

/** `application/x-www-form-urlencoded` escaping, which section 2.3.1 asks for before Basic encoding. */
const formEncode = (text: string): string =>
  encodeURIComponent(text).replace(/%20/g, "+");

/**
 * A token source for `credentials`; `declaredUrl` is the API's declared token URL (or null). The token
 * endpoint's answer is read under `maxBytes`, like the API's.
 */
export function createTokenSource(
  credentials: ClientCredentials,
  declaredUrl: string | null,
  fetchFn: Fetch | undefined,
  timeout: number,
  maxBytes: number,
  now: () => number = Date.now,
): TokenSource {
  const tokenUrl = credentials.tokenUrl ?? declaredUrl;
  if (tokenUrl === null)
    throw new TypeError(
      "clientCredentials: tokenUrl is required: the API declares no clientCredentials flow.",
    );
  const parsed = new URL(tokenUrl);
  // The secret travels only over TLS (RFC 6749 section 2.3.1), or to an identity provider on this machine.
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(
    parsed.hostname,
  );
  if (
    parsed.protocol !== "https:" &&
    !(parsed.protocol === "http:" && loopback)
  )
    throw new TypeError(
      `clientCredentials: tokenUrl must be https (the client secret is sent to it; http only on localhost): ${parsed.origin}`,
    );
  const url = parsed.href;
  const what = `POST ${url}`;
  const send = fetchFn ?? ((u, init) => fetch(u, init));
  let held: Held | null = null;
  // The tokens handed out lately: a request may still carry the one before the current.
  const recent: string[] = [];
  let pending: Promise<string> | null = null;

  const request = async (): Promise<string> => {
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (credentials.scopes?.length)
      form.set("scope", credentials.scopes.join(" "));
    if (credentials.audience !== undefined)
      form.set("audience", credentials.audience);
    const headers = new Headers({
      accept: "application/json",
      "content-type": "application/x-www-form-urlencoded",
    });
    if (credentials.authMethod === "body") {
      form.set("client_id", credentials.clientId);
      form.set("client_secret", credentials.clientSecret);
    } else {
      const pair = `${formEncode(credentials.clientId)}:${formEncode(credentials.clientSecret)}`;
      headers.set("authorization", `Basic ${btoa(pair)}`);
    }
    // Not AbortSignal.timeout: it refuses Infinity and fires at once past 2^31 - 1 ms.
    const guard = guardAttempt([], timeout);
    const { signal } = guard;
    const started = now();
    let response: Response;
    let text: string | null;
    try {
      // Never follows a redirect: the secret must not travel anywhere else.
      response = await send(url, {
        method: "POST",
        headers,
        body: form.toString(),
        signal,
        redirect: "manual",
      });
      text = await readText(response, maxBytes);
    } catch (cause) {
      // A failed connection tells why in its cause (Node: `connect ECONNREFUSED ...`).
      const Class = signal.aborted ? TimeoutError : ConnectionError;
      const why = signal.aborted
        ? `timed out after ${timeout} ms`
        : `failed: ${(cause as Error | undefined)?.cause ?? cause}`;
      throw new Class(`The token request ${why} (${what})`, cause);
    } finally {
      guard.abort();
    }
    if (text === null)
      throw new InvalidResponseError(
        `the token endpoint's answer is larger than maxResponseBytes (${maxBytes} bytes); not read`,
        response,
        what,
      );
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: the status alone describes the failure below.
    }
    const failure = oauthFailure(body);
    if (failure !== null && response.status >= 400 && response.status < 500)
      throw new AuthenticationError(
        `The token endpoint refused the client: ${failure.error}${failure.description ? `: ${failure.description}` : ""} (${what})`,
        response.status,
        response.headers,
        { ...failure, status: response.status },
      );
    if (!response.ok) throw errorFor(response, body, `token request, ${what}`);
    const answer = (body ?? {}) as Record<string, unknown>;
    const token = answer["access_token"];
    const type = answer["token_type"];
    if (
      typeof token !== "string" ||
      token.length === 0 ||
      typeof type !== "string" ||
      type.toLowerCase() !== "bearer"
    )
      throw new AuthenticationError(
        `The token endpoint answered without a bearer access_token (${what})`,
        response.status,
        response.headers,
        null,
      );
    // RFC 6749 section 5.1 makes it a number; some providers send a string of digits ("3599").
    const raw = answer["expires_in"];
    const lifetime =
      typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : raw;
    const ms =
      typeof lifetime === "number" && lifetime > 0 ? lifetime * 1000 : null;
    const early = Math.min(credentials.refreshBefore ?? 30_000, (ms ?? 0) / 2);
    const granted = answer["scope"];
    const scopes =
      typeof granted === "string"
        ? granted.split(" ").filter(Boolean)
        : (credentials.scopes ?? null);
    held = {
      token,
      scopes,
      refreshAt: ms === null ? Infinity : started + ms - early,
    };
    recent.unshift(token);
    recent.length = Math.min(recent.length, 4);
    return token;
  };

  const get = (signal?: AbortSignal): Promise<string> => {
    if (held !== null && now() < held.refreshAt)
      return Promise.resolve(held.token);
    pending ??= request().finally(() => {
      pending = null;
    });
    return signal ? untilAborted(pending, signal) : pending;
  };
  return {
    get,
    invalidate(token) {
      if (held?.token === token) held = null;
    },
    issued: (token) => recent.includes(token),
    async scopes(signal) {
      const token = await get(signal);
      return held?.token === token ? held.scopes : null;
    },
  };
}
