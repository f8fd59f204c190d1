/**
 * Upgrading a server on a single Redis from a runtime whose default key prefix had no hash tag (`restgen:shop:`) to
 * today's (`restgen:{shop}:`): the webhook endpoints and the deliveries waiting under the old keys are moved when
 * the server starts, so no subscription is lost and every delivery in flight is still made; the old keys are gone.
 * A server with a prefix of its own moves nothing. On a Redis Cluster, a prefix without a hash tag is refused at
 * start-up, naming the fix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisEndpoints, createRedisOutbox, type RedisEval } from '../../packages/runtime/src/webhook-redis.ts';
import { createSecret } from '../../packages/runtime/src/webhook-sign.ts';
import { startOwnRedis, type OwnRedis } from '../helpers/own-redis.ts';
import { keysUnder, redisTargets } from '../helpers/redis-targets.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running, type ServerModule } from '../server/helpers.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const EP = '6d1c2a4e-8f3b-4c5d-9e7f-0a1b2c3d4e5f';
const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write'];

describe('a single Redis written by an older runtime', () => {
  let redis: OwnRedis | null = null;
  let mod: ServerModule;
  let receiver: Receiver;
  const clients: { disconnect(): void }[] = [];
  const servers: Running[] = [];
  beforeAll(async () => {
    redis = await startOwnRedis('single');
    mod = await importServer(await generateInto('webhooks-redis-upgrade'));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    clients.forEach((c) => c.disconnect());
    await receiver?.close();
    await redis?.stop();
  });
  const client = () => {
    const c = redis!.client();
    clients.push(c);
    return c;
  };

  it('keeps every endpoint and delivers every waiting delivery after the upgrade; the old keys are gone', async (context) => {
    if (redis === null) return context.skip();
    const old = 'restgen:shop:';
    const legacy = client() as unknown as RedisEval;
    await createRedisEndpoints(legacy, old).put({
      id: EP,
      url: `${receiver.url}/upgraded`,
      events: ['order.created'],
      status: 'enabled',
      disabledReason: null,
      version: 'v3',
      createdAt: '2026-01-01T00:00:00.000Z',
      secrets: [{ secret: createSecret(), expiresAt: null }],
      failedMessages: 0,
    });
    const outbox = createRedisOutbox(legacy, old);
    await outbox.add([1, 2, 3].map((n) => ({ id: `msg_old${n}`, endpoint: EP, type: 'order.created', body: `{"n":${n}}`, attempts: 0, dueAt: n })));
    // One was held by an instance of the old runtime when it stopped: its lease is dropped, so it is due again later.
    expect(await outbox.claim(Date.now(), 1, 60_000)).toHaveLength(1);
    const server = await start((app) =>
      registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
        authenticate: () => ({ id: 'admin', scopes: SCOPES }),
        migrations: SHOP_MIGRATIONS,
        rateLimit: false,
        redis: client(),
        redisTimeout: 2_000,
        webhooks: { allowPrivateUrls: true, pollInterval: 20 },
      }),
    );
    servers.push(server);
    expect((await server.call('GET', `/v3/webhook_endpoints/${EP}`)).body).toMatchObject({ id: EP, status: 'enabled' });
    const got = await receiver.waitFor('/upgraded', 2);
    expect(got.map((r) => r.headers['webhook-id']).sort()).toEqual(['msg_old2', 'msg_old3']);
    expect(await keysUnder(client(), old)).toEqual([]);
    expect((await keysUnder(client(), 'restgen:{shop}:')).sort()).toEqual([
      'restgen:{shop}:wh:deliveries',
      'restgen:{shop}:wh:due',
      'restgen:{shop}:wh:endpoints',
    ]);
  });

  it('a server with a prefix of its own moves nothing', async (context) => {
    if (redis === null) return context.skip();
    const legacy = client() as unknown as RedisEval;
    await createRedisOutbox(legacy, 'restgen:shop:').add([{ id: 'msg_stays', endpoint: 'ep-2', type: 'order.created', body: '{}', attempts: 0, dueAt: 1 }]);
    const server = await start((app) =>
      registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
        authenticate: () => ({ id: 'admin', scopes: SCOPES }),
        migrations: SHOP_MIGRATIONS,
        redis: client(),
        redisPrefix: 'mine:',
        webhooks: { allowPrivateUrls: true, dispatch: false },
      }),
    );
    servers.push(server);
    expect((await keysUnder(client(), 'restgen:shop:')).sort()).toEqual(['restgen:shop:wh:deliveries', 'restgen:shop:wh:due']);
  });
});

describe.each(redisTargets().filter((t) => t.name === 'cluster'))('a Redis Cluster', (target) => {
  it('refuses a prefix without a hash tag at start-up, naming the fix', async () => {
    const mod = await importServer(await generateInto('webhooks-redis-upgrade'));
    const client = target.client();
    try {
      await expect(
        start((app) => registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { migrations: SHOP_MIGRATIONS, redis: client, redisPrefix: 'shop:' })),
      ).rejects.toThrow(
        `registerShopApi: redisPrefix "shop:" has no hash tag, and on a Redis Cluster the webhook outbox's keys must share one slot; put the part that names the API in braces ("shop:{shop}:")`,
      );
    } finally {
      client.disconnect();
    }
  });
});
