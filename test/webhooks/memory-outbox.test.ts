/**
 * The memory outbox as source: its due times live in a heap (`packages/runtime/src/due-queue.ts`), so a poll no
 * longer sorts every waiting delivery. Differential test against the outbox it replaced (every waiting
 * delivery filtered and sorted on each claim, kept here as the reference): the same claims in the same
 * order, the same answers to complete and retry, over seeded random runs of adds, claims, completions,
 * retries and lost leases.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DueQueue } from '../../packages/runtime/src/due-queue.ts';
import { random } from '../helpers/mutate.ts';
import { createMemoryOutbox, type Claimed, type Delivery, type Outbox } from '../../packages/runtime/src/webhook-store.ts';

/** The outbox before the heap: correct, and O(n log n) per claim. */
function referenceOutbox(): Outbox {
  const waiting = new Map<string, Delivery & { lease: string | null }>();
  return {
    add: async (deliveries) => {
      for (const d of deliveries) waiting.set(d.id, { ...d, lease: null });
    },
    claim: async (now, max, leaseMs) => {
      const due = [...waiting.values()]
        .filter((d) => d.dueAt <= now)
        .sort((a, b) => a.dueAt - b.dueAt)
        .slice(0, max);
      return due.map((d) => {
        const lease = randomUUID();
        waiting.set(d.id, { ...d, dueAt: now + leaseMs, lease });
        return { ...d, lease };
      });
    },
    complete: async (c) => {
      if (waiting.get(c.id)?.lease !== c.lease) return false;
      return waiting.delete(c.id);
    },
    retry: async (c, dueAt) => {
      if (waiting.get(c.id)?.lease !== c.lease) return false;
      waiting.set(c.id, { ...c, attempts: c.attempts + 1, dueAt, lease: null });
      return true;
    },
  };
}

const shape = (c: Claimed) => ({ id: c.id, endpoint: c.endpoint, type: c.type, body: c.body, attempts: c.attempts, dueAt: c.dueAt });

describe('DueQueue', () => {
  it('pops entries by due time, ties by their order', () => {
    const next = random(7);
    const queue = new DueQueue();
    const pushed: { id: string; at: number; order: number; seq: number }[] = [];
    for (let i = 0; i < 2000; i++) {
      const [at, order] = [Math.floor(next() * 50), (i * 7919) % 2000];
      pushed.push({ id: `d${i}`, at, order, seq: queue.push(`d${i}`, at, order) });
    }
    expect(queue.size).toBe(2000);
    const popped = Array.from({ length: 2000 }, () => queue.pop()!);
    expect(queue.pop()).toBeUndefined();
    expect(popped).toEqual([...pushed].sort((a, b) => a.at - b.at || a.order - b.order || a.seq - b.seq));
  });
});

describe('memory outbox', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`claims, completes and retries exactly as the sorting outbox did (seed ${seed})`, async () => {
      const next = random(seed);
      const [heap, reference] = [createMemoryOutbox(), referenceOutbox()];
      // Claims held, as pairs: what each outbox handed out for the same delivery.
      let held: [Claimed, Claimed][] = [];
      let now = 1_000;
      let made = 0;
      for (let step = 0; step < 600; step++) {
        const roll = next();
        if (roll < 0.3) {
          const batch = Array.from({ length: 1 + Math.floor(next() * 4) }, () => ({
            id: `msg_${made++}`,
            endpoint: `ep${Math.floor(next() * 3)}`,
            type: 'order.created',
            body: '{}',
            attempts: 0,
            // Several at the same time, some in the past, some later.
            dueAt: now + Math.floor(next() * 6) * 100 - 200,
          }));
          await heap.add(batch);
          await reference.add(batch);
        } else if (roll < 0.6) {
          now += Math.floor(next() * 300);
          const [max, lease] = [1 + Math.floor(next() * 5), 50 + Math.floor(next() * 500)];
          const [a, b] = [await heap.claim(now, max, lease), await reference.claim(now, max, lease)];
          expect(a.map(shape)).toEqual(b.map(shape));
          held.push(...a.map((c, i) => [c, b[i]!] as [Claimed, Claimed]));
        } else if (held.length > 0) {
          // Complete or retry a held claim; its lease may have run out and been claimed again meanwhile.
          const pick = Math.floor(next() * held.length);
          const [a, b] = held[pick]!;
          held = held.filter((_, i) => i !== pick);
          if (roll < 0.8) expect(await heap.complete(a)).toBe(await reference.complete(b));
          else {
            const dueAt = now + Math.floor(next() * 4) * 100;
            expect(await heap.retry(a, dueAt)).toBe(await reference.retry(b, dueAt));
          }
        }
      }
      // Everything still waiting comes out the same, in the same order.
      const [a, b] = [await heap.claim(Number.MAX_SAFE_INTEGER, 1e9, 1), await reference.claim(Number.MAX_SAFE_INTEGER, 1e9, 1)];
      expect(a.map(shape)).toEqual(b.map(shape));
    });
  }

  it('finds the few due deliveries among many that wait, and a poll finds none due at once', async () => {
    const outbox = createMemoryOutbox();
    const waitingLong = Array.from({ length: 50_000 }, (_, i) => ({
      id: `late_${i}`,
      endpoint: 'e',
      type: 't',
      body: '{}',
      attempts: 3,
      dueAt: 10_000_000 + i,
    }));
    await outbox.add(waitingLong);
    await outbox.add([{ id: 'now', endpoint: 'e', type: 't', body: '{}', attempts: 0, dueAt: 5 }]);
    expect((await outbox.claim(10, 10, 100)).map((c) => c.id)).toEqual(['now']);
    expect(await outbox.claim(20, 10, 100)).toEqual([]);
    // The claimed delivery's lease runs out: it is due again, once.
    expect((await outbox.claim(110, 10, 100)).map((c) => c.id)).toEqual(['now']);
  });
});
