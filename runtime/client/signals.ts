/**
 * Abort signals and time: the caller's signals, each attempt's timeout, waiting for a promise that may
 * never settle, and the wait between attempts.
 * @module
 */

/** The longest delay `setTimeout` takes (2^31 - 1 ms, about 24.8 days): it fires a longer one after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `fire` after `ms`, however long: a delay past `setTimeout`'s limit is waited in steps, and
 * `Infinity` never fires. Returns the function that cancels it.
 */
export function startTimer(fire: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (left: number): void => {
    if (left < Infinity)
      timer = setTimeout(
        () => (left > MAX_TIMER_MS ? arm(left - MAX_TIMER_MS) : fire()),
        Math.min(left, MAX_TIMER_MS),
      );
  };
  arm(ms);
  return () => clearTimeout(timer);
}

/** Throws the reason of the first aborted signal, if any. */
export function throwIfAborted(signals: readonly AbortSignal[]): void {
  for (const s of signals) s.throwIfAborted();
}

/**
 * Calls `onAbort` with the reason of the first signal that aborts (at once if one has), then stops
 * listening; returns the function that stops listening (a long-lived client signal keeps no listener).
 */
function onAnyAbort(
  signals: readonly AbortSignal[],
  onAbort: (reason: unknown) => void,
): () => void {
  const forget = (): void => {
    for (const s of signals) s.removeEventListener("abort", listener);
  };
  const listener = (): void => {
    forget();
    onAbort(signals.find((s) => s.aborted)?.reason);
  };
  for (const s of signals) s.addEventListener("abort", listener);
  if (signals.some((s) => s.aborted)) listener();
  return forget;
}

/**
 * One attempt's signal, aborted with the caller's reason, or without one when `timeout` passes (so once
 * the caller's signals are checked, an aborted attempt timed out); `done` stops the timer and listening.
 */
export function guardAttempt(
  signals: readonly AbortSignal[],
  timeout: number,
): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const stopTimer = startTimer(() => controller.abort(), timeout);
  const forget = onAnyAbort(signals, (reason) => controller.abort(reason));
  return {
    signal: controller.signal,
    done: () => {
      stopTimer();
      forget();
    },
  };
}

/**
 * `promise`, or a rejection with the signal's reason as soon as it aborts: user code (a `bearer()` that
 * never settles) cannot hold an attempt past its timeout or the caller's abort.
 */
export function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const forget = onAnyAbort([signal], reject);
    promise.then(resolve, reject).finally(forget);
  });
}

/** Waits `ms`, or rejects with the abort reason as soon as a caller's signal aborts. */
export function sleep(
  ms: number,
  signals: readonly AbortSignal[],
): Promise<void> {
  return new Promise((resolve, reject) => {
    const stopTimer = startTimer(() => {
      forget();
      resolve();
    }, ms);
    // The listeners go either way: a long-lived client signal must not keep one per wait.
    const forget = onAnyAbort(signals, (reason) => {
      stopTimer();
      reject(reason);
    });
  });
}
