/**
 * `ctx.events` with the memory outbox (no transactions to write in): a handler that passes its resource to
 * `ctx.events.write` still sends exactly one event per write, after it answered and of the resource it
 * passed; a write that answers a problem sends none; `ctx.events.emit` refuses a type the API does not
 * declare, as `ctx.emit` does. End to end over HTTP with a receiver on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandlerContext } from '../../packages/runtime/src/types.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running } from '../server/helpers.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'orders:cancel', 'webhooks:read', 'webhooks:write'];
type Fn = (...args: unknown[]) => unknown;
let server: Running;
let receiver: Receiver;
let customer = '';
const emitted: unknown[] = [];

beforeAll(async () => {
  const mod = await importServer(await generateInto('handler-events'));
  receiver = await startReceiver();
  const handlers = mod.createMemoryHandlers() as Record<string, Record<string, Fn>>;
  const orders = handlers['orders']!;
  // Handlers written for a transactional store: each passes what it wrote to ctx.events.write.
  for (const op of ['create', 'update', 'cancel'] as const) {
    const inner = orders[op]!.bind(orders);
    orders[op] = async (...args: unknown[]) => {
      const ctx = args.at(-1) as HandlerContext;
      const result = await inner(...args);
      if (result instanceof Error) return result;
      await ctx.events.write({ tx: 'not used by the memory outbox' }, { ...(result as object), giftMessage: `written by ${op}` });
      return result;
    };
  }
  const get = orders['get']!.bind(orders);
  orders['get'] = async (id: unknown, ctx: unknown) => {
    await (ctx as HandlerContext).events.emit(null, 'order.nonsense', {}).catch((error: unknown) => emitted.push(error));
    return get(id, ctx);
  };
  server = await start((app) =>
    registerOf(mod, 'Shop')(app, handlers, {
      authenticate: () => ({ id: 'admin', scopes: SCOPES }),
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      webhooks: { allowPrivateUrls: true, pollInterval: 20, jitter: 0 },
    }),
  );
  expect(
    (
      await server.call('POST', '/v3/webhook_endpoints', {
        body: { url: `${receiver.url}/hook`, events: ['order.created', 'order.updated', 'order.cancelled'] },
      })
    ).status,
  ).toBe(201);
  customer = (await server.call('POST', '/v3/customers', { body: { email: 'events@example.com', name: 'Events' } })).body['id'] as string;
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

describe('ctx.events with the memory outbox', () => {
  it('sends one event per write, of the resource the handler passed; a problem sends none', async () => {
    const id = (await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 1, quantity: 1 } })).body['id'] as string;
    expect((await server.call('POST', `/v3/orders/${id}:ship`, { body: { carrier: 'DHL' } })).status).toBe(409);
    expect((await server.call('PATCH', `/v3/orders/${id}`, { body: { quantity: 2 } })).status).toBe(200);
    expect((await server.call('POST', `/v3/orders/${id}:cancel`, { body: {} })).status).toBe(200);
    const got = await receiver.waitFor('/hook', 3);
    // A marker after them: had any write sent twice, its copy would have arrived before the marker's.
    await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 2, quantity: 1 } });
    await receiver.waitFor('/hook', 4);
    const events = receiver.at('/hook').map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
    expect(got).toHaveLength(3);
    expect(events.map((e) => [e.type, e.data['giftMessage']]).sort()).toEqual([
      ['order.cancelled', 'written by cancel'],
      ['order.created', 'written by create'],
      ['order.created', 'written by create'],
      ['order.updated', 'written by update'],
    ]);
  });

  it('ctx.events.emit refuses a type the API does not declare', async () => {
    await server.call('GET', `/v3/orders/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d99`);
    expect(emitted.at(-1)).toBeInstanceOf(TypeError);
    expect(String(emitted.at(-1))).toContain("ctx.emit('order.nonsense')");
  });
});
