/**
 * Abort signals and time: the caller's signals, each attempt's timeout, waiting for a promise that may
 * never settle, and the wait between attempts.
 * @module
 */

/** The longest delay `setTimeout` takes (2^31 - 1 ms, about 24.8 days): a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `fire` after `ms`, however long: a delay past `setTimeout`'s limit is waited in steps, and
 * `Infinity` never fires. Returns the function that cancels it.
 */
export function startTimer(fire: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (left: number): void => {
    if (left === Infinity) return;
    timer =
      left > MAX_TIMER_MS
        ? setTimeout(() => arm(left - MAX_TIMER_MS), MAX_TIMER_MS)
        : setTimeout(fire, left);
  };
  arm(ms);
  return () => clearTimeout(timer);
}

/** The reason of the first aborted signal. */
export function abortReason(signals: readonly AbortSignal[]): unknown {
  return signals.find((s) => s.aborted)?.reason;
}

/** Throws the abort reason when a caller's signal has aborted. */
export function throwIfAborted(signals: readonly AbortSignal[]): void {
  if (signals.some((s) => s.aborted)) throw abortReason(signals);
}

/** One attempt's signal: aborted by the caller's signals or when `timeout` passes. */
export interface AttemptGuard {
  readonly signal: AbortSignal;
  timedOut(): boolean;
  /** Stops the timer and forgets the caller's signals. */
  done(): void;
}

/** A signal for one attempt: aborted by the caller's signals or when `timeout` passes. */
export function guardAttempt(
  signals: readonly AbortSignal[],
  timeout: number,
): AttemptGuard {
  const controller = new AbortController();
  let timedOut = false;
  const stopTimer = startTimer(() => {
    timedOut = true;
    controller.abort(
      new DOMException("The attempt timed out.", "TimeoutError"),
    );
  }, timeout);
  const onAbort = (): void => controller.abort(abortReason(signals));
  for (const s of signals) s.addEventListener("abort", onAbort);
  if (signals.some((s) => s.aborted)) onAbort();
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      stopTimer();
      for (const s of signals) s.removeEventListener("abort", onAbort);
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
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Waits `ms`, or rejects with the abort reason as soon as a caller's signal aborts. */
export function sleep(
  ms: number,
  signals: readonly AbortSignal[],
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signals.some((s) => s.aborted)) return reject(abortReason(signals));
    const forget = (): void => {
      for (const s of signals) s.removeEventListener("abort", onAbort);
    };
    // Every signal's listener goes either way: a long-lived client signal must not keep one per wait.
    const onAbort = (): void => {
      stopTimer();
      forget();
      reject(abortReason(signals));
    };
    const stopTimer = startTimer(() => {
      forget();
      resolve();
    }, ms);
    for (const s of signals)
      s.addEventListener("abort", onAbort, { once: true });
  });
}
