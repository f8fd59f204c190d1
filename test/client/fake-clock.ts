/**
 * @module Test helper: the generated client's clock made the test's. `setTimeout`, `clearTimeout` and `Date` are
 * fake (vitest's fake timers) while sockets and servers stay real, so the client's waits between attempts and its
 * attempt timeouts end only when the test advances the clock: how long the client waited is exact, whatever the
 * machine's load. Call `vi.useRealTimers()` after each test.
 */
import { vi } from 'vitest';

/** The fake clock's start: a whole second (an HTTP-date has no milliseconds). */
export const T0 = Date.UTC(2026, 9, 1, 12, 0, 0);

const realSetTimeout = globalThis.setTimeout;

/** Resolves once `done()` holds: waits for real events (an answer, a request arriving), polling on the real clock. */
export async function until(done: () => boolean): Promise<void> {
  for (let polls = 0; !done(); polls++) {
    if (polls === 5000) throw new Error(`still waiting for ${String(done)}`);
    await new Promise((resolve) => realSetTimeout(resolve, 2));
  }
}

/** A fake clock the client runs on. */
export interface FakeClock {
  /** Give it to the client: it records the clock's time as each attempt starts. */
  readonly fetch: typeof fetch;
  /** When each attempt started, in ms after the first. */
  starts(): number[];
  /** Moves the clock `ms` on, running the timers that come due, and lets what they started run up to its next wait. */
  advance(ms: number): Promise<void>;
}

/** Makes `setTimeout`, `clearTimeout` and `Date` fake from now on, at {@link T0}. */
export function fakeClock(): FakeClock {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(T0);
  const at: number[] = [];
  return {
    fetch: (input, init) => (at.push(Date.now()), fetch(input, init)),
    starts: () => at.map((t) => t - at[0]!),
    async advance(ms) {
      await vi.advanceTimersByTimeAsync(ms);
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}
