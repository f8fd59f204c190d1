/**
 * Abort signals and time: the caller's signals, each attempt's timeout, waiting for a promise that may
 * never settle, and the wait between attempts.
 * @module
 */

/** Throws the reason of the first aborted signal, if any. */
export function throwIfAborted(signals: readonly AbortSignal[]): void {
  for (const s of signals) s.throwIfAborted();
}

/**
 * One attempt's controller: its signal aborts with the caller's reason, or without one when `timeout`
 * passes (so once the caller's signals are checked, an aborted attempt timed out). Abort it when the
 * attempt is over: the timer stops, and the listeners on the caller's signals go (a long-lived client
 * signal keeps none). A timeout past the longest `setTimeout` takes (2^31 - 1 ms, about 24.8 days; it
 * would fire a longer one after 1 ms), `Infinity` included, never passes: no limit.
 */
export function guardAttempt(
  signals: readonly AbortSignal[],
  timeout: number,
): AbortController {
  const controller = new AbortController();
  const { signal } = controller;
  if (timeout < 2 ** 31) {
    const timer = setTimeout(() => controller.abort(), timeout);
    signal.addEventListener("abort", () => clearTimeout(timer));
  }
  for (const s of signals)
    if (s.aborted) controller.abort(s.reason);
    else
      s.addEventListener("abort", () => controller.abort(s.reason), {
        signal,
      });
  return controller;
}

/**
 * `promise` (or a value), or a rejection with the signal's reason as soon as it aborts (at once if it has):
 * user code (a `bearer()` that never settles) cannot hold an attempt past its timeout or the caller's
 * abort. The signal is an attempt's (short-lived), so its listener is not removed.
 */
export function untilAborted<T>(
  promise: T | PromiseLike<T>,
  signal: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // Not `resolve(promise)`: that would tie this promise to one that may never settle. Attached first, so
    // a rejection of `promise` after an abort is still handled.
    Promise.resolve(promise).then(resolve, reject);
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason));
  });
}

/** Waits `ms`, or rejects with the abort reason as soon as a caller's signal aborts. */
export async function sleep(
  ms: number,
  signals: readonly AbortSignal[],
): Promise<void> {
  throwIfAborted(signals);
  // A guard that lasts `ms`: its signal aborts when the time is up, or when a caller aborts.
  await new Promise((resolve) =>
    guardAttempt(signals, ms).signal.addEventListener("abort", resolve),
  );
  throwIfAborted(signals);
}
