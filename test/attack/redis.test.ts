/**
 * Attack: Redis shared by two instances, and Redis failing, on a single Redis and on a Redis Cluster of the test's
 * own. Ten concurrent creates with one Idempotency-Key, spread over two server instances sharing one Redis, make
 * one resource and ten equal answers. With Redis killed mid-run, rate-limited routes answer at once (the limit
 * fails open within `redisTimeout`) and idempotent creates answer 503 with Retry-After; after a restart both work
 * again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnRedis, type OwnRedis } from '../helpers/own-redis.ts';
import { ready } from '../helpers/redis-targets.ts';
import type { ServerModule } from '../server/helpers.ts';
import { startVault, vaultServer } from './helpers.ts';

const body = (n: number) => ({ email: `r${n}@example.com`, handle: 'r', login: { user: 'r', secret: 's' }, keys: [] });

describe.each(['single', 'cluster'] as const)('Redis (%s)', (kind) => {
  let redis: OwnRedis | null = null;
  let mod: ServerModule;
  const clients: { disconnect(): void }[] = [];
  beforeAll(async () => {
    redis = await startOwnRedis(kind);
    mod = await vaultServer('redis');
  });
  afterAll(async () => {
    clients.forEach((c) => c.disconnect());
    await redis?.stop();
  });

  /** A client whose commands queue while Redis is down. */
  async function client() {
    const c = redis!.client();
    clients.push(c);
    return ready(c);
  }

  it('ten concurrent same-key creates on two instances: one resource, ten equal answers', async (context) => {
    if (redis === null) return context.skip();
    let created = 0;
    const slow = () => {
      const handlers = mod.createMemoryHandlers();
      const create = handlers['accounts']!['create']!;
      handlers['accounts']!['create'] = (async (b: never, ctx: never) => {
        created++;
        await new Promise((r) => setTimeout(r, 600));
        return create(b, ctx);
      }) as never;
      return handlers;
    };
    const prefix = `attack:{${process.pid}-${Date.now()}}:`;
    const servers = [
      await startVault(mod, slow(), { redis: await client(), redisPrefix: prefix, redisTimeout: 2_000 }),
      await startVault(mod, slow(), { redis: await client(), redisPrefix: prefix, redisTimeout: 2_000 }),
    ];
    try {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => servers[i % 2]!.call('POST', '/v3/accounts', { body: body(1), headers: { 'idempotency-key': 'same-key' } })),
      );
      expect(created).toBe(1);
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
      const ids = new Set(answers.map((a) => a.body['id']));
      expect(ids.size).toBe(1);
      expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
      expect(new Set(answers.map((a) => a.headers.get('location'))).size).toBe(1);
      // The same key with the same JSON, keys reordered, is the same request: replayed, not 422.
      const { keys, login, handle, email } = body(1);
      const reordered = await servers[1]!.call('POST', '/v3/accounts', { body: { keys, login, handle, email }, headers: { 'idempotency-key': 'same-key' } });
      expect(reordered.status).toBe(201);
      expect(reordered.body['id']).toEqual([...ids][0]);
      // Another body under the key while it is in progress or done: 422.
      expect((await servers[0]!.call('POST', '/v3/accounts', { body: body(2), headers: { 'idempotency-key': 'same-key' } })).status).toBe(422);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it('Redis killed and restarted: limits fail open at once, idempotent creates answer 503, then all works again', async (context) => {
    if (redis === null) return context.skip();
    const server = await startVault(mod, mod.createMemoryHandlers(), {
      redis: await client(),
      redisPrefix: `outage:{${process.pid}-${Date.now()}}:`,
      redisTimeout: 200,
    });
    try {
      expect((await server.call('GET', '/v3/events', { token: null })).headers.get('ratelimit-limit')).toBe('1000');
      await redis.kill();
      const during = await Promise.all(Array.from({ length: 20 }, () => server.call('GET', '/v3/events', { token: null })));
      expect(during.map((a) => a.status)).toEqual(Array(20).fill(200));
      const create = await server.call('POST', '/v3/accounts', { body: body(3), headers: { 'idempotency-key': 'outage' } });
      expect(create.status).toBe(503);
      expect(create.headers.get('retry-after')).toBe('1');
      expect(create.body).toMatchObject({ code: 'unavailable' });
      // Creates without a key do not need Redis.
      expect((await server.call('POST', '/v3/accounts', { body: body(4) })).status).toBe(201);
      await redis.restart();
      let after = 0;
      for (let i = 0; i < 50 && after !== 201; i++) {
        await new Promise((r) => setTimeout(r, 100));
        after = (await server.call('POST', '/v3/accounts', { body: body(3), headers: { 'idempotency-key': 'outage' } })).status;
      }
      expect(after).toBe(201);
      const replay = await server.call('POST', '/v3/accounts', { body: body(3), headers: { 'idempotency-key': 'outage' } });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    } finally {
      await server.close();
    }
  });
});
