/**
 * @module A clock a test moves on without waiting: only `Date` is faked (what token lifetimes, key-set cooldowns and
 * rate-limit windows read), while sockets and timers stay real, so a server on loopback keeps answering.
 */
import { vi } from 'vitest';

/** Runs `test` with `Date` standing still until `later(ms)` moves it on; the real clock is back afterwards. */
export async function onMovingClock<T>(test: (later: (ms: number) => void) => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    return await test((ms) => vi.setSystemTime(Date.now() + ms));
  } finally {
    vi.useRealTimers();
  }
}
