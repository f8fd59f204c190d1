/**
 * Attack: the webhook routes while Redis is frozen (SIGSTOP: connections open, nothing answered) and while
 * it is stopped, on a single Redis and on a Redis Cluster of the test's own. The ioredis client waits for ever
 * here (`maxRetriesPerRequest: null`), so only the server's own bound (`redisTimeout`) can answer: listing and
 * creating webhook endpoints and a create that emits an event answer 503 with `Retry-After` while Redis is still
 * away — never 500, never a hang — and the create that emits changes nothing (the endpoints are read before its
 * handler runs). A request that needs Redis twice (its rate limits, then the endpoints its event goes to) waits
 * out the bound once: the second command fails at once, as the server's log shows. Once Redis is back, all works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnRedis, type OwnRedis } from '../helpers/own-redis.ts';
import { ready } from '../helpers/redis-targets.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Answer, type Running, type ServerModule } from '../server/helpers.ts';

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write'];

describe.each(['single', 'cluster'] as const)('webhook routes with Redis away (%s)', (kind) => {
  let redis: OwnRedis | null = null;
  let server: Running;
  let created = 0;
  const clients: { disconnect(): void }[] = [];

  beforeAll(async () => {
    redis = await startOwnRedis(kind);
    if (redis === null) return;
    const mod: ServerModule = await importServer(await generateInto('attack-webhook-redis'));
    // Commands queue and wait for ever while the server is away: without the server's bound, a route hangs.
    const client = await ready(redis.client());
    clients.push(client);
    const handlers = mod.createMemoryHandlers();
    const create = handlers['orders']!['create']!;
    handlers['orders']!['create'] = ((...args: never[]) => (created++, create(...args))) as never;
    server = await start((app) =>
      registerOf(mod, 'Shop')(app, handlers, {
        authenticate: () => ({ id: 'admin', scopes: SCOPES }),
        migrations: SHOP_MIGRATIONS,
        redis: client,
        redisPrefix: `outage:{${process.pid}-${Date.now()}}:`,
        redisTimeout: 300,
        webhooks: { allowPrivateUrls: true, dispatch: false },
      }),
    );
  });
  afterAll(async () => {
    redis?.thaw();
    await server?.close();
    clients.forEach((c) => c.disconnect());
    await redis?.stop();
  });

  const routes = (customer: string): [string, () => Promise<Answer>][] => [
    ['GET /v3/webhook_endpoints', () => server.call('GET', '/v3/webhook_endpoints')],
    ['POST /v3/webhook_endpoints', () => server.call('POST', '/v3/webhook_endpoints', { body: { url: 'http://127.0.0.1:9/hook', events: ['order.created'] } })],
    ['POST /v3/orders (emits order.created)', () => server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 1, quantity: 1 } })],
  ];

  /** Every route answers 503 + Retry-After while `away` holds (checked after the answers came). */
  async function expectUnavailable(customer: string, away: () => boolean): Promise<void> {
    const before = created;
    for (const [name, call] of routes(customer)) {
      const logged = server.errors.length;
      const answer = await call();
      expect(away(), `${name} answered while Redis was still away`).toBe(true);
      expect(answer.status, name).toBe(503);
      expect(answer.headers.get('retry-after'), name).toBe('1');
      expect(answer.headers.get('content-type'), name).toContain('application/problem+json');
      expect(JSON.stringify(answer.body), name).not.toMatch(/redis|eval|stack/i);
      // Its rate limits waited out the bound (and let it through); the webhook store then failed at once.
      expect(server.errors.slice(logged).join('\n'), name).toContain('Redis was found away a moment ago');
    }
    expect(created, 'the create that emits ran no handler').toBe(before);
  }

  it('frozen (SIGSTOP), then stopped: every webhook route answers 503 with Retry-After, then works again', async (context) => {
    if (redis === null) return context.skip();
    const customer = (await server.call('POST', '/v3/customers', { body: { email: 'outage@example.com', name: 'Outage' } })).body['id'] as string;
    const subscribed = await server.call('POST', '/v3/webhook_endpoints', { body: { url: 'http://127.0.0.1:9/hook', events: ['order.created'] } });
    expect(subscribed.status).toBe(201);
    let frozen = true;
    redis.freeze();
    try {
      await expectUnavailable(customer, () => frozen);
    } finally {
      frozen = false;
      redis.thaw();
    }

    let stopped = true;
    await redis.kill();
    try {
      await expectUnavailable(customer, () => stopped);
    } finally {
      stopped = false;
      await redis.restart();
    }

    let listed = 0;
    for (let i = 0; i < 100 && listed !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      listed = (await server.call('GET', '/v3/webhook_endpoints')).status;
    }
    expect(listed).toBe(200);
    expect((await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 1, quantity: 1 } })).status).toBe(201);
  }, 60_000);
});
