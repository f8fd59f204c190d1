/**
 * The transport every generated client shares: credentials, timeouts, same-origin redirects, a capped
 * response body, retries with backoff, typed errors, and `onAttempt` reports.
 * @module
 */
import { fetchFollowing, readText } from "./body.js";
import { rememberEtag } from "./etags.js";
import {
  ApiError,
  ConnectionError,
  InvalidResponseError,
  TimeoutError,
  errorFor,
} from "./failures.js";
import type { ClientOptions, Credential, RequestOptions } from "./options.js";
import type { Page, WithResponse } from "./promises.js";
import { retryDelay } from "./retry.js";
import {
  guardAttempt,
  sleep,
  throwIfAborted,
  untilAborted,
} from "./signals.js";

/**
 * Sends one request with its retries: `method` to `path` (`orders/o1`) of `version` (a path prefix, or the
 * versioning header), `body` (undefined: none; a `Blob` or stream: an upload, sent as it is), `query`
 * (given: a list, whose answer is a page; its `filter`, `sort`, `fields` and `expand` as the server reads
 * them), `raw` (a download: a success's body is left unread). Positional, so that a bundle can shorten every name.
 */
export type Transport = (
  method: string,
  version: string,
  path: string,
  body: unknown,
  opts: RequestOptions | undefined,
  query?: object,
  /** The request's own error classes, by `"<status> <problem code>"` (see `errorFor`). */
  errors?: Record<string, typeof ApiError>,
  /** A download or a stream: the 2xx response as soon as its headers arrive, its body unread (then `data` is undefined). */
  raw?: boolean,
) => Promise<WithResponse<unknown>>;

/**
 * Sets a credential header: a string, or what the caller's function answers (asked on every attempt, for
 * tokens that refresh) before the attempt's signal aborts. A value no header can carry is a TypeError
 * that does not quote the secret (the platform's would).
 */
async function setCredential(
  headers: Headers,
  name: string,
  credential: Credential,
  signal: AbortSignal,
  prefix = "",
): Promise<void> {
  const value = await untilAborted(
    typeof credential === "function" ? credential() : credential,
    signal,
  );
  try {
    headers.set(name, prefix + value);
  } catch {
    throw new TypeError(`${name}: not a valid header value; not sent`);
  }
}

/**
 * A random UUID v4 from `crypto.getRandomValues` (`crypto.randomUUID` exists only in secure contexts):
 * each 0, 1 and 8 of the template becomes a random digit (8: the variant's 8 to b); the 4 stays.
 */
const newIdempotencyKey = (): string =>
  "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) =>
    (
      +c ^
      (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (+c / 4)))
    ).toString(16),
  );

/**
 * Creates the transport of a client: `options` as the user gave them; the API's header of API keys and
 * the header that selects the version (null: the API takes no API key; the version is a path prefix).
 */
export function createTransport(
  options: ClientOptions,
  apiKeyHeader: string | null,
  versionHeader: string | null,
): Transport {
  // Access tokens the client fetches itself come as its `bearer` (and a `fetch` that renews them).
  options = { ...options, ...options.auth?.(options) };

  return async (method, version, path, body, opts = {}, query, errors, raw) => {
    // An option given as undefined is not given: the client's own applies, not the default.
    const o: RequestOptions = { ...options };
    for (const [name, value] of Object.entries(opts))
      if (value != null) (o as Record<string, unknown>)[name] = value;
    // Defaults: 2 retries, 60 s per attempt, bodies up to 10 MiB.
    const { maxRetries = 2, timeout = 6e4, maxResponseBytes = 10_485_760 } = o;
    const target = new URL(
      `${options.baseUrl.replace(/\/+$/, "")}/${versionHeader ? "" : `${version}/`}${path}`,
    );
    // `filter: { price: { gte: 10 } }` is `price[gte]=10` (`eq`, or a plain value, `price=10`); lists are
    // comma-separated (`sort`, `fields`, `expand`, `in`); a get's or a write's `fields` and `expand` come in `opts`.
    const add = (name: string, value: unknown): unknown =>
      value != null &&
      (typeof value === "object" && !Array.isArray(value)
        ? Object.entries(value).map(([key, v]) =>
            add(
              name === "filter" ? key : key === "eq" ? name : `${name}[${key}]`,
              v,
            ),
          )
        : target.searchParams.set(name, [value].flat().join()));
    const { fields, expand } = opts as { fields?: unknown; expand?: unknown };
    // The query itself is read as a filter is: each member a parameter of its own name.
    add("filter", { fields, expand, ...query });
    const url = `${target}`;
    const what = `${method} ${url}`;
    // An upload (`files.ts`: multipart, its type in `opts.headers`) goes as it is; any other body as JSON.
    const encoded = body instanceof Blob || body instanceof ReadableStream;
    const headers = new Headers();
    for (const [name, value] of Object.entries({
      accept: "application/json, application/problem+json",
      "content-type": "application/json",
      ...options.headers,
      ...opts.headers,
      ...(versionHeader && { [versionHeader]: version }),
      // One per call, the same on every attempt: the server replays a POST (create, transition) retried.
      "idempotency-key":
        o.idempotencyKey ??
        (method === "POST" ? newIdempotencyKey() : undefined),
      "if-match": opts.ifMatch,
      "if-none-match": opts.ifNoneMatch,
    }))
      if (value != null) headers.set(name, value);
    // A request without a body says nothing about a body's type, whatever the defaults hold.
    if (body === undefined) headers.delete("content-type");
    const signals = [options.signal, opts.signal].filter(
      (s): s is AbortSignal => !!s,
    );
    for (let attempt = 1; ; attempt++) {
      throwIfAborted(signals);
      const started = Date.now();
      const guard = guardAttempt(signals, timeout);
      const { signal } = guard;
      let response: Response | undefined;
      // Typed as a page, so that a list's can be checked as one; `undefined` until it parses.
      let data: Page<unknown> | undefined;
      let error: ApiError | null = null;
      // Until the request goes out, a failure is the caller's (its credential function): final, as it is.
      let sending = false;
      // A download's or a stream's body outlives the attempt: the caller's signals end it (a problem is read as any other).
      let kept = false;
      try {
        if (o.bearer != null)
          await setCredential(
            headers,
            "authorization",
            o.bearer,
            signal,
            "Bearer ",
          );
        if (apiKeyHeader && o.apiKey != null)
          await setCredential(headers, apiKeyHeader, o.apiKey, signal);
        sending = true;
        response = await fetchFollowing(
          // The platform's `fetch` as it is when the request is sent.
          o.fetch ?? fetch,
          url,
          {
            method,
            headers,
            signal,
            redirect: "manual",
            // JSON.stringify(undefined) is undefined: no body.
            body: encoded ? body : (JSON.stringify(body) ?? null),
            ...(encoded && { duplex: "half" }),
          },
        );
        if (raw && response.ok) {
          kept = true;
          return { data: undefined, response };
        }
        const text = await readText(response, maxResponseBytes);
        try {
          data = JSON.parse(text ?? "");
        } catch {
          // Not JSON: `data` stays undefined (which JSON never is).
        }
        if (!response.ok) throw errorFor(response, data, what, errors);
        const invalid = (why: string): InvalidResponseError =>
          new InvalidResponseError(why, response!, what);
        if (text === null)
          throw invalid(`body over maxResponseBytes (${maxResponseBytes})`);
        // An empty body is no data only where none is expected (a delete's 204).
        if (data === undefined && (text || method !== "DELETE") && !raw)
          throw invalid("body is not JSON");
        // A list page: `{ data: [...], next_cursor: string | null }`.
        if (
          query &&
          !(
            Array.isArray(data?.data) &&
            (data.next_cursor === null || typeof data.next_cursor === "string")
          )
        )
          throw invalid("body is not a page");
        rememberEtag(data, response.headers.get("etag"));
      } catch (cause) {
        throwIfAborted(signals);
        // The caller did not abort: an aborted attempt timed out. A failed token request (`auth`) is an
        // ApiError; before the request is sent, any other failure is the caller's own (its credential).
        // A failed connection tells why in its cause (Node: `connect ECONNREFUSED ...`).
        error =
          cause instanceof ApiError
            ? cause
            : signal.aborted
              ? new TimeoutError(
                  `Timed out after ${timeout} ms (${what})`,
                  cause,
                )
              : sending
                ? new ConnectionError(
                    `Connection failed (${what}): ${(cause as Error | undefined)?.cause ?? cause}`,
                    cause,
                  )
                : null;
        if (!error) throw cause;
      } finally {
        if (!kept) guard.abort();
      }
      const retryInMs =
        error && attempt <= maxRetries ? retryDelay(error, attempt, o) : null;
      const answered = (name: string | null): string | null =>
        (name && response?.headers.get(name)) || null;
      o.onAttempt?.({
        method,
        url,
        attempt,
        status: response?.status ?? null,
        error,
        durationMs: Date.now() - started,
        retryInMs,
        deprecation: answered("deprecation"),
        sunset: answered("sunset"),
        version: answered(versionHeader),
      });
      if (!error) return { data, response: response! };
      if (retryInMs === null) throw error;
      await sleep(retryInMs, signals);
    }
  };
}
