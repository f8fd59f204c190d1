/**
 * The event stream on a real Redis, a single one and a cluster (`scripts/ensure-redis.sh`,
 * `scripts/ensure-redis-cluster.sh`): the Redis event log numbers, pages, keeps its retention (by count, and by age
 * on an injected clock) and says when a position has expired, as the memory log does; two server instances share
 * it, so an event written through instance A reaches a reader of instance B (within B's poll interval), in B's
 * reader's version, and a reader resumes on B from an id A's stream sent; its keys are under the API's prefix, in
 * the slot of its hash tag; on a cluster, a prefix without a hash tag is refused at startup. Skipped without
 * redis-server, except in CI, where that fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisEventLog } from '../../packages/runtime/src/index.ts';
import { createMemoryEndpoints, createMemoryOutbox } from '../../packages/runtime/src/webhook-store.ts';
import { createRedisGuard } from '../../packages/runtime/src/redis-guard.ts';
import { keysUnder, ready, redisTargets, testPrefix, type RedisTarget } from '../helpers/redis-targets.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running, type ServerModule } from '../server/helpers.ts';
import { openStream } from './sse.ts';

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write'];
const authenticate = () => ({ id: 'admin', scopes: SCOPES });
const event = (n: number, time: number) => ({ type: 't', time, data: JSON.stringify({ n }) });

// A loaded machine must not turn a slow command into a failure: these tests are not about outages.
const guard = () => createRedisGuard(2_000);

describe.each(redisTargets())('the event stream on Redis ($name)', (target: RedisTarget) => {
  let mod: ServerModule;
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
        redisTimeout: 2_000,
        webhooks: { dispatch: false },
        stream: { pollInterval: 20 },
      }),
    );
    servers.push(s);
    return s;
  }

  beforeAll(async () => {
    mod = await importServer(await generateInto('stream-redis'));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    for (const c of clients) c.disconnect();
  });

  it('numbers, pages and expires as the memory log does', async () => {
    let now = 5_000_000;
    const log = createRedisEventLog(await client(), testPrefix('log'), guard(), { ms: 60_000, events: 1000 }, () => now);
    expect(await log.read(0, 10)).toEqual({ events: [], head: 0, expired: false });
    await log.append([event(1, now), event(2, now)]);
    await log.append([event(3, now)]);
    const page = await log.read(1, 1);
    expect(page).toMatchObject({ head: 3, expired: false });
    expect(page.events).toEqual([{ seq: 2, type: 't', time: now, data: '{"n":2}' }]);
    expect((await log.read(4, 10)).expired).toBe(true);
    // Older than retention.ms: dropped when the next event comes.
    now += 60_001;
    await log.append([event(4, now)]);
    expect((await log.read(0, 10)).expired).toBe(true);
    expect((await log.read(3, 10)).events.map((e) => e.seq)).toEqual([4]);
  });

  it('keeps about retention.events events (Redis trims whole nodes)', async () => {
    const log = createRedisEventLog(await client(), testPrefix('trim'), guard(), { events: 100 });
    for (let i = 0; i < 20; i++) await log.append(Array.from({ length: 50 }, (_, j) => event(i * 50 + j, Date.now())));
    const kept = await log.read(900, 1000);
    expect(kept.expired).toBe(false);
    expect(kept.events.map((e) => e.seq)).toEqual(Array.from({ length: 100 }, (_, i) => 901 + i));
    expect((await log.read(1, 1)).expired).toBe(true);
  });

  it('carries an event written on one instance to a reader on another, in the reader version', async () => {
    const prefix = testPrefix('shop-a');
    const a = await instance(prefix);
    const b = await instance(prefix);
    const reader = await openStream(`${b.url}/v1/events`);
    const customer = await a.call('POST', '/v3/customers', { body: { email: 'x@example.com', name: 'X' } });
    await a.call('POST', '/v3/orders', { body: { customer_id: customer.body['id'], product_id: 7, quantity: 5, reference: 'RF-0009' } });
    const [got] = await reader.waitFor(1);
    expect(got!.id).toBe('1');
    expect(got!.data.data).toMatchObject({ qty: 5, reference: 9 });
    // A reader of A resumes on B from an id A's stream sent.
    const onA = await openStream(`${a.url}/v3/events?after=0`);
    const [first] = await onA.waitFor(1);
    onA.drop();
    await a.call('POST', '/v3/orders', { body: { customer_id: customer.body['id'], product_id: 8, quantity: 1 } });
    const resumed = await openStream(`${b.url}/v3/events`, { headers: { 'last-event-id': first!.id! } });
    expect((await resumed.waitFor(1))[0]!.data.data).toMatchObject({ product_id: 8 });
    for (const s of [reader, resumed]) s.drop();
    // Both keys under the API's prefix, in one Cluster slot (its hash tag).
    const keys = (await keysUnder(await client(), `${prefix}ev:`)).sort();
    expect(keys).toEqual([`${prefix}ev:log`, `${prefix}ev:seq`]);
  });

  it('keeps every instance of another API (another prefix) apart', async () => {
    const a = await instance(testPrefix('shop-b'));
    const other = await instance(testPrefix('shop-c'));
    const reader = await openStream(`${other.url}/v3/events?after=0`);
    const customer = await a.call('POST', '/v3/customers', { body: { email: 'y@example.com', name: 'Y' } });
    await a.call('POST', '/v3/orders', { body: { customer_id: customer.body['id'], product_id: 7, quantity: 5 } });
    await new Promise((r) => setTimeout(r, 200));
    expect(reader.events).toEqual([]);
    reader.drop();
  });

  it.runIf(target.name === 'cluster')('refuses a prefix without a hash tag on a cluster, also with the webhook stores given', async () => {
    const redisClient = await client();
    const register = registerOf(mod, 'Shop');
    await expect(
      start((app) =>
        register(app, mod.createMemoryHandlers(), {
          authenticate,
          migrations: SHOP_MIGRATIONS,
          rateLimit: false,
          redis: redisClient,
          redisPrefix: 'untagged:',
          webhooks: { dispatch: false, outbox: createMemoryOutbox(), endpoints: createMemoryEndpoints() },
        }),
      ),
    ).rejects.toThrow(/redisPrefix "untagged:" has no hash tag, and on a Redis Cluster the event stream's log keys must share one slot/);
  });
});
