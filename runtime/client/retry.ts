/**
 * When to try again: which failures are retried, the backoff with jitter, and `Retry-After`.
 * @module
 */
import { ConnectionError, type ApiError } from "./failures.js";

/** The backoff settings a retry reads. */
export interface RetrySettings {
  readonly retryDelay?: number;
  readonly maxRetryDelay?: number;
  readonly maxRetryAfter?: number;
}

/**
 * The wait before the next attempt, or null when `error` is final: only a connection failure (a timeout
 * too), 408, 429 and the transient 5xx are retried (never a 409 duplicate, nor a redirect refused: a
 * browser's opaque one has status 0 too).
 */
export function retryDelay(
  error: ApiError,
  attempt: number,
  o: RetrySettings,
  random: () => number = Math.random,
): number | null {
  if (
    !(error instanceof ConnectionError) &&
    ![408, 429, 500, 502, 503, 504].includes(error.status)
  )
    return null;
  const after = retryAfterMs(error.headers.get("retry-after"));
  // Jitter (a quarter at most) keeps many clients that failed together from retrying together.
  return after === null
    ? Math.round(
        Math.min(
          o.maxRetryDelay ?? 8e3,
          (o.retryDelay ?? 500) * 2 ** (attempt - 1),
        ) *
          ((3 + random()) / 4),
      )
    : after > (o.maxRetryAfter ?? 6e4)
      ? null
      : after;
}

/**
 * `Retry-After` in milliseconds: seconds (digits only) or an HTTP-date in any of its three forms (each
 * starts with the day's name; all UTC); null when absent or unreadable (`-5`, `soon`): the backoff applies.
 */
export function retryAfterMs(
  value: string | null,
  now: number = Date.now(),
): number | null {
  // `null` (no header) reads as no date either.
  const text = `${value}`.trim();
  // Seconds are digits and dots (`1.2.3` reads as NaN); an HTTP-date starts with the day's name. asctime
  // (`Sun Nov  6 08:49:37 1994`) names no zone, and Date.parse reads that as local time: HTTP-dates are UTC.
  const at = /^[\d.]+$/.test(text)
    ? now + +text * 1000
    : /^[a-z]{3}/i.test(text)
      ? Date.parse(/\d{4}$/.test(text) ? `${text} GMT` : text)
      : NaN;
  // NaN (unreadable) is not >= 0; neither is a date before 1970.
  return at >= 0 ? Math.max(0, Math.round(at - now)) : null;
}
