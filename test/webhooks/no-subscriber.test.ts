/**
 * End to end over HTTP with a real receiver on loopback: with the event stream off (`stream: false`, which keeps
 * every event for its readers otherwise), a write whose event nobody subscribes to does no event work. A delete loads
 * the resource first (its event carries the resource as it was) only when an endpoint subscribes to the deleted
 * event, or when the collection has file fields (orders hold an invoice: the keys of its content are read before it
 * goes); then one read serves both, and nothing is sent without a subscriber.
 * Handlers without a derived event (list, get) are called as they are, and `ctx.emit` still reaches every
 * handler.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running } from '../server/helpers.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'orders:cancel', 'webhooks:read', 'webhooks:write'];
let server: Running;
let receiver: Receiver;
let customer = '';
let gets = 0;
const contexts: { emit?: unknown }[] = [];

beforeAll(async () => {
  const mod = await importServer(await generateInto('webhooks-idle'));
  receiver = await startReceiver();
  const handlers = mod.createMemoryHandlers() as Record<string, Record<string, (...a: unknown[]) => unknown>>;
  const orders = handlers['orders']!;
  const get = orders['get']!.bind(orders);
  orders['get'] = (id: unknown, ctx: unknown) => {
    gets++;
    contexts.push(ctx as { emit?: unknown });
    return get(id, ctx);
  };
  server = await start((app) =>
    registerOf(mod, 'Shop')(app, handlers, {
      authenticate: () => ({ id: 'admin', scopes: SCOPES }),
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      webhooks: { allowPrivateUrls: true, pollInterval: 20, jitter: 0 },
      stream: false,
    }),
  );
  customer = (await server.call('POST', '/v3/customers', { body: { email: 'idle@example.com', name: 'Idle' } })).body['id'] as string;
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

const newOrder = async () => (await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 3, quantity: 2 } })).body['id'] as string;

describe('a write nobody subscribes to', () => {
  it('a delete loads the resource once: for its files (orders hold an invoice), and the same read carries its event when one is subscribed', async () => {
    const first = await newOrder();
    gets = 0;
    expect((await server.call('DELETE', `/v3/orders/${first}`)).status).toBe(204);
    expect(gets).toBe(1);
    expect((await server.call('GET', `/v3/orders/${first}`)).status).toBe(404);

    const hook = await server.call('POST', '/v3/webhook_endpoints', { body: { url: `${receiver.url}/deleted`, events: ['order.deleted'] } });
    expect(hook.status).toBe(201);
    const second = await newOrder();
    gets = 0;
    expect((await server.call('DELETE', `/v3/orders/${second}`)).status).toBe(204);
    expect(gets).toBe(1);
    const [deleted] = await receiver.waitFor('/deleted', 1);
    expect(JSON.parse(deleted!.body)).toMatchObject({ type: 'order.deleted', data: { id: second, quantity: 2 } });
    // The first delete sent nothing, also not later.
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.at('/deleted')).toHaveLength(1);
  });

  it('a handler without a derived event still gets a working ctx.emit (it refuses unknown types)', async () => {
    const id = await newOrder();
    contexts.length = 0;
    expect((await server.call('GET', `/v3/orders/${id}`)).status).toBe(200);
    const emit = contexts[0]?.emit;
    expect(typeof emit).toBe('function');
    await expect((emit as (type: string, data: object) => Promise<void>)('order.nothing', {})).rejects.toThrow(/no custom event has this type/);
  });
});
