/**
 * Lifecycle transitions of an OAuth 2.0 API, end to end: the shop's generated server verifies JWT access
 * tokens against a real JWKS endpoint on loopback, and each transition asks for its own scopes. `cancel`
 * needs `orders:cancel` (its own), `pay` the collection's write scope: without it 403 `insufficient_scope`
 * naming the scope (the order unchanged), with it 200 in the target state; no token is 401 even though
 * the orders' reads are public. Raw requests and the generated client alike.
 */
import type { FastifyInstance } from 'fastify';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as ClientModule from '../../examples/shop/generated/client/index.js';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running } from '../server/helpers.ts';
import { AUDIENCE, ISSUER, makeKey, signToken, startJwks, type JwksServer, type TestKey } from './jwks-server.ts';

let jwks: JwksServer;
let key: TestKey;
let api: Running;
let client: typeof ClientModule;
/** Tokens by the scopes they carry. */
const token = (scope: string) => signToken(key, { sub: `user-${scope.replace(/\W+/g, '-')}`, scope });
let customer = '';

beforeAll(async () => {
  const outDir = await generateInto('oauth-transitions');
  const mod = await importServer(outDir);
  client = (await import(path.join(outDir, 'client/index.ts'))) as typeof ClientModule;
  key = await makeKey('transitions');
  jwks = await startJwks([key]);
  api = await start((app: FastifyInstance) =>
    registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
      jwt: { jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE },
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      authFailures: false,
    }),
  );
  const created = await api.call('POST', '/v3/customers', { token: await token('customers:write'), body: { email: 'oauth-life@example.com', name: 'O' } });
  expect(created.status).toBe(201);
  customer = created.body['id'] as string;
}, 120_000);

afterAll(async () => {
  await api?.close();
  await jwks?.close();
});

/** A new open order (created with the write scope); returns its id. */
async function openOrder(): Promise<string> {
  const created = await api.call('POST', '/v3/orders', { token: await token('orders:write'), body: { customer_id: customer, product_id: 7, quantity: 1 } });
  expect(created.status).toBe(201);
  return created.body['id'] as string;
}

// Orders are readable without a token until v3.
const statusOf = async (id: string) => (await api.call('GET', `/v2/orders/${id}`, { token: null })).body['status'];

describe('transition scopes with JWT access tokens', () => {
  it('cancel without orders:cancel is 403 insufficient_scope naming it, and leaves the order open', async () => {
    const id = await openOrder();
    // orders:write is the collection's write scope; cancel declares its own instead.
    const answer = await api.call('POST', `/v2/orders/${id}:cancel`, { token: await token('orders:read orders:write'), body: { reason: 'no' } });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer realm="shop", error="insufficient_scope", scope="orders:cancel"/);
    expect(answer.body).toMatchObject({ status: 403, code: 'insufficient_scope', scopes: ['orders:cancel'] });
    expect(await statusOf(id)).toBe('open');
  });

  it('cancel with orders:cancel is 200, the order cancelled; the token needs no write scope', async () => {
    const id = await openOrder();
    const answer = await api.call('POST', `/v2/orders/${id}:cancel`, { token: await token('orders:cancel'), body: { reason: 'changed my mind' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id, status: 'cancelled' });
    expect(answer.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(await statusOf(id)).toBe('cancelled');
  });

  it('pay needs the collection write scope: orders:cancel alone is 403 naming orders:write, then 200 with it', async () => {
    const id = await openOrder();
    const denied = await api.call('POST', `/v3/orders/${id}:pay`, { token: await token('orders:cancel'), body: {} });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'insufficient_scope', scopes: ['orders:write'] });
    expect(await statusOf(id)).toBe('open');
    const paid = await api.call('POST', `/v3/orders/${id}:pay`, { token: await token('orders:write'), body: {} });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ id, status: 'paid' });
  });

  it('a transition of a collection with public reads still needs a valid token: 401 without one or with a bad one', async () => {
    const id = await openOrder();
    expect((await api.call('GET', `/v2/orders/${id}`, { token: null })).status).toBe(200);
    const anonymous = await api.call('POST', `/v2/orders/${id}:cancel`, { token: null, body: {} });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'unauthenticated' });
    const forged = await api.call('POST', `/v2/orders/${id}:cancel`, { token: (await token('orders:cancel')).replace(/.{8}$/, 'AAAAAAAA'), body: {} });
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ code: 'invalid_token' });
    expect(await statusOf(id)).toBe('open');
  });

  it('through the generated client: PermissionDeniedError without the scope, the cancelled order with it', async () => {
    const id = await openOrder();
    const shop = async (scope: string) => client.createShopClient({ baseUrl: api.url, bearer: await token(scope), maxRetries: 0 });
    const error = await (await shop('orders:read orders:write')).v2.orders.cancel(id, { reason: 'no' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(client.PermissionDeniedError);
    expect((error as ClientModule.PermissionDeniedError).problem).toMatchObject({ code: 'insufficient_scope', scopes: ['orders:cancel'] });
    const cancelled = await (await shop('orders:cancel')).v2.orders.cancel(id, { reason: 'ok' });
    expect(cancelled).toMatchObject({ id, status: 'cancelled' });
    expect(api.errors).toEqual([]);
  });
});
