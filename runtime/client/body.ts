/**
 * Reading a response: redirects followed only on the same origin, the body read with a byte cap (counted
 * while it streams, never buffered first), and parsed as JSON.
 * @module
 */
import { InvalidResponseError, RedirectError } from "./failures.js";
import type { Fetch, FetchInit } from "./options.js";

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Redirects followed in one attempt (same origin only). */
const MAX_REDIRECTS = 5;

/**
 * Sends `init` to `url`, following same-origin redirects (at most 5). A redirect to another origin is a
 * {@link RedirectError} carrying the `Location`: the credential, the body and the Idempotency-Key are
 * never sent there. 303 (and 301/302 after a POST) continue as a GET without a body, as browsers do.
 */
export async function fetchFollowing(
  fetchFn: Fetch,
  url: string,
  init: FetchInit,
): Promise<Response> {
  const origin = new URL(url).origin;
  let current = url;
  let request = init;
  for (let hop = 0; ; hop++) {
    const response = await fetchFn(current, request);
    if (response.type === "opaqueredirect")
      throw new RedirectError(
        `The server redirected ${request.method} ${current}; this platform hides where to, so the client does not follow it.`,
        response.status,
        response.headers,
        null,
      );
    const location = response.headers.get("location");
    if (!REDIRECTS.has(response.status) || location === null) return response;
    await response.body?.cancel();
    const target = new URL(location, current);
    if (target.origin !== origin)
      throw new RedirectError(
        `${response.status}: ${request.method} ${current} redirects to another origin (${target.href}); not followed, so no credential or body leaves ${origin}.`,
        response.status,
        response.headers,
        target.href,
      );
    if (hop + 1 > MAX_REDIRECTS)
      throw new RedirectError(
        `${response.status}: more than ${MAX_REDIRECTS} redirects from ${url}; last to ${target.href}.`,
        response.status,
        response.headers,
        target.href,
      );
    const toGet =
      response.status === 303
        ? request.method !== "HEAD"
        : (response.status === 301 || response.status === 302) &&
          request.method === "POST";
    if (toGet) {
      // The GET reads the result: what described the write (its body, preconditions, idempotency) stays behind.
      const headers = new Headers(request.headers);
      for (const name of [
        "content-type",
        "if-match",
        "if-none-match",
        "idempotency-key",
      ])
        headers.delete(name);
      request = {
        method: "GET",
        headers,
        signal: request.signal,
        redirect: "manual",
      };
    }
    current = target.href;
  }
}

/**
 * The body as text, at most `max` bytes: a larger declared `Content-Length` is refused before reading,
 * and a body that grows past `max` while it streams is cancelled there. Null when it is too large.
 */
export async function readText(
  response: Response,
  max: number,
): Promise<string | null> {
  const declared = Number(response.headers.get("content-length") ?? "");
  const stream = response.body;
  if (Number.isFinite(declared) && declared > max) {
    await stream?.cancel();
    return null;
  }
  if (stream === null) return "";
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * The JSON of a successful response. An empty body is `undefined` only where none is expected (a
 * delete's 204); anywhere else, like a body that is not JSON, it is an {@link InvalidResponseError}.
 */
export function parseBody(
  text: string,
  response: Response,
  what: string,
  expectBody: boolean,
): unknown {
  if (text === "") {
    if (!expectBody) return undefined;
    throw new InvalidResponseError(
      `${response.status}: the response has no body, but this operation answers one (${what})`,
      response.status,
      response.headers,
      null,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new InvalidResponseError(
      `${response.status}: the response is not JSON (${what})`,
      response.status,
      response.headers,
      null,
      { cause },
    );
  }
}

/** Why `data` is not a list page (`{ data: [...], next_cursor: string | null }`), or null when it is one. */
export function pageProblem(data: unknown): string | null {
  if (typeof data !== "object" || data === null) return "it is not an object";
  const page = data as { data?: unknown; next_cursor?: unknown };
  if (!Array.isArray(page.data)) return "its data is not an array";
  if (page.next_cursor !== null && typeof page.next_cursor !== "string")
    return "its next_cursor is neither a string nor null";
  return null;
}
