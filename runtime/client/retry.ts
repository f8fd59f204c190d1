/**
 * When to try again: which failures are retried, the backoff with jitter, and `Retry-After`.
 * @module
 */
import { ApiError, ConnectionError } from "./failures.js";

// 408, 429 and the transient 5xx; every other status is final (a 409 duplicate above all).
const RETRY_STATUSES: ReadonlySet<number> = new Set([
  408, 429, 500, 502, 503, 504,
]);

/** The backoff settings a retry reads. */
export interface RetrySettings {
  readonly retryDelay?: number;
  readonly maxRetryDelay?: number;
  readonly maxRetryAfter?: number;
}

/** The wait before the next attempt, or null when `error` is final. */
export function retryDelay(
  error: ApiError,
  attempt: number,
  o: RetrySettings,
  random: () => number = Math.random,
): number | null {
  if (!(error instanceof ConnectionError) && !RETRY_STATUSES.has(error.status))
    return null;
  const after = retryAfterMs(error.headers.get("retry-after"));
  if (after !== null)
    return after <= (o.maxRetryAfter ?? 60_000) ? after : null;
  const delay = Math.min(
    o.maxRetryDelay ?? 8_000,
    (o.retryDelay ?? 500) * 2 ** (attempt - 1),
  );
  // Jitter keeps many clients that failed together from retrying together.
  return Math.round(delay * (0.75 + random() * 0.25));
}

/**
 * `Retry-After` in milliseconds: delay seconds (digits only) or an HTTP-date in any of its three forms
 * (every one starts with the day's name; all are UTC); null when absent or unreadable (`-5`, `soon`), and
 * the backoff applies instead.
 */
export function retryAfterMs(
  value: string | null,
  now: number = Date.now(),
): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/^[A-Za-z]{3}/.test(text)) return null;
  // asctime (`Sun Nov  6 08:49:37 1994`) names no zone, and Date.parse reads that as local time: HTTP-dates are UTC.
  const date = Date.parse(/\d{4}$/.test(text) ? `${text} GMT` : text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
