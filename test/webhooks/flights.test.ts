/**
 * `packages/runtime/src/webhook-flights.ts` as source, on an injected clock: attempts in flight for `slowAfter` make
 * their endpoint slow; slow endpoints hold half of the slots at most, their deliveries beyond that do not count
 * against the others, and never more than one and a half times `concurrency` are in flight; an endpoint stays slow
 * for a while after a slow attempt ended, and a quick one clears it. A breadth-first claim whose later round fails
 * hands over what its earlier rounds leased, with the failure.
 */
import { describe, expect, it } from 'vitest';
import { SLOW_MEMORY, claimBreadthFirst, createFlights } from '../../packages/runtime/src/webhook-flights.ts';
import type { Claimed, Outbox } from '../../packages/runtime/src/webhook-store.ts';

const limits = { concurrency: 10, perEndpoint: 3, slowAfter: 1_000, deferBy: 1_000 };

describe('flights', () => {
  it('gives the others their half while slow endpoints hold more, and caps what is in flight at one and a half times concurrency', () => {
    const flights = createFlights(limits);
    for (let i = 0; i < 10; i++) flights.begin(`hang-${i}`, 0);
    // Young attempts are not slow yet: every slot is taken.
    expect(flights.plan(999)).toMatchObject({ free: 0, fairness: { slowSlots: 5 } });
    const late = flights.plan(1_000);
    expect(late.free).toBe(5);
    expect(late.fairness.slowSlots).toBe(0);
    expect([...late.fairness.slow].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `hang-${i}`).sort());
    // Five more that turn slow as well: fifteen in flight, nothing more until some end.
    for (let i = 0; i < 5; i++) flights.begin(`more-${i}`, 1_000);
    expect(flights.plan(2_000).free).toBe(0);
    expect(flights.size).toBe(15);
  });

  it('keeps an endpoint slow for a while after a slow attempt, and clears it after a quick one', () => {
    const flights = createFlights(limits);
    flights.begin('e', 0);
    flights.end('e', 0, 10_000, true);
    expect(flights.plan(10_001).fairness.slow.has('e')).toBe(true);
    expect(flights.plan(10_000 + SLOW_MEMORY).fairness.slow.has('e')).toBe(false);
    flights.begin('f', 0);
    flights.end('f', 0, 1_500, false);
    expect(flights.plan(2_000).fairness.slow.has('f')).toBe(true);
    flights.begin('f', 2_000);
    flights.end('f', 2_000, 2_050, false);
    expect(flights.plan(2_100).fairness.slow.has('f')).toBe(false);
  });

  it('a claim whose later round fails hands over what the earlier rounds leased, with the failure; a first round that fails throws', async () => {
    const leased: Claimed = { id: 'msg_1', endpoint: 'e', type: 'order.created', body: '{}', attempts: 0, dueAt: 0, lease: 'l' };
    let rounds = 0;
    const outbox = (first: () => Claimed[]): Outbox => ({
      add: async () => undefined,
      claim: async () => {
        rounds++;
        if (rounds === 1) return first();
        throw new Error('connection lost');
      },
      complete: async () => true,
      retry: async () => true,
    });
    const plan = createFlights(limits).plan(0);
    const got = await claimBreadthFirst(
      outbox(() => [leased]),
      0,
      15_000,
      plan,
    );
    expect(got.claimed).toEqual([leased]);
    expect(got.failed?.cause).toEqual(new Error('connection lost'));
    rounds = 1;
    await expect(
      claimBreadthFirst(
        outbox(() => [leased]),
        0,
        15_000,
        plan,
      ),
    ).rejects.toThrow('connection lost');
  });
});
