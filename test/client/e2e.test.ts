/**
 * End to end: the example's generated client against its generated server (in-memory handlers) on
 * 127.0.0.1, both produced by restgen's pipeline into a temporary folder. Every operation of every
 * version, shapes across versions, typed errors from the real server, deprecation headers, pagination,
 * a retried create that the server replays (one resource), and a 429 honoured through Retry-After.
 * Skipped while no server emitter is registered.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMITTERS } from '../../generator/emit/registry.ts';
import { TEST_FILES } from '../server/helpers.ts';
import { generateInto } from './generate-client.ts';
import type * as ClientModule from '../../examples/shop/generated/client/index.js';
import type { AttemptEvent, Fetch, V1, V2, V3 } from '../../examples/shop/generated/client/index.js';

/** The parts of the generated server module the tests use. */
interface ServerModule {
  registerShopApi(app: FastifyInstance, handlers: unknown, options: object): Promise<void>;
  createMemoryHandlers(seed?: object): unknown;
  createDiskFileStore(dir: string): unknown;
}

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write'];
const authenticate = ({ token }: { token: string }) =>
  token.startsWith('secret') ? { id: token, scopes: SCOPES } : token === 'reader' ? { id: 'reader', scopes: ['customers:read', 'orders:read'] } : null;

// Conversions the version markers cannot express, which the generated server requires.
const migrations = {
  v2: { orders: { note: { value: () => undefined } } },
  v3: {
    customers: { name: { whenMissing: () => '(guest)' } },
    orders: { reference: { up: (v: number) => `RF-${String(v).padStart(4, '0')}`, down: (v: string) => Number(v.slice(3)) } },
  },
};

const serverReady = EMITTERS.some((e) => e.name === 'server');
let out: { dir: string; cleanup: () => void } | undefined;
let client: typeof ClientModule;
let server: ServerModule;
const apps: FastifyInstance[] = [];

/** Starts the generated server on 127.0.0.1 (port 0) and returns its base URL. */
async function startServer(options: object = {}): Promise<string> {
  const app = Fastify();
  apps.push(app);
  await server.registerShopApi(app, server.createMemoryHandlers(), {
    authenticate,
    migrations,
    rateLimit: false,
    files: server.createDiskFileStore(TEST_FILES),
    ...options,
  });
  return app.listen({ port: 0, host: '127.0.0.1' });
}

let baseUrl = '';
let tokens = 0;
/** A client with a fresh principal, so rate limits of one test never reach another. */
const shopClient = (options: Partial<ClientModule.ShopClientOptions> = {}) =>
  client.createShopClient({ baseUrl, bearer: `secret-${++tokens}`, retryDelay: 5, ...options });
let emails = 0;
const email = (): string => `user${++emails}@shop.example`;

beforeAll(async () => {
  if (!serverReady) return;
  out = await generateInto('client-e2e');
  client = (await import(path.join(out.dir, 'client/index.ts'))) as typeof ClientModule;
  server = (await import(path.join(out.dir, 'server/index.ts'))) as ServerModule;
  baseUrl = await startServer();
}, 60_000);
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  out?.cleanup();
});

describe.skipIf(!serverReady)('client against the generated server', () => {
  it('runs every operation of customers in every version', async () => {
    const shop = shopClient();
    // One version's methods at a time: each version's are generic (a query's fields and expand narrow what they
    // answer), and a union of generic methods cannot be called.
    for (const api of [shop.v1.customers, shop.v2.customers, shop.v3.customers] as unknown as (typeof shop.v3.customers)[]) {
      const address = email();
      const created = await api.create({ email: address, name: 'Ada' });
      expect(created).toMatchObject({ email: address, name: 'Ada', tier: 'free', tags: [] });
      expect(created).not.toHaveProperty('password');
      await expect(api.get(created.id)).resolves.toEqual(created);
      await expect(api.update(created.id, { tier: 'pro' })).resolves.toMatchObject({ tier: 'pro', name: 'Ada' });
      const replaced = await api.replace(created.id, { email: address, name: 'Grace', tags: ['x'] });
      expect(replaced).toMatchObject({ id: created.id, name: 'Grace', tier: 'free', tags: ['x'], createdAt: created.createdAt });
      await expect(api.list({ filter: { email: address } })).resolves.toEqual({ data: [replaced], next_cursor: null });
      await expect(api.delete(created.id)).resolves.toBeUndefined();
      await expect(api.get(created.id)).rejects.toBeInstanceOf(client.NotFoundError);
    }
  });

  it('runs every operation of orders in every version, and coupons in v3', async () => {
    const shop = shopClient();
    const customer = await shop.v2.customers.create({ email: email(), name: 'Ada' });
    // note was removed in v2, so it is not stored: v1 reads back what the migration answers (nothing).
    const v1 = await shop.v1.orders.create({ customer_id: customer.id, product_id: 7, qty: 2, note: 'gift' });
    expect(v1).toMatchObject({ qty: 2, status: 'open' });
    expect(v1).not.toHaveProperty('note');
    expect(v1).not.toHaveProperty('currency');
    await expect(shop.v1.orders.update(v1.id, { qty: 3 })).resolves.toMatchObject({ qty: 3 });
    for (const api of [shop.v2.orders, shop.v3.orders] as unknown as (typeof shop.v3.orders)[]) {
      const order = await api.create({ customer_id: customer.id, product_id: 7, quantity: 2 });
      expect(order).toMatchObject({ quantity: 2, currency: 'EUR', status: 'open' });
      await expect(api.get(order.id)).resolves.toEqual(order);
      await expect(api.update(order.id, { currency: 'USD' })).resolves.toMatchObject({ currency: 'USD', quantity: 2 });
      const page = await api.list({ filter: { customer_id: customer.id } });
      expect(page.data.map((o) => o.id)).toContain(order.id);
      await api.delete(order.id);
      await expect(api.get(order.id)).rejects.toMatchObject({ status: 404 });
    }
    // Coupons' writes need If-Match: each one names the coupon as the client last read it.
    const coupon = await shop.v3.coupons.create({ code: 'SAVE10', percentOff: 10, validUntil: null });
    const replaced = await shop.v3.coupons.replace(coupon.id, { code: 'SAVE20', percentOff: 20, validUntil: '2027-01-01' }, { ifMatch: client.etagOf(coupon) });
    expect(replaced).toMatchObject({ code: 'SAVE20' });
    const updated = await shop.v3.coupons.update(coupon.id, { percentOff: 25 }, { ifMatch: client.etagOf(replaced) });
    expect(updated).toMatchObject({ percentOff: 25 });
    await expect(shop.v3.coupons.list()).resolves.toMatchObject({ data: [{ id: coupon.id }] });
    await shop.v3.coupons.delete(coupon.id, { ifMatch: client.etagOf(updated) });
  });

  it('reads an order in the shape of the version asked', async () => {
    const shop = shopClient();
    const customer = await shop.v2.customers.create({ email: email(), name: 'Ada' });
    const order: V2.Order = await shop.v2.orders.create({ customer_id: customer.id, product_id: 7, quantity: 2, currency: 'USD', reference: 12 });
    const old: V1.Order = await shop.v1.orders.get(order.id);
    expect(old).toMatchObject({ id: order.id, qty: 2, reference: 12 });
    expect(old).not.toHaveProperty('quantity');
    expect(old).not.toHaveProperty('currency');
    const newest: V3.Order = await shop.v3.orders.get(order.id);
    expect(newest).toMatchObject({ quantity: 2, currency: 'USD', reference: 'RF-0012' });
    const guest = await shop.v3.customers.create({ email: email() });
    await expect(shop.v2.customers.get(guest.id)).resolves.toMatchObject({ name: '(guest)' });
  });

  it('throws the typed errors of the real server', async () => {
    const events: AttemptEvent[] = [];
    const shop = shopClient({ onAttempt: (e) => events.push(e) });
    const taken = email();
    await shop.v2.customers.create({ email: taken, name: 'Ada' });
    events.length = 0;
    const conflict = await shop.v2.customers.create({ email: taken, name: 'Bob' }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(client.ConflictError);
    expect(events).toHaveLength(1);
    const invalid = await shop.v2.orders.create({ customer_id: 'x', product_id: 0, quantity: 0 }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(client.BadRequestError);
    expect((invalid as ClientModule.BadRequestError).problem?.errors?.map((e) => e.pointer)).toEqual(expect.arrayContaining(['#/quantity', '#/product_id']));
    expect((invalid as Error).message).toMatch(/^400 .*\n  #\/quantity: /s);
    await expect(shopClient({ bearer: 'nope' }).v2.customers.list()).rejects.toBeInstanceOf(client.AuthenticationError);
    await expect(shopClient({ bearer: 'reader' }).v2.customers.create({ email: email(), name: 'A' })).rejects.toBeInstanceOf(client.PermissionDeniedError);
    await expect(client.createShopClient({ baseUrl }).v2.orders.list({ limit: 1 })).resolves.toHaveProperty('data');
  });

  it("reports v1's Deprecation and Sunset headers", async () => {
    const events: AttemptEvent[] = [];
    const shop = shopClient({ onAttempt: (e) => events.push(e) });
    await shop.v1.customers.list({ limit: 1 });
    await shop.v2.customers.list({ limit: 1 });
    expect(events.map((e) => [e.deprecation, e.sunset])).toEqual([
      ['@1788220800', 'Mon, 01 Mar 2027 00:00:00 GMT'],
      [null, null],
    ]);
  });

  it('walks every page', async () => {
    const shop = shopClient();
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await shop.v3.customers.create({ email: email() })).id);
    const events: AttemptEvent[] = [];
    const seen: string[] = [];
    for await (const c of shop.v3.customers.list({ limit: 2 }, { onAttempt: (e) => events.push(e) })) seen.push(c.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining([...ids]));
    expect(events).toHaveLength(Math.ceil(seen.length / 2));
  });

  it('retries a create whose answer was lost; the server replays it and creates one resource', async () => {
    let lost = 0;
    const fetch: Fetch = async (url, init) => {
      const response = await globalThis.fetch(url, init);
      if (init.method !== 'POST' || lost++ > 0) return response;
      await response.text();
      throw new TypeError('fetch failed', { cause: new Error('socket hang up (simulated)') });
    };
    const token = `secret-${++tokens}`;
    const customer = await shopClient({ bearer: token }).v2.customers.create({ email: email(), name: 'Ada' });
    const events: AttemptEvent[] = [];
    // Orders have no unique field: without the replay, the retry would create a second order.
    const shop = shopClient({ bearer: token, fetch, onAttempt: (e) => events.push(e) });
    const created = await shop.v2.orders.create({ customer_id: customer.id, product_id: 7, quantity: 1 });
    expect(events.map((e) => [e.status, e.error?.name ?? null])).toEqual([
      [null, 'ConnectionError'],
      [201, null],
    ]);
    const page = await shop.v2.orders.list({ filter: { customer_id: customer.id } });
    expect(page.data.map((o) => o.id)).toEqual([created.id]);
  });

  it('waits out a 429 as Retry-After says', async () => {
    const limited = await startServer({ rateLimit: true });
    const events: AttemptEvent[] = [];
    const shop = client.createShopClient({ baseUrl: limited, bearer: 'secret-limited', onAttempt: (e) => events.push(e) });
    const customer = await shop.v2.customers.create({ email: email(), name: 'Ada' });
    const order = await shop.v2.orders.create({ customer_id: customer.id, product_id: 7, quantity: 1 });
    // orders allow 20 requests per second per principal.
    const results = await Promise.all(Array.from({ length: 24 }, () => shop.v2.orders.get(order.id)));
    expect(results.every((o) => o.id === order.id)).toBe(true);
    const limitedAttempts = events.filter((e) => e.status === 429);
    expect(limitedAttempts.length).toBeGreaterThan(0);
    for (const e of limitedAttempts) expect(e.retryInMs).toBeLessThanOrEqual(1000);
  });

  it('gets 410 Gone from a version past its sunset: a GoneError, not retried', async () => {
    const later = await startServer({ now: () => new Date('2027-06-01T00:00:00Z') });
    const attempts: number[] = [];
    const shop = client.createShopClient({ baseUrl: later, bearer: 'secret-gone', onAttempt: (e) => attempts.push(e.attempt) });
    const error = await shop.v1.customers.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(client.GoneError);
    expect(error).not.toBeInstanceOf(client.VersionBrownoutError);
    expect(error).toMatchObject({ name: 'GoneError', status: 410, problem: { code: 'version_sunset' } });
    expect(attempts).toEqual([1]);
    await expect(shop.v2.customers.list()).resolves.toHaveProperty('data');
  });
});
