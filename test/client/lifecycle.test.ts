/**
 * End to end: the generated client's transitions and conditional requests against the generated server
 * on 127.0.0.1. Transitions typed per version (`client.v2.orders.cancel(id, { reason })`), the 409 as a
 * typed `InvalidTransitionError` with the state and the transitions open from it, a v1 client seeing a
 * state added in v3 as its fallback, ETags remembered for the resources the client returned (`ifMatch:
 * etagOf(order)`), `PreconditionFailedError`, `PreconditionRequiredError` and `NotModifiedError`, and a
 * transition whose answer was lost: retried with the same Idempotency-Key, the server replays it.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as ClientModule from '../../examples/shop/generated/client/index.js';
import type { Fetch } from '../../examples/shop/generated/client/index.js';
import { TEST_FILES } from '../server/helpers.ts';
import { generateInto } from './generate-client.ts';

interface ServerModule {
  registerShopApi(app: FastifyInstance, handlers: unknown, options: object): Promise<void>;
  createMemoryHandlers(seed?: object): unknown;
  createDiskFileStore(dir: string): unknown;
}

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'orders:cancel'];
const migrations = {
  v2: { orders: { note: { value: () => undefined } } },
  v3: {
    customers: { name: { whenMissing: () => '(guest)' } },
    orders: { reference: { up: (v: number) => `RF-${String(v).padStart(4, '0')}`, down: (v: string) => Number(v.slice(3)) } },
  },
};

let out: { dir: string; cleanup: () => void };
let client: typeof ClientModule;
let app: FastifyInstance;
let baseUrl = '';
let tokens = 0;
/** A client with a fresh principal (the server's rate limits are off). */
const shopClient = (options: Partial<ClientModule.ShopClientOptions> = {}) =>
  client.createShopClient({ baseUrl, bearer: `secret-${++tokens}`, retryDelay: 5, ...options });
let customer = '';

beforeAll(async () => {
  out = await generateInto('client-lifecycle');
  client = (await import(path.join(out.dir, 'client/index.ts'))) as typeof ClientModule;
  const server = (await import(path.join(out.dir, 'server/index.ts'))) as ServerModule;
  app = Fastify();
  await server.registerShopApi(app, server.createMemoryHandlers(), {
    authenticate: ({ token }: { token: string }) => (token.startsWith('secret') ? { id: token, scopes: SCOPES } : null),
    migrations,
    rateLimit: false,
    files: server.createDiskFileStore(TEST_FILES),
  });
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  customer = (await shopClient().v3.customers.create({ email: 'client-life@example.com' })).id;
}, 60_000);
afterAll(async () => {
  await app?.close();
  out?.cleanup();
});

describe('transitions through the client', () => {
  it('moves an order per version, typed with that version; a move not allowed is an InvalidTransitionError', async () => {
    const shop = shopClient();
    const order = await shop.v2.orders.create({ customer_id: customer, product_id: 7, quantity: 1 });
    const paid = await shop.v1.orders.pay(order.id);
    expect(paid).toMatchObject({ id: order.id, status: 'paid', qty: 1 });
    const shipped = await shop.v3.orders.ship(order.id, { carrier: 'DHL', trackingCode: 'JD1' });
    expect(shipped.status).toBe('shipped');
    const error = await shop.v2.orders.cancel(order.id, { reason: 'too late' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(client.InvalidTransitionError);
    expect(error).toBeInstanceOf(client.ConflictError);
    const invalid = error as ClientModule.InvalidTransitionError;
    expect(invalid.status).toBe(409);
    expect(invalid.state).toBe('shipped');
    expect(invalid.allowed).toEqual([]);
    expect((await shop.v3.orders.cancel(order.id).catch((e: unknown) => e)) as ClientModule.InvalidTransitionError).toMatchObject({
      state: 'shipped',
      allowed: ['refund'],
    });
    await expect(shop.v3.orders.refund(order.id)).resolves.toMatchObject({ status: 'refunded' });
  });

  it('a v1 client sees the v3 state refunded as its fallback, cancelled', async () => {
    const shop = shopClient();
    const order = await shop.v3.orders.create({ customer_id: customer, product_id: 8, quantity: 2 });
    await shop.v3.orders.pay(order.id);
    await shop.v3.orders.refund(order.id);
    await expect(shop.v1.orders.get(order.id)).resolves.toMatchObject({ status: 'cancelled', qty: 2 });
    const page = await shop.v2.orders.list({ customer_id: customer, limit: 100 });
    expect(page.data.find((o) => o.id === order.id)).toMatchObject({ status: 'cancelled' });
    const error = (await shop.v1.orders.pay(order.id).catch((e: unknown) => e)) as ClientModule.InvalidTransitionError;
    expect(error).toMatchObject({ state: 'cancelled', allowed: [] });
    await expect(shop.v3.orders.get(order.id)).resolves.toMatchObject({ status: 'refunded' });
  });

  it('a lost answer: the retry carries the same Idempotency-Key and the server replays it (the order moved once)', async () => {
    const keys: string[] = [];
    let lose = true;
    const losing: Fetch = async (url, init) => {
      const response = await fetch(url, init);
      const transition = new URL(url).pathname.includes(':');
      if (init.method === 'POST' && transition) keys.push(init.headers.get('idempotency-key') ?? '');
      if (lose && transition) {
        lose = false;
        await response.body?.cancel();
        throw new TypeError('socket hang up (after the server answered)');
      }
      return response;
    };
    const shop = shopClient({ fetch: losing });
    const order = await shop.v3.orders.create({ customer_id: customer, product_id: 9, quantity: 1 });
    const { data, response } = await shop.v3.orders.pay(order.id).withResponse();
    expect(data.status).toBe('paid');
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    // A 409 is final: no retry.
    const attempts: number[] = [];
    await expect(shop.v3.orders.pay(order.id, undefined, { onAttempt: (e) => attempts.push(e.attempt) })).rejects.toBeInstanceOf(client.InvalidTransitionError);
    expect(attempts).toEqual([1]);
  });
});

describe('conditional requests through the client', () => {
  it('ifMatch takes the etagOf a resource the client returned; a stale one is a PreconditionFailedError', async () => {
    const shop = shopClient();
    const order = await shop.v3.orders.create({ customer_id: customer, product_id: 7, quantity: 1 });
    const tag = client.etagOf(order);
    expect(tag).toMatch(/^"[\w-]{22}"$/);
    // Another client changes it meanwhile.
    const other = shopClient();
    const theirs = await other.v1.orders.update(order.id, { qty: 4 });
    expect(client.etagOf(theirs)).not.toBe(tag);
    const stale = await shop.v3.orders.update(order.id, { quantity: 2 }, { ifMatch: client.etagOf(order) }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(client.PreconditionFailedError);
    expect((stale as ClientModule.ApiError).status).toBe(412);
    const fresh = await shop.v3.orders.get(order.id);
    // The same revision has the same ETag in every version.
    expect(client.etagOf(fresh)).toBe(client.etagOf(theirs));
    await expect(shop.v3.orders.update(order.id, { quantity: 2 }, { ifMatch: client.etagOf(fresh) })).resolves.toMatchObject({ quantity: 2 });
    await expect(shop.v3.orders.cancel(order.id, {}, { ifMatch: client.etagOf(fresh) })).rejects.toBeInstanceOf(client.PreconditionFailedError);
    const latest = await shop.v2.orders.get(order.id);
    await expect(shop.v2.orders.cancel(order.id, { reason: 'x' }, { ifMatch: client.etagOf(latest) })).resolves.toMatchObject({ status: 'cancelled' });
  });

  it('an object the client did not return has no ETag: etagOf is a TypeError, so no write goes out without its condition', async () => {
    const shop = shopClient();
    const page = await shop.v3.orders.list({ customer_id: customer, limit: 1 });
    const item = page.data[0]!;
    expect(() => client.etagOf(item)).toThrow(TypeError);
    expect(() => client.etagOf(item)).toThrow(/did not return/);
    const fresh = await shop.v3.orders.get(item.id);
    expect(client.etagOf(fresh)).toMatch(/^"[\w-]{22}"$/);
    expect(() => client.etagOf({ ...fresh })).toThrow(TypeError);
  });

  it('ifNoneMatch on get: a NotModifiedError while the copy is current', async () => {
    const shop = shopClient();
    const order = await shop.v3.orders.create({ customer_id: customer, product_id: 7, quantity: 1 });
    const error = await shop.v1.orders.get(order.id, { ifNoneMatch: client.etagOf(order) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(client.NotModifiedError);
    expect((error as ClientModule.ApiError).headers.get('etag')).toBe(client.etagOf(order));
    await shop.v3.orders.pay(order.id);
    await expect(shop.v3.orders.get(order.id, { ifNoneMatch: client.etagOf(order) })).resolves.toMatchObject({ status: 'paid' });
  });

  it('a collection that requires If-Match: a write without it is a PreconditionRequiredError, never retried', async () => {
    const attempts: number[] = [];
    const shop = shopClient({ onAttempt: (e) => attempts.push(e.attempt) });
    const coupon = await shop.v3.coupons.create({ code: 'CLIENT10', percentOff: 10, validUntil: null });
    attempts.length = 0;
    await expect(shop.v3.coupons.update(coupon.id, { percentOff: 11 })).rejects.toBeInstanceOf(client.PreconditionRequiredError);
    expect(attempts).toEqual([1]);
    const updated = await shop.v3.coupons.update(coupon.id, { percentOff: 11 }, { ifMatch: client.etagOf(coupon) });
    await expect(shop.v3.coupons.delete(coupon.id, { ifMatch: client.etagOf(updated) })).resolves.toBeUndefined();
  });
});
