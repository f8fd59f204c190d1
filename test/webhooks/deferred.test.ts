/**
 * An event whose outbox write fails after its handler stored the change (the Redis outbox, Redis frozen between the
 * endpoint read and the write): the create answers 201 with `Webhook-Events: deferred`, never a 503 that would
 * make the client create again; the event waits in the server's memory and reaches the receiver once Redis is back.
 * The holder itself: past its bound, deliveries are logged as lost at once, and what still waits when the server
 * stops is tried once more and otherwise logged as lost, each with its webhook id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeferredEvents } from '../../packages/runtime/src/webhook-deferred.ts';
import { createMemoryEndpoints, createMemoryOutbox, type Delivery, type Outbox } from '../../packages/runtime/src/webhook-store.ts';
import { startOwnRedis, type OwnRedis } from '../helpers/own-redis.ts';
import { ready } from '../helpers/redis-targets.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Answer, type Running } from '../server/helpers.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write'];
const delivery = (n: number): Delivery => ({ id: `msg_${n}`, endpoint: 'e', type: 'order.created', body: '{}', attempts: 0, dueAt: 0 });

describe('an outbox that fails after the change was stored', () => {
  let redis: OwnRedis | null = null;
  let server: Running;
  let receiver: Receiver;
  const clients: { disconnect(): void }[] = [];
  beforeAll(async () => {
    redis = await startOwnRedis('single');
    receiver = await startReceiver();
    if (redis === null) return;
    const mod = await importServer(await generateInto('webhooks-deferred'));
    const client = await ready(redis.client());
    clients.push(client);
    server = await start((app) =>
      registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
        authenticate: () => ({ id: 'admin', scopes: SCOPES }),
        migrations: SHOP_MIGRATIONS,
        rateLimit: false,
        // Endpoints in memory (readable while Redis is frozen), the outbox in Redis.
        redis: client,
        redisTimeout: 1_000,
        webhooks: { endpoints: createMemoryEndpoints(), allowPrivateUrls: true, pollInterval: 20 },
      }),
    );
  });
  afterAll(async () => {
    redis?.thaw();
    await server?.close();
    clients.forEach((c) => c.disconnect());
    await receiver?.close();
    await redis?.stop();
  });

  it('answers 201 with Webhook-Events: deferred, stores the order once, and delivers its event once Redis is back', async (context) => {
    if (redis === null) return context.skip();
    expect((await server.call('POST', '/v3/webhook_endpoints', { body: { url: `${receiver.url}/deferred`, events: ['order.created'] } })).status).toBe(201);
    const customer = (await server.call('POST', '/v3/customers', { body: { email: 'deferred@example.com', name: 'D' } })).body['id'] as string;
    // With Redis there, the answer of a write whose event was written says nothing about it.
    const first = await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 6, quantity: 1 } });
    expect(first.status).toBe(201);
    expect(first.headers.get('webhook-events')).toBeNull();
    await receiver.waitFor('/deferred', 1);
    redis.freeze();
    let created: Answer;
    try {
      created = await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 7, quantity: 1 } });
    } finally {
      redis.thaw();
    }
    expect(created.status).toBe(201);
    expect(created.headers.get('webhook-events')).toBe('deferred');
    const orders = await server.call('GET', `/v3/orders?customer_id=${customer}&limit=10`);
    expect(orders.body.data!.map((o) => o['id'])).toEqual([first.body['id'], created.body['id']]);
    const got = (await receiver.waitFor('/deferred', 2))[1]!;
    expect(JSON.parse(got.body)).toMatchObject({ type: 'order.created', data: { id: created.body['id'], product_id: 7 } });
  });
});

describe('the holder of refused deliveries', () => {
  /** An outbox whose `add` fails while `refusing`, over a memory outbox. */
  function refusingOutbox(): Outbox & { refusing: boolean; added: Delivery[] } {
    const inner = createMemoryOutbox();
    const added: Delivery[] = [];
    const outbox = {
      ...inner,
      refusing: true,
      added,
      add: async (d: readonly Delivery[]) => {
        if (outbox.refusing) throw new Error('the outbox is away');
        added.push(...d);
        await inner.add(d);
      },
    };
    return outbox;
  }
  const logOf = () => {
    const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
    const at = (level: string) => (obj: object, msg: string) => void lines.push({ level, obj: obj as Record<string, unknown>, msg });
    return { lines, log: { info: at('info'), warn: at('warn'), error: at('error') } };
  };

  it('holds up to its bound, logs the rest as lost at once, and at stop tries once more before logging what waits as lost', async () => {
    const outbox = refusingOutbox();
    const { lines, log } = logOf();
    const held = createDeferredEvents(outbox, log, 2);
    expect(held.hold([delivery(1), delivery(2)], new Error('away'))).toBe('deferred');
    expect(held.hold([delivery(3)], new Error('away'))).toBe('lost');
    expect(lines.filter((l) => l.level === 'error').map((l) => l.obj['webhookId'])).toEqual(['msg_3']);
    await held.stop();
    expect(lines.filter((l) => l.level === 'error').map((l) => l.obj['webhookId'])).toEqual(['msg_3', 'msg_1', 'msg_2']);
    expect(held.size).toBe(0);
  });

  it('adds what it holds once the outbox takes it again', async () => {
    const outbox = refusingOutbox();
    const held = createDeferredEvents(outbox, logOf().log);
    held.hold([delivery(1)], new Error('away'));
    outbox.refusing = false;
    for (let i = 0; i < 100 && outbox.added.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(outbox.added.map((d) => d.id)).toEqual(['msg_1']);
    expect(held.size).toBe(0);
    await held.stop();
  });
});
