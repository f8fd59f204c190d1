/**
 * Attack: the webhook routes while Redis is frozen (SIGSTOP: connections open, nothing answered) and while
 * it is stopped. The ioredis client waits for ever here (`maxRetriesPerRequest: null`), so only the server's
 * own bound (`redisTimeout`) can answer: listing and creating webhook endpoints and a create that emits an
 * event answer 503 with `Retry-After` while Redis is still away — never 500, never a hang — and the create
 * that emits changes nothing (the endpoints are read before its handler runs). Once Redis is back, all works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Answer, type Running, type ServerModule } from '../server/helpers.ts';
import { RedisProcess, redisBinary, requireRedis } from './redis-server.ts';

const binary = redisBinary();
const run = requireRedis(binary);
const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write'];

describe.runIf(run)('webhook routes with Redis away', () => {
  let redis: RedisProcess;
  let server: Running;
  let created = 0;
  const clients: { disconnect(): void }[] = [];

  beforeAll(async () => {
    redis = await RedisProcess.start(binary!);
    const mod: ServerModule = await importServer(await generateInto('attack-webhook-redis'));
    const { Redis } = await import('ioredis');
    // Commands queue and wait for ever while the server is away: without the server's bound, a route hangs.
    const client = new Redis(redis.url, { maxRetriesPerRequest: null });
    client.on('error', () => undefined);
    clients.push(client);
    const handlers = mod.createMemoryHandlers();
    const create = handlers['orders']!['create']!;
    handlers['orders']!['create'] = ((...args: never[]) => (created++, create(...args))) as never;
    server = await start((app) =>
      registerOf(mod, 'Shop')(app, handlers, {
        authenticate: () => ({ id: 'admin', scopes: SCOPES }),
        migrations: SHOP_MIGRATIONS,
        rateLimit: false,
        redis: client,
        redisPrefix: `outage:${process.pid}:${Date.now()}:`,
        redisTimeout: 300,
        webhooks: { allowPrivateUrls: true, dispatch: false },
      }),
    );
  });
  afterAll(async () => {
    redis?.thaw();
    await server?.close();
    clients.forEach((c) => c.disconnect());
    await redis?.kill();
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
      const answer = await call();
      expect(away(), `${name} answered while Redis was still away`).toBe(true);
      expect(answer.status, name).toBe(503);
      expect(answer.headers.get('retry-after'), name).toBe('1');
      expect(answer.headers.get('content-type'), name).toContain('application/problem+json');
      expect(JSON.stringify(answer.body), name).not.toMatch(/redis|eval|stack/i);
    }
    expect(created, 'the create that emits ran no handler').toBe(before);
  }

  it('frozen (SIGSTOP), then stopped: every webhook route answers 503 with Retry-After, then works again', async () => {
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
    for (let i = 0; i < 50 && listed !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      listed = (await server.call('GET', '/v3/webhook_endpoints')).status;
    }
    expect(listed).toBe(200);
    expect((await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 1, quantity: 1 } })).status).toBe(201);
  });
});
