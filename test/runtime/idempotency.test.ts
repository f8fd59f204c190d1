/**
 * `packages/runtime/src/idempotency.ts` as source: one create per key across concurrent requests, fingerprints
 * independent of key order, and a memory store that stays bounded and O(1) per request however many keys
 * it has seen.
 */
import { describe, expect, it } from 'vitest';
import { answerKeyOf, canonicalJson, createMemoryAnswers, fingerprintOf, type Answer } from '../../packages/runtime/src/idempotency.ts';
import { iterationSteps } from '../helpers/iteration-steps.ts';

const answer = (n: number): Answer => ({ status: 201, location: `/x/${n}`, body: { n } });
const later = () => performance.now() + 5_000;

describe('canonical fingerprints', () => {
  it('are the same for the same JSON whatever the key order, at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    expect(fingerprintOf({ a: 1, b: { c: 2, d: 3 } })).toBe(fingerprintOf({ b: { d: 3, c: 2 }, a: 1 }));
    expect(fingerprintOf({ a: 1 })).not.toBe(fingerprintOf({ a: 2 }));
    expect(fingerprintOf([1, 2])).not.toBe(fingerprintOf([2, 1]));
  });
});

describe('answerKeyOf', () => {
  it('never gives two senders, or two operations of one sender, the same store key, whatever ids and keys contain', () => {
    const keys = [
      answerKeyOf({ principal: 'alice' }, 'v1:orders', 'X:v1:orders:k'),
      answerKeyOf({ principal: 'alice:v1:orders:X' }, 'v1:orders', 'k'),
      answerKeyOf({ principal: 'alice' }, 'v2:orders:A:cancel', 'K'),
      answerKeyOf({ principal: 'alice' }, 'v2:orders', 'A:cancel:K'),
      answerKeyOf({ address: '10.0.0.1' }, 'v1:orders', 'k'),
      answerKeyOf({ principal: '10.0.0.1' }, 'v1:orders', 'k'),
      answerKeyOf({ principal: 'a"b' }, 's', 'k'),
      answerKeyOf({ principal: 'a' }, '"b', 'k'),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(answerKeyOf({ principal: 'alice' }, 'v1:orders', 'k')).toBe(answerKeyOf({ principal: 'alice' }, 'v1:orders', 'k'));
  });
});

describe('createMemoryAnswers', () => {
  it('runs one create for concurrent requests with one key; the others get its answer replayed', async () => {
    const store = createMemoryAnswers(60_000, Date.now);
    let runs = 0;
    const make = async () => (runs++, await new Promise((r) => setTimeout(r, 50)), answer(1));
    const results = await Promise.all(Array.from({ length: 10 }, () => store.remember('k', 'f', make, later())));
    expect(runs).toBe(1);
    expect(results.filter((r) => r.kind === 'answer' && r.replayed)).toHaveLength(9);
  });

  it('refuses another fingerprint under a key, while it runs and after', async () => {
    const store = createMemoryAnswers(60_000, Date.now);
    const first = store.remember('k', 'f1', async () => (await new Promise((r) => setTimeout(r, 30)), answer(1)), later());
    expect(await store.remember('k', 'f2', async () => answer(2), later())).toEqual({ kind: 'reused' });
    await first;
    expect(await store.remember('k', 'f2', async () => answer(2), later())).toEqual({ kind: 'reused' });
  });

  it('a create that failed is not remembered: the next request runs it again', async () => {
    const store = createMemoryAnswers(60_000, Date.now);
    expect(await store.remember('k', 'f', async () => null, later())).toEqual({ kind: 'answer', answer: null, replayed: false });
    expect(await store.remember('k', 'f', async () => answer(1), later())).toEqual({ kind: 'answer', answer: answer(1), replayed: false });
  });

  it('a waiter gives up at its deadline while the first request still runs', async () => {
    const store = createMemoryAnswers(60_000, Date.now);
    void store.remember('k', 'f', () => new Promise<Answer>(() => undefined), later());
    expect(await store.remember('k', 'f', async () => answer(2), performance.now() + 50)).toEqual({ kind: 'busy' });
  });

  it('forgets answers after the TTL', async () => {
    let now = 0;
    const store = createMemoryAnswers(1_000, () => now);
    await store.remember('k', 'f', async () => answer(1), later());
    now = 999;
    expect(await store.remember('k', 'f', async () => answer(2), later())).toMatchObject({ replayed: true });
    now = 1_000;
    expect(await store.remember('k', 'f', async () => answer(2), later())).toEqual({ kind: 'answer', answer: answer(2), replayed: false });
  });

  it('keeps at most maxEntries answers, the oldest forgotten first', async () => {
    const store = createMemoryAnswers(60_000, Date.now, 100);
    for (let i = 0; i < 150; i++) await store.remember(`k${i}`, 'f', async () => answer(i), later());
    expect(await store.remember('k149', 'f', async () => answer(-1), later())).toMatchObject({ replayed: true });
    expect(await store.remember('k50', 'f', async () => answer(-1), later())).toMatchObject({ replayed: true });
    expect(await store.remember('k0', 'f', async () => answer(-1), later())).toMatchObject({ replayed: false });
  });

  it('stays O(1) per request past its capacity (no scan of every key)', async () => {
    // Before: past 10,000 keys every create scanned all of them (event-loop stalls of hundreds of ms).
    const store = createMemoryAnswers(60_000, () => 0, 10_000);
    const remember = (from: number, count: number) =>
      iterationSteps(async () => {
        for (let i = from; i < from + count; i++) await store.remember(`k${i}`, 'f', async () => answer(i), later());
      });
    const filling = await remember(0, 100);
    await remember(100, 9_950);
    // Full: each create now forgets the oldest answer. A scan of the 10,000 keys per create would be a million steps.
    expect(await remember(10_050, 100)).toBeLessThanOrEqual(filling * 2);
  });
});
