/**
 * `createRedisAnswers` as source, on a real redis-server (`scripts/ensure-redis.sh`): one create per key
 * across instances, also when a command's answer arrives late (network latency between an instance and
 * Redis decides the interleaving, so the test sets it instead of hoping for it).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisAnswers, type Answer } from '../../runtime/server/idempotency.ts';
import type { RedisClient } from '../../runtime/server/types.ts';
import { redisBinary, requireRedis } from '../attack/redis-server.ts';
import { redisUrl } from '../server/helpers.ts';

const run = requireRedis(redisBinary());
const settings = (prefix: string) => ({ prefix, ttl: 60_000, lockTtl: 60_000, timeout: 2_000 });
const answer = (n: number): Answer => ({ status: 201, location: `/x/${n}`, body: { n } });

describe.runIf(run)('createRedisAnswers on a real Redis', () => {
  let redis: Redis;
  beforeAll(() => {
    const url = redisUrl();
    if (url === undefined) throw new Error('scripts/ensure-redis.sh started no redis-server (test/.tmp/redis/url is missing)');
    redis = new Redis(url);
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('runs a create once when a duplicate read "no answer" just before the first request stored its answer and freed the key', async () => {
    const prefix = `test:idem-race:${process.pid}:${Date.now()}:`;
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
});
