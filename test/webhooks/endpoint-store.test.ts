/**
 * `packages/runtime/src/webhook-store.ts` and `webhook-redis.ts` as source, in memory and on a real Redis shared by two
 * clients (two instances), a single Redis and a Redis Cluster: an endpoint's update is atomic. Concurrent updates all count, and a change another writer makes
 * between an update's read and its write (a rotated secret, a delete) is kept: the update runs again on the
 * newer copy, and a deleted endpoint is not brought back. The dispatcher counts failures and the API rotates
 * secrets through this update, so neither can undo the other.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { redisTargets, testPrefix, type RedisTarget } from '../helpers/redis-targets.ts';
import { createRedisEndpoints, type RedisEval } from '../../packages/runtime/src/webhook-redis.ts';
import { createMemoryEndpoints, type EndpointRecord, type EndpointStore } from '../../packages/runtime/src/webhook-store.ts';

const endpoint = (id: string): EndpointRecord => ({
  id,
  url: 'https://hooks.example.com/in',
  events: ['order.created'],
  status: 'enabled',
  disabledReason: null,
  version: 'v3',
  createdAt: '2026-11-23T00:00:00.000Z',
  secrets: [{ secret: 'whsec_old', expiresAt: null }],
  failedMessages: 0,
});
const failed = (e: EndpointRecord): EndpointRecord => ({ ...e, failedMessages: e.failedMessages + 1 });
const rotated = (e: EndpointRecord): EndpointRecord => ({
  ...e,
  secrets: [
    { secret: 'whsec_new', expiresAt: null },
    { secret: e.secrets[0]!.secret, expiresAt: 1 },
  ],
});

describe('memory endpoints', () => {
  it('counts every one of concurrent updates, and updates nothing that is not there', async () => {
    const store = createMemoryEndpoints();
    await store.put(endpoint('a'));
    await Promise.all(Array.from({ length: 40 }, () => store.update('a', failed)));
    expect((await store.get('a'))!.failedMessages).toBe(40);
    expect(await store.update('missing', failed)).toBeNull();
    expect(await store.get('missing')).toBeNull();
  });
});

describe.each(redisTargets())('Redis endpoints shared by two instances ($name)', (target: RedisTarget) => {
  const clients: { disconnect(): void }[] = [];
  async function client(): Promise<RedisEval> {
    const c = target.client();
    clients.push(c);
    return c as unknown as RedisEval;
  }
  /** A client that lets `meanwhile` run once, just before its first compare-and-set is sent. */
  function interrupted(inner: RedisEval, meanwhile: () => Promise<unknown>): RedisEval {
    let pending = true;
    return {
      async eval(script, numKeys, ...args) {
        if (pending && script.includes('~= ARGV[2]') && script.includes('HSET')) {
          pending = false;
          await meanwhile();
        }
        return inner.eval(script, numKeys, ...args);
      },
    };
  }
  afterAll(() => {
    clients.forEach((c) => c.disconnect());
  });

  it('counts every one of concurrent updates from two instances', async () => {
    const prefix = testPrefix('count');
    const [one, two] = [createRedisEndpoints(await client(), prefix), createRedisEndpoints(await client(), prefix)];
    await one.put(endpoint('a'));
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).update('a', failed)));
    expect((await one.get('a'))!.failedMessages).toBe(40);
  });

  it('keeps a secret rotated by another instance between the read and the write of a failure count', async () => {
    const prefix = testPrefix('rotate');
    const other: EndpointStore = createRedisEndpoints(await client(), prefix);
    await other.put(endpoint('a'));
    let calls = 0;
    const store = createRedisEndpoints(
      interrupted(await client(), () => other.update('a', rotated)),
      prefix,
    );
    const written = await store.update('a', (e) => (calls++, failed(e)));
    expect(calls).toBe(2);
    expect(written).toMatchObject({ failedMessages: 1, secrets: [{ secret: 'whsec_new' }, { secret: 'whsec_old' }] });
    expect(await other.get('a')).toEqual(written);
  });

  it('does not bring back an endpoint deleted between the read and the write', async () => {
    const prefix = testPrefix('delete');
    const other = createRedisEndpoints(await client(), prefix);
    await other.put(endpoint('a'));
    const store = createRedisEndpoints(
      interrupted(await client(), () => other.delete('a')),
      prefix,
    );
    expect(await store.update('a', failed)).toBeNull();
    expect(await other.get('a')).toBeNull();
    expect(await other.list()).toEqual([]);
  });
});
