/**
 * Reading a response: redirects followed only on the same origin, and the body read with a byte cap
 * (counted while it streams, never buffered first).
 * @module
 */
import { RedirectError } from "./failures.js";
import type { Fetch, FetchInit } from "./options.js";

/** The headers that describe a write, left behind when a redirect turns it into a GET. */
const WRITE_HEADERS = [
  "content-type",
  "if-match",
  "if-none-match",
  "idempotency-key",
];

/**
 * Sends `init` to `url`, following same-origin redirects (at most 5); one to another origin is a
 * {@link RedirectError} (nothing is sent there). 303, and 301/302 after a POST, continue as a GET.
 */
export async function fetchFollowing(
  fetchFn: Fetch,
  url: string,
  init: FetchInit,
): Promise<Response> {
  const { origin } = new URL(url);
  for (let hop = 0; ; hop++) {
    const response = await fetchFn(url, init);
    const { status } = response;
    const what = `${status}: ${init.method} ${url}`;
    // Browsers hide where a manual redirect goes.
    if (response.type === "opaqueredirect")
      throw new RedirectError(
        `${what} redirects; not followed`,
        response,
        null,
      );
    const location = response.headers.get("location");
    if (!/^30[12378]$/.test(`${status}`) || location === null) return response;
    await response.body?.cancel();
    const target = new URL(location, url);
    url = target.href;
    if (target.origin !== origin)
      throw new RedirectError(
        `${what} redirects to another origin (${url}); not followed`,
        response,
        url,
      );
    if (hop > 4)
      throw new RedirectError(`${what}: over 5 redirects`, response, url);
    // The client sends no HEAD, which a 303 would leave as it is.
    if (status === 303 || (status < 303 && init.method === "POST")) {
      // The GET reads the result: what described the write (its body, preconditions, idempotency) stays behind.
      // Copied, then deleted from: spreading a Headers needs `dom.iterable`, which a project's `lib` may leave out.
      const headers = new Headers(init.headers);
      for (const name of WRITE_HEADERS) headers.delete(name);
      init = { ...init, method: "GET", body: null, headers };
    }
  }
}

/** The body as text, or null past `max` bytes (declared, or counted while it streams: then cancelled). */
export async function readText(
  response: Response,
  max: number,
): Promise<string | null> {
  const reader = response.body?.getReader();
  // Typed by what the reader gives, which is what a Blob takes.
  const chunks = [];
  // A declared length past the cap is refused before anything is read.
  let size =
    Number(response.headers.get("content-length")) > max ? Infinity : 0;
  while (size <= max) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) return new Blob(chunks).text();
    chunks.push(chunk.value);
    size += chunk.value.length;
  }
  await reader?.cancel();
  return null;
}
