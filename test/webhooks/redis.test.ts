/**
 * Two server instances sharing a real Redis, a single one and a cluster (`scripts/ensure-redis.sh`,
 * `scripts/ensure-redis-cluster.sh`), with a key prefix that holds a hash tag (every key of the API in one slot): an
 * endpoint made through one is served and delivered to by both; every event reaches each endpoint exactly
 * once, also when an instance is stopped mid-delivery (it finishes what it holds) and when an instance
 * dies holding a delivery (its lease runs out, another instance delivers it once, never while the lease
 * holds). Skipped without redis-server, except in CI, where that fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ready, redisTargets, testPrefix, type RedisTarget } from '../helpers/redis-targets.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running, type ServerModule } from '../server/helpers.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write'];
const authenticate = () => ({ id: 'admin', scopes: SCOPES });

interface Outbox {
  claim(now: number, max: number, leaseMs: number): Promise<{ id: string }[]>;
}

describe.each(redisTargets())('webhooks on Redis ($name)', (target: RedisTarget) => {
  let mod: ServerModule;
  let outDir = '';
  let receiver: Receiver;
  const clients: { disconnect(): void }[] = [];
  const servers: Running[] = [];

  async function client() {
    const c = target.client();
    clients.push(c);
    return ready(c);
  }
  async function instance(prefix: string): Promise<Running> {
    const redisClient = await client();
    const s = await start((app) =>
      registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
        authenticate,
        migrations: SHOP_MIGRATIONS,
        rateLimit: false,
        redis: redisClient,
        redisPrefix: prefix,
        // A loaded machine must not turn a slow command into a 503: these tests are not about outages.
        redisTimeout: 2_000,
        webhooks: { allowPrivateUrls: true, pollInterval: 20, retrySchedule: [100], jitter: 0, attemptTimeout: 2000 },
      }),
    );
    servers.push(s);
    return s;
  }
  async function customerOn(s: Running): Promise<string> {
    return (await s.call('POST', '/v3/customers', { body: { email: `c${Math.random()}@example.com`, name: 'C' } })).body['id'] as string;
  }

  beforeAll(async () => {
    outDir = await generateInto('webhooks-redis');
    mod = await importServer(outDir);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const s of servers) await s.close().catch(() => undefined);
    clients.forEach((c) => c.disconnect());
    await receiver?.close();
  });

  it('delivers each event exactly once per endpoint from two instances, and an instance stopped mid-delivery finishes it', async () => {
    const prefix = testPrefix('two-instances');
    const a = await instance(prefix);
    const b = await instance(prefix);
    const made = await a.call('POST', '/v3/webhook_endpoints', { body: { url: receiver.url + '/both', events: ['order.created'] } });
    const other = await b.call('POST', '/v1/webhook_endpoints', { body: { url: receiver.url + '/both-v1', events: ['order.created'] } });
    // Stored in Redis: the other instance serves it.
    expect((await b.call('GET', `/v2/webhook_endpoints/${made.body['id'] as string}`)).body).toMatchObject({ version: 'v3', status: 'enabled' });
    const [ca, cb] = [await customerOn(a), await customerOn(b)];
    // Every delivery to /both takes 300 ms, so both instances hold some in flight at once.
    receiver.answer('/both', () => ({ status: 204, delay: 300 }));
    for (let i = 0; i < 10; i++) await (i % 2 ? a : b).call('POST', '/v3/orders', { body: { customer_id: i % 2 ? ca : cb, product_id: 1, quantity: i + 1 } });
    await receiver.waitFor('/both', 1);
    await a.close();
    const got = await receiver.waitFor('/both', 10);
    const v1 = await receiver.waitFor('/both-v1', 10);
    await new Promise((r) => setTimeout(r, 800));
    for (const list of [receiver.at('/both'), receiver.at('/both-v1')]) {
      expect(list).toHaveLength(10);
      expect(new Set(list.map((r) => r.headers['webhook-id'])).size).toBe(10);
    }
    expect(got.map((r) => (JSON.parse(r.body) as { data: { quantity: number } }).data.quantity).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(v1.every((r) => 'qty' in (JSON.parse(r.body) as { data: object }).data)).toBe(true);
    expect(other.status).toBe(201);
    // No command crossed slots or was sent to the wrong node (ioredis follows a MOVED; an error would be logged).
    for (const s of [a, b]) expect(s.errors.join('\n')).not.toMatch(/CROSSSLOT|MOVED|Redis/);
  });

  it('an instance that dies holding a delivery loses it when its lease runs out; another delivers it once', async () => {
    const prefix = testPrefix('lease');
    const writer = await start((app) =>
      client().then((redisClient) =>
        registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
          authenticate,
          migrations: SHOP_MIGRATIONS,
          redis: redisClient,
          redisPrefix: prefix,
          redisTimeout: 2_000,
          webhooks: { allowPrivateUrls: true, dispatch: false },
        }),
      ),
    );
    servers.push(writer);
    await writer.call('POST', '/v3/webhook_endpoints', { body: { url: receiver.url + '/lease', events: ['order.created'] } });
    await writer.call('POST', '/v3/orders', { body: { customer_id: await customerOn(writer), product_id: 1, quantity: 1 } });
    // A "dying" instance claims the delivery for 1.5 s and never sends or releases it.
    const store = (await import('../../packages/runtime/src/webhook-redis.ts')) as {
      createRedisOutbox(redis: unknown, prefix: string): Outbox;
    };
    const claimedAt = Date.now();
    const claimed = await store.createRedisOutbox(await client(), prefix).claim(claimedAt, 10, 1500);
    expect(claimed).toHaveLength(1);
    // A dispatcher worker (the separate-process way) over the same Redis, on a clock the test sets.
    let now = claimedAt;
    const worker = (mod['createWebhookDispatcher'] as (o: object) => { runOnce(): Promise<number> })({
      redis: await client(),
      redisPrefix: prefix,
      redisTimeout: 2_000,
      allowPrivateUrls: true,
      now: () => now,
    });
    // Never while the lease holds; once it has run out, delivered, once.
    now = claimedAt + 1499;
    expect(await worker.runOnce()).toBe(0);
    now = claimedAt + 1500;
    expect(await worker.runOnce()).toBe(1);
    now += 86_400_000;
    expect(await worker.runOnce()).toBe(0);
    expect(receiver.at('/lease').map((r) => r.headers['webhook-id'])).toEqual([claimed[0]!.id]);
  });
});
