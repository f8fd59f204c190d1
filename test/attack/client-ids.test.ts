/**
 * Attack: ids that no path segment can carry. URLs resolve `.` and `..` segments away (`%2e` too, by the
 * WHATWG URL rules), so `get('..')` would send the caller's credential to the parent path, and `get('')`
 * to the collection's own path. The client refuses them before anything is sent; the generated server
 * (the shop example, on loopback) sees no request.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShopClient } from '../../examples/shop/generated/client/index.js';
import { createDiskFileStore, createMemoryHandlers, registerShopApi } from '../../examples/shop/generated/server/index.js';
import { TEST_FILES } from '../server/helpers.ts';

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write'];
const MIGRATIONS = {
  v2: { orders: { note: { value: () => undefined } } },
  v3: {
    customers: { name: { whenMissing: () => '(guest)' } },
    orders: { reference: { up: (v: number) => `RF-${String(v).padStart(4, '0')}`, down: (v: string) => Number(v.slice(3)) } },
  },
};

let app: FastifyInstance;
let baseUrl = '';
const seen: string[] = [];
beforeAll(async () => {
  app = Fastify();
  app.addHook('onRequest', async (request) => void seen.push(`${request.method} ${request.url}`));
  await registerShopApi(app, createMemoryHandlers(), {
    authenticate: ({ token }: { token: string }) => ({ id: token, scopes: SCOPES }),
    migrations: MIGRATIONS,
    rateLimit: false,
    files: createDiskFileStore(TEST_FILES),
  } as Parameters<typeof registerShopApi>[2]);
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

describe('ids that are not a path segment', () => {
  it.each(['..', '.', ''])('%j is a TypeError for every by-id method, and the server receives nothing', async (id) => {
    const shop = createShopClient({ baseUrl, bearer: 'secret', maxRetries: 0 });
    seen.length = 0;
    const calls = [
      () => shop.v2.customers.get(id),
      () => shop.v2.customers.update(id, { name: 'x' }),
      () => shop.v2.customers.delete(id),
      () => shop.v2.orders.pay(id),
      () => shop.v3.orders.cancel(id, { reason: 'late' }),
    ];
    for (const call of calls) await expect(call()).rejects.toThrow(TypeError);
    expect(seen).toEqual([]);
  });

  it('ids with dots or slashes inside stay one segment and reach the resource path', async () => {
    const shop = createShopClient({ baseUrl, bearer: 'secret', maxRetries: 0 });
    seen.length = 0;
    for (const id of ['...', '.x', 'a/..', '%2e%2e']) await expect(shop.v2.customers.get(id)).rejects.toMatchObject({ status: 404 });
    expect(seen).toEqual(['GET /v2/customers/...', 'GET /v2/customers/.x', 'GET /v2/customers/a%2F..', 'GET /v2/customers/%252e%252e']);
  });
});
