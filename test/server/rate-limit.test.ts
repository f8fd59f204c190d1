/**
 * End to end over HTTP: the declared rate limits (API 100/min, orders 20/s) counted per principal and per
 * IP when anonymous, RateLimit headers on every answer, 429 with Retry-After, and a Redis-backed counter
 * shared by two Fastify instances (a real single Redis and a real Redis Cluster, started by
 * `scripts/ensure-redis.sh` and `scripts/ensure-redis-cluster.sh`).
 */
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onMovingClock } from '../helpers/clock.ts';
import { keysUnder, ready, redisTargets, testPrefix, type RedisTarget } from '../helpers/redis-targets.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, testAuthenticate, type Register, type Running, type ServerModule } from './helpers.ts';

let mod: ServerModule;
let register: Register;
let server: Running;

beforeAll(async () => {
  mod = await importServer(await generateInto('rate-limit'));
  register = registerOf(mod, 'Shop');
  server = await start((app) => register(app, mod.createMemoryHandlers(), { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS }));
});
afterAll(() => server.close());

describe('rate limits in memory', () => {
  it('orders allow 20 requests per second per principal, then 429 with Retry-After; headers on every answer', async () => {
    // The limiter's windows follow Date, which stands still here: all 21 requests fall in one 1-second window
    // however busy the machine, and the next window comes without waiting.
    await onMovingClock(async (later) => {
      const answers = await Promise.all(Array.from({ length: 21 }, () => server.call('GET', '/v3/orders', { token: 'limit-a' })));
      const ok = answers.filter((a) => a.status === 200);
      expect(ok).toHaveLength(20);
      for (const a of ok) {
        expect(a.headers.get('ratelimit-limit')).toBe('20');
        expect(a.headers.get('ratelimit-policy')).toBe('20;w=1');
      }
      expect(ok.map((a) => Number(a.headers.get('ratelimit-remaining'))).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      const limited = answers.find((a) => a.status !== 200)!;
      expect(limited.status).toBe(429);
      expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(limited.body).toMatchObject({ code: 'rate_limited', status: 429 });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited.headers.get('ratelimit-remaining')).toBe('0');

      // Another principal has its own counter; anonymous callers (orders are public until v3) are counted per IP.
      expect((await server.call('GET', '/v3/orders', { token: 'limit-b' })).status).toBe(200);
      expect((await server.call('GET', '/v2/orders', { token: null })).headers.get('ratelimit-remaining')).toBe('19');
      // The limit covers every version of the collection.
      expect((await server.call('GET', '/v1/orders', { token: 'limit-a' })).status).toBe(429);
      // After the window the principal may call again.
      later(1100);
      expect((await server.call('GET', '/v3/orders', { token: 'limit-a' })).status).toBe(200);
    });
  });

  it('anonymous callers are counted per IPv4 address or per IPv6 /64 network (rotating addresses inside one does not help)', async () => {
    // Behind a proxy (trustProxy): the client address is the one X-Forwarded-For names.
    const app = Fastify({ trustProxy: true, logger: false });
    await register(app, mod.createMemoryHandlers(), { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/v2/orders`;
      const from = (ip: string) => fetch(url, { headers: { 'x-forwarded-for': ip } }).then(async (r) => (await r.arrayBuffer(), r.status));
      // Sent at once, so that all 21 fall in one 1-second window even on a busy machine.
      const statuses = await Promise.all(Array.from({ length: 21 }, (_, i) => from(`2001:db8:5:1:${(i + 1).toString(16)}::1`)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
      expect(statuses.filter((s) => s === 429)).toHaveLength(1);
      expect(await from('2001:db8:5:2::1')).toBe(200);
      const v4 = await Promise.all(Array.from({ length: 20 }, () => from('198.51.100.4')));
      expect(v4.every((s) => s === 200)).toBe(true);
      expect(await from('::ffff:198.51.100.4')).toBe(429);
    } finally {
      await app.close();
    }
  });

  it('the API limit (100 per minute) counts across collections and shows when it is the tighter one', async () => {
    for (let i = 0; i < 95; i++) {
      const a = await server.call('GET', '/v3/customers?limit=1', { token: 'limit-c' });
      expect(a.status).toBe(200);
    }
    const orders = await server.call('GET', '/v3/orders', { token: 'limit-c' });
    // The collection allows 19 more this second but the API only 4 more this minute.
    expect(orders.headers.get('ratelimit-limit')).toBe('100');
    expect(orders.headers.get('ratelimit-remaining')).toBe('4');
    for (let i = 0; i < 4; i++) await server.call('GET', '/v3/customers?limit=1', { token: 'limit-c' });
    const limited = await server.call('GET', '/v3/coupons', { token: 'limit-c' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(1);
  });

  it('401 comes before 429, and 429 before 415 and 400', async () => {
    // Exhaust the API limit (a minute's window, so the next calls are surely inside it).
    await Promise.all(Array.from({ length: 100 }, () => server.call('GET', '/v3/customers?limit=1', { token: 'limit-d' })));
    expect((await server.call('POST', '/v3/customers', { token: 'limit-d', raw: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(429);
    expect((await server.call('POST', '/v3/customers', { token: 'limit-d', body: { nope: 1 } })).status).toBe(429);
    expect((await server.call('POST', '/v3/orders', { token: null, body: {} })).status).toBe(401);
  });

  it('rateLimit: false turns the limits off', async () => {
    const open = await start((app) =>
      register(app, mod.createMemoryHandlers(), { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS, rateLimit: false }),
    );
    try {
      for (let i = 0; i < 25; i++) expect((await open.call('GET', '/v3/orders', { token: 'x' })).status).toBe(200);
      expect((await open.call('GET', '/v3/orders')).headers.get('ratelimit-limit')).toBeNull();
    } finally {
      await open.close();
    }
  });
});

describe.each(redisTargets())('rate limits in Redis ($name), shared by two instances', (target: RedisTarget) => {
  it('two Fastify instances on one Redis share the orders limit and the idempotent answers', async () => {
    const clients = await Promise.all([ready(target.client()), ready(target.client())]);
    const prefix = testPrefix('rate-limit');
    const servers = await Promise.all(
      clients.map((redis) =>
        start((app) =>
          register(app, mod.createMemoryHandlers(), {
            authenticate: testAuthenticate,
            migrations: SHOP_MIGRATIONS,
            redis,
            redisPrefix: prefix,
            redisTimeout: 2_000,
          }),
        ),
      ),
    );
    try {
      const statuses = (await Promise.all(Array.from({ length: 21 }, (_, i) => servers[i % 2]!.call('GET', '/v3/orders', { token: 'shared' })))).map(
        (a) => a.status,
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
      expect(statuses.filter((s) => s === 429)).toHaveLength(1);
      const a = await servers[0]!.call('GET', '/v3/customers', { token: 'shared' });
      expect(a.headers.get('ratelimit-remaining')).toBe('78');
      const b = await servers[1]!.call('GET', '/v3/customers', { token: 'shared' });
      expect(b.headers.get('ratelimit-remaining')).toBe('77');
      // A create retried on the other instance is replayed from Redis, not run again.
      const body = { email: 'idem@example.com', name: 'Idem' };
      const first = await servers[0]!.call('POST', '/v3/customers', { token: 'idem', body, headers: { 'idempotency-key': 'k-1' } });
      const retry = await servers[1]!.call('POST', '/v3/customers', { token: 'idem', body, headers: { 'idempotency-key': 'k-1' } });
      expect(first.status).toBe(201);
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get('location')).toBe(first.headers.get('location'));
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect((await servers[1]!.call('GET', `/v3/customers?email=idem%40example.com`, { token: 'idem' })).body.data).toEqual([]);
      // The counters are in Redis under the prefix.
      const keys = await keysUnder(clients[0]!, prefix);
      expect(keys.length).toBeGreaterThanOrEqual(2);
      for (const s of servers) expect(s.errors.join('\n')).not.toMatch(/CROSSSLOT|MOVED|Redis/);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      for (const key of await keysUnder(clients[0]!, prefix)) await clients[0]!.del(key);
      clients.forEach((c) => c.disconnect());
    }
  });
});
