/**
 * Credential guessing: rejected credentials are counted per client (`limitKeyOf`) in a fixed window; over the
 * limit, a request that carries a credential answers 429 before `authenticate` is called again. Counted
 * in each process (with several instances, each keeps its own count). Memory is bounded: windows start in
 * the order addresses are stored, so expiry looks only at the oldest, and at most `maxAddresses` are kept.
 */

/** Counts rejected credentials per address. */
export interface FailureLimiter {
  /** Seconds until `address` may try again, or null when it is under the limit. */
  blocked(address: string): number | null;
  /** Records a rejected credential from `address`. */
  failed(address: string): void;
}

/** A limiter of `max` rejected credentials per address per `windowMs`; `now` is a monotonic clock in ms. */
export function createFailureLimiter(
  max: number,
  windowMs: number,
  now: () => number = () => performance.now(),
  maxAddresses = 100_000,
): FailureLimiter {
  const windows = new Map<string, { count: number; reset: number }>();
  const expire = (t: number) => {
    for (const [address, w] of windows) {
      if (w.reset > t && windows.size <= maxAddresses) break;
      windows.delete(address);
    }
  };
  return {
    blocked(address) {
      const t = now();
      const w = windows.get(address);
      if (!w || w.reset <= t || w.count < max) return null;
      return Math.max(1, Math.ceil((w.reset - t) / 1000));
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
