/**
 * The generated client's `events.stream()` against the generated server over real HTTP: typed events in the
 * client's version, the `types` filter, automatic resume with `Last-Event-ID` when connections break (every
 * event once, in order), `after`, 410 `stream_expired` thrown as a GoneError, and abort through `signal`.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as ClientModule from '../../examples/shop/generated/client/index.js';
import { createMemoryEventLog } from '../../packages/runtime/src/index.ts';
import { generateInto } from '../client/generate-client.ts';
import { SHOP_MIGRATIONS, TEST_FILES } from '../server/helpers.ts';

interface ServerModule {
  registerShopApi(app: FastifyInstance, handlers: unknown, options: object): Promise<void>;
  createMemoryHandlers(): unknown;
  createDiskFileStore(dir: string): unknown;
}
const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'orders:cancel', 'webhooks:write'];
const authenticate = () => ({ id: 'admin', scopes: SCOPES });

let out: { dir: string; cleanup: () => void };
let client: typeof ClientModule;
let server: ServerModule;
const apps: FastifyInstance[] = [];

async function startServer(stream: object = {}): Promise<string> {
  // Closes idle keep-alive connections a dropped fetch leaves behind at once.
  const app = Fastify({ forceCloseConnections: true });
  apps.push(app);
  await server.registerShopApi(app, server.createMemoryHandlers(), {
    authenticate,
    migrations: SHOP_MIGRATIONS,
    rateLimit: false,
    stream,
    files: server.createDiskFileStore(TEST_FILES),
  });
  return app.listen({ port: 0, host: '127.0.0.1' });
}
const order = (n: number) => ({
  type: 'order.created',
  time: Date.now(),
  data: JSON.stringify({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    customer_id: '00000000-0000-4000-8000-000000000001',
    product_id: 7,
    quantity: 1 + n,
    currency: 'EUR',
    status: 'open',
    total: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
  }),
});

beforeAll(async () => {
  out = await generateInto('stream-client');
  client = (await import(path.join(out.dir, 'client/index.ts'))) as typeof ClientModule;
  server = (await import(path.join(out.dir, 'server/index.ts'))) as ServerModule;
}, 60_000);
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  out?.cleanup();
});

describe('client.vN.events.stream()', () => {
  it('yields typed events in the client version, filtered by types, and stops on abort', async () => {
    const baseUrl = await startServer();
    const shop = client.createShopClient({ baseUrl, bearer: 'admin' });
    const controller = new AbortController();
    const got: ClientModule.V1.WebhookEvent[] = [];
    const reading = (async () => {
      for await (const event of shop.v1.events.stream({ types: ['order.created'], after: '0', signal: controller.signal })) {
        // Narrowed by type: v1's order has qty.
        if (event.type === 'order.created') expect(typeof event.data.qty).toBe('number');
        expect(event.id).toMatch(/^\d+$/);
        got.push(event);
        if (got.length === 2) controller.abort();
      }
    })();
    const customer = await shop.v3.customers.create({ email: 'a@example.com', name: 'A' });
    const first = await shop.v3.orders.create({ customer_id: customer.id, product_id: 7, quantity: 2 });
    await shop.v3.orders.cancel(first.id);
    await shop.v3.orders.create({ customer_id: customer.id, product_id: 7, quantity: 4 });
    await reading;
    expect(got.map((e) => e.type)).toEqual(['order.created', 'order.created']);
    expect(got.map((e) => (e.data as { qty: number }).qty)).toEqual([2, 4]);
  });

  it('resumes with Last-Event-ID when connections break, each event once and in order', async () => {
    const log = createMemoryEventLog();
    const baseUrl = await startServer({ log, retry: 10 });
    await log.append(Array.from({ length: 300 }, (_, i) => order(i)));
    // A fetch whose bodies break after 20 KB: the client must reconnect many times.
    let connections = 0;
    const breaking: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!response.headers.get('content-type')?.startsWith('text/event-stream') || response.body === null) return response;
      connections++;
      const reader = response.body.getReader();
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          const chunk = await reader.read();
          if (chunk.done || sent > 20_000) {
            await reader.cancel();
            return c.error(new TypeError('terminated'));
          }
          sent += chunk.value.length;
          c.enqueue(chunk.value);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const shop = client.createShopClient({ baseUrl, bearer: 'admin', fetch: breaking });
    const controller = new AbortController();
    const ids: string[] = [];
    for await (const event of shop.v3.events.stream({ after: '0', signal: controller.signal })) {
      ids.push(event.id);
      if (ids.length === 300) controller.abort();
    }
    expect(connections).toBeGreaterThan(2);
    expect(ids).toEqual(Array.from({ length: 300 }, (_, i) => String(i + 1)));
  });

  it('throws a GoneError (stream_expired) for a position the server no longer keeps', async () => {
    const log = createMemoryEventLog({ events: 2 });
    const baseUrl = await startServer({ log });
    await log.append([order(1), order(2), order(3), order(4)]);
    const shop = client.createShopClient({ baseUrl, bearer: 'admin' });
    const reading = (async () => {
      for await (const _ of shop.v3.events.stream({ after: '1' })) break;
    })();
    await expect(reading).rejects.toBeInstanceOf(client.GoneError);
    await expect(reading).rejects.toMatchObject({ status: 410, problem: { code: 'stream_expired' } });
  });
});
