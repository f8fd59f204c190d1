/**
 * `createRedisAnswers` as source, on a real single Redis and on a real Redis Cluster (`scripts/ensure-redis.sh`,
 * `scripts/ensure-redis-cluster.sh`): one create per key across instances, also when a command's answer arrives
 * late (network latency between an instance and Redis decides the interleaving, so the test sets it instead of
 * hoping for it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisAnswers, type Answer } from '../../packages/runtime/src/idempotency.ts';
import { createRedisGuard } from '../../packages/runtime/src/redis-guard.ts';
import type { RedisClient } from '../../packages/runtime/src/types.ts';
import { redisTargets, testPrefix, type AnyRedis } from '../helpers/redis-targets.ts';

const settings = (prefix: string) => ({ prefix, ttl: 60_000, lockTtl: 60_000, guard: createRedisGuard(2_000) });
const answer = (n: number): Answer => ({ status: 201, location: `/x/${n}`, body: { n } });

describe.each(redisTargets())('createRedisAnswers on a real Redis ($name)', (target) => {
  let redis: AnyRedis;
  beforeAll(() => {
    redis = target.client();
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('runs a create once when a duplicate read "no answer" just before the first request stored its answer and freed the key', async () => {
    const prefix = testPrefix('idem-race');
    let runs = 0;
    let firstDone!: () => void;
    const firstFinished = new Promise<void>((resolve) => (firstDone = resolve));
    // Instance B reaches Redis over a slow link: the answer to its first GET (null: the create is still running)
    // arrives only after instance A stored its answer and deleted its in-progress marker.
    let delayed = false;
    const slow: RedisClient = {
      get: async (key) => {
        const value = await redis.get(key);
        if (!delayed && key === `${prefix}k`) {
          delayed = true;
          await firstFinished;
        }
        return value;
      },
      set: redis.set.bind(redis) as unknown as RedisClient['set'],
      del: (...keys) => redis.del(...keys),
      defineCommand: () => undefined,
    };
    const a = createRedisAnswers(redis as unknown as RedisClient, settings(prefix));
    const b = createRedisAnswers(slow, settings(prefix));
    const make = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 100));
      return answer(runs);
    };
    const deadline = performance.now() + 10_000;
    const first = a.remember('k', 'f', make, deadline);
    await new Promise((r) => setTimeout(r, 20));
    const second = b.remember('k', 'f', make, deadline);
    const one = await first;
    firstDone();
    const two = await second;
    expect(runs).toBe(1);
    expect(one).toEqual({ kind: 'answer', answer: answer(1), replayed: false });
    expect(two).toEqual({ kind: 'answer', answer: answer(1), replayed: true });
  });

  it('a create that outlived its marker does not free the marker of the request that took over', async () => {
    const prefix = testPrefix('idem-owner');
    // Markers live 150 ms: A's create (which fails, so it stores no answer) runs 400 ms; B takes the key over
    // at 200 ms and runs 600 ms; C arrives after A finished and must wait for B, not run a third create.
    const short = { ...settings(prefix), lockTtl: 150 };
    const a = createRedisAnswers(redis as unknown as RedisClient, short);
    const b = createRedisAnswers(redis as unknown as RedisClient, { ...short, lockTtl: 5_000 });
    const c = createRedisAnswers(redis as unknown as RedisClient, { ...short, lockTtl: 5_000 });
    let running = 0;
    let most = 0;
    const make = (ms: number, result: Answer | null) => async () => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      return result;
    };
    const deadline = performance.now() + 10_000;
    const first = a.remember('k', 'f', make(400, null), deadline);
    await new Promise((r) => setTimeout(r, 200));
    const second = b.remember('k', 'f', make(600, answer(2)), deadline);
    expect(await first).toEqual({ kind: 'answer', answer: null, replayed: false });
    await new Promise((r) => setTimeout(r, 50));
    const third = c.remember('k', 'f', make(100, answer(3)), deadline);
    expect(await second).toEqual({ kind: 'answer', answer: answer(2), replayed: false });
    expect(await third).toEqual({ kind: 'answer', answer: answer(2), replayed: true });
    expect(most).toBe(2);
  });
});
