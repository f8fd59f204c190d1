/**
 * An event the stream's log refuses after the handler stored the change (the log throws on append): the create
 * answers 201 with `Webhook-Events: deferred`, never a 503 that would make the client create again, and the order is
 * stored once; the event waits in the server's memory and reaches a reader once the log takes appends again, and
 * what still waits when the server closes is written then (the holder is the webhook deliveries' own, whose bound
 * and `lost` are tested in test/webhooks/deferred.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryEventLog, type EventLog } from '../../packages/runtime/src/index.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running, type ServerModule } from '../server/helpers.ts';
import { openStream } from './sse.ts';

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write'];

/** A memory log whose appends fail while `failing` is set. */
function flakyLog(): EventLog & { failing: boolean; appends: number } {
  const inner = createMemoryEventLog();
  const log = {
    failing: false,
    appends: 0,
    retention: inner.retention,
    read: (after: number, max: number) => inner.read(after, max),
    append: async (events: Parameters<EventLog['append']>[0]) => {
      log.appends++;
      if (log.failing) throw new Error('the log is away');
      await inner.append(events);
    },
  };
  return log;
}

let mod: ServerModule;
const servers: Running[] = [];
beforeAll(async () => {
  mod = await importServer(await generateInto('stream-deferred'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function serve(log: EventLog): Promise<Running> {
  const server = await start((app) =>
    registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
      authenticate: () => ({ id: 'admin', scopes: SCOPES }),
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      webhooks: { dispatch: false },
      stream: { log, pollInterval: 20 },
    }),
  );
  servers.push(server);
  return server;
}

describe("an event the stream's log refuses after the change was stored", () => {
  it('answers 201 with Webhook-Events: deferred, stores the order once, and streams its event once the log is back', async () => {
    const log = flakyLog();
    const server = await serve(log);
    const customer = (await server.call('POST', '/v3/customers', { body: { email: 'deferred@example.com', name: 'D' } })).body['id'] as string;
    const reader = await openStream(`${server.url}/v3/events`);
    const first = await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 6, quantity: 1 } });
    expect(first.status).toBe(201);
    expect(first.headers.get('webhook-events')).toBeNull();
    log.failing = true;
    const made = await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 6, quantity: 2 } });
    expect(made.status).toBe(201);
    expect(made.headers.get('webhook-events')).toBe('deferred');
    // Stored once: the client has no reason to create it again.
    const orders = await server.call('GET', '/v3/orders');
    expect((orders.body['data'] as { quantity: number }[]).filter((o) => o.quantity === 2)).toHaveLength(1);
    log.failing = false;
    const got = await reader.waitFor(2);
    expect(got.map((e) => (e.data.data as { quantity: number }).quantity)).toEqual([1, 2]);
    expect(got.map((e) => e.id)).toEqual(['1', '2']);
    reader.drop();
  });

  it('tries what waits once more when the server closes', async () => {
    const log = flakyLog();
    const server = await serve(log);
    const customer = (await server.call('POST', '/v3/customers', { body: { email: 'closing@example.com', name: 'C' } })).body['id'] as string;
    log.failing = true;
    const made = await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 1, quantity: 1 } });
    expect(made.status).toBe(201);
    expect(made.headers.get('webhook-events')).toBe('deferred');
    const before = log.appends;
    log.failing = false;
    servers.splice(servers.indexOf(server), 1);
    await server.close();
    // Well before the holder's first pause (500 ms): the close wrote what waited.
    expect(log.appends).toBe(before + 1);
    expect((await log.read(0, 10)).events.map((e) => e.type)).toEqual(['order.created']);
  });
});
