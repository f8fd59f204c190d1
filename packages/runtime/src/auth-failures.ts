/**
 * Credential guessing: rejected credentials are counted per client (`limitKeyOf`) in a fixed window; over the
 * limit, a request that carries a credential answers 429 before `authenticate` is called again. Checks in
 * progress count too: at most `max` minus the rejections so far run at once for one client, and the others
 * wait for one to finish, so a burst of concurrent guesses cannot all pass before the first is rejected.
 * Counted in each process (with several instances, each keeps its own count). Memory is bounded: windows
 * start in the order addresses are stored, so expiry looks only at the oldest, and at most `maxAddresses`
 * are kept; checks in progress are kept only while they run.
 */

/** Counts rejected credentials per address. */
export interface FailureLimiter {
  /** Seconds until `address` may try again, or null when it is under the limit. */
  blocked(address: string): number | null;
  /** Records a rejected credential from `address`. */
  failed(address: string): void;
  /**
   * Admits one credential check of `address`: null once it may run (call {@link FailureLimiter.release}
   * when it is done), after waiting while the checks already running could still reach the limit; or the
   * seconds until `address` may try again when it is over the limit.
   */
  admit(address: string): number | null | Promise<number | null>;
  /** Ends a check that {@link FailureLimiter.admit} admitted (after `failed` when it was rejected). */
  release(address: string): void;
}

/** A limiter of `max` rejected credentials per address per `windowMs`; `now` is a monotonic clock in ms. */
export function createFailureLimiter(max: number, windowMs: number, now: () => number = () => performance.now(), maxAddresses = 100_000): FailureLimiter {
  const windows = new Map<string, { count: number; reset: number }>();
  const expire = (t: number) => {
    for (const [address, w] of windows) {
      if (w.reset > t && windows.size <= maxAddresses) break;
      windows.delete(address);
    }
  };
  // Per address: the checks running and the requests waiting for one of them to end.
  const running = new Map<string, { count: number; waiting: (() => void)[] }>();
  const rejected = (address: string, t: number): number => {
    const w = windows.get(address);
    return w && w.reset > t ? w.count : 0;
  };
  const blocked = (address: string): number | null => {
    const t = now();
    const w = windows.get(address);
    if (!w || w.reset <= t || w.count < max) return null;
    return Math.max(1, Math.ceil((w.reset - t) / 1000));
  };
  /** Wakes the next waiting request of `address`, or forgets the address when nothing runs or waits. */
  const next = (address: string) => {
    const r = running.get(address);
    if (r === undefined) return;
    const wake = r.waiting.shift();
    if (wake !== undefined) wake();
    else if (r.count === 0) running.delete(address);
  };
  const admit = async (address: string): Promise<number | null> => {
    for (;;) {
      const wait = blocked(address);
      if (wait !== null) {
        // This request takes no place: the next waiting one checks for itself.
        next(address);
        return wait;
      }
      let r = running.get(address);
      if (r === undefined) running.set(address, (r = { count: 0, waiting: [] }));
      // At least one check runs at a time, whatever `max` (0 must not make every request wait forever).
      if (rejected(address, now()) + r.count < Math.max(max, 1)) {
        r.count++;
        return null;
      }
      const queue = r.waiting;
      await new Promise<void>((resolve) => queue.push(resolve));
    }
  };
  return {
    blocked,
    admit(address) {
      // No check of this address running: admitted at once, without a promise.
      if (!running.has(address) && blocked(address) === null) {
        running.set(address, { count: 1, waiting: [] });
        return null;
      }
      return admit(address);
    },
    release(address) {
      const r = running.get(address);
      if (r === undefined) return;
      r.count = Math.max(0, r.count - 1);
      next(address);
    },
    failed(address) {
      const t = now();
      expire(t);
      const w = windows.get(address);
      if (w && w.reset > t) w.count++;
      else {
        windows.delete(address);
        windows.set(address, { count: 1, reset: t + windowMs });
      }
    },
  };
}
