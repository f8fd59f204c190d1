/**
 * The event stream on a real Redis (the redis-server `scripts/ensure-redis.sh` installs): the Redis event log
 * numbers, pages, keeps its retention (by count, and by age on an injected clock) and says when a position has
 * expired, as the memory log does; two server instances share it, so an event written through instance A reaches
 * a reader of instance B (within B's poll interval), in B's reader's version, and a reader resumes on B from an
 * id A's stream sent. Skipped without redis-server, except in CI, where that fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisEventLog } from '../../packages/runtime/src/index.ts';
import { RedisProcess, redisBinary, requireRedis } from '../attack/redis-server.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running, type ServerModule } from '../server/helpers.ts';
import { openStream } from './sse.ts';

const binary = redisBinary();
const run = requireRedis(binary);
const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write'];
const authenticate = () => ({ id: 'admin', scopes: SCOPES });
const event = (n: number, time: number) => ({ type: 't', time, data: JSON.stringify({ n }) });

describe.runIf(run)('the event stream on Redis', () => {
  let redis: RedisProcess;
  let mod: ServerModule;
  const clients: { disconnect(): void }[] = [];
  const servers: Running[] = [];

  async function client() {
    const { Redis } = await import('ioredis');
    const c = new Redis(redis.url);
    c.on('error', () => undefined);
    clients.push(c);
    return c;
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
        webhooks: { dispatch: false },
        stream: { pollInterval: 20 },
      }),
    );
    servers.push(s);
    return s;
  }

  beforeAll(async () => {
    redis = await RedisProcess.start(binary!);
    mod = await importServer(await generateInto('stream-redis'));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    for (const c of clients) c.disconnect();
    await redis?.kill();
  });

  it('numbers, pages and expires as the memory log does', async () => {
    let now = 5_000_000;
    const log = createRedisEventLog(await client(), '{t1}:', 1000, { ms: 60_000, events: 1000 }, () => now);
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
    const log = createRedisEventLog(await client(), '{t2}:', 1000, { events: 100 });
    for (let i = 0; i < 20; i++) await log.append(Array.from({ length: 50 }, (_, j) => event(i * 50 + j, Date.now())));
    const kept = await log.read(900, 1000);
    expect(kept.expired).toBe(false);
    expect(kept.events.map((e) => e.seq)).toEqual(Array.from({ length: 100 }, (_, i) => 901 + i));
    expect((await log.read(1, 1)).expired).toBe(true);
  });

  it('carries an event written on one instance to a reader on another, in the reader version', async () => {
    const a = await instance('{shop-a}:');
    const b = await instance('{shop-a}:');
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
    const keys = (await (await client()).keys('{shop-a}:*{stream}*')).sort();
    expect(keys).toEqual(['{shop-a}:{stream}:log', '{shop-a}:{stream}:seq']);
  });

  it('keeps every instance of another API (another prefix) apart', async () => {
    const a = await instance('{shop-b}:');
    const other = await instance('{shop-c}:');
    const reader = await openStream(`${other.url}/v3/events?after=0`);
    const customer = await a.call('POST', '/v3/customers', { body: { email: 'y@example.com', name: 'Y' } });
    await a.call('POST', '/v3/orders', { body: { customer_id: customer.body['id'], product_id: 7, quantity: 5 } });
    await new Promise((r) => setTimeout(r, 200));
    expect(reader.events).toEqual([]);
    reader.drop();
  });
});
