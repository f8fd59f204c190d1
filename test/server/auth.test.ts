/**
 * End to end over HTTP: bearer tokens and API keys, RFC 6750 challenges, scopes (403 naming the scope),
 * public operations, and static API keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES, SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, testAuthenticate, type Running } from './helpers.ts';

let server: Running;
let withKeys: Running;
const seen: { scheme: string; token: string }[] = [];

beforeAll(async () => {
  const mod = await importServer(await generateInto('auth'));
  const register = registerOf(mod, 'Shop');
  server = await start((app) =>
    register(app, mod.createMemoryHandlers(), {
      authenticate: (credential: { scheme: string; token: string }) => {
        seen.push(credential);
        return testAuthenticate(credential);
      },
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
    }),
  );
  // Static keys only: no authenticate function.
  withKeys = await start((app) =>
    register(app, mod.createMemoryHandlers(), { apiKeys: { 'key-123': { id: 'svc', scopes: ALL_SCOPES } }, migrations: SHOP_MIGRATIONS, rateLimit: false }),
  );
});
afterAll(async () => {
  await server.close();
  await withKeys.close();
});

describe('credentials', () => {
  it('401 without a credential: a challenge per scheme and no error code (RFC 6750 3.1)', async () => {
    const answer = await server.call('GET', '/v3/customers', { token: null });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ code: 'unauthenticated', status: 401 });
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="shop", ApiKey realm="shop", header="X-API-Key"');
  });

  it('401 invalid_token when the credential is rejected', async () => {
    const answer = await server.call('GET', '/v3/customers', { token: 'bad' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('passes bearer tokens and API keys to authenticate with their scheme', async () => {
    seen.length = 0;
    expect((await server.call('GET', '/v3/customers', { token: 'tok-1' })).status).toBe(200);
    expect((await server.call('GET', '/v3/customers', { token: null, headers: { 'x-api-key': 'key-9' } })).status).toBe(200);
    expect(seen).toEqual([
      { scheme: 'bearer', token: 'tok-1' },
      { scheme: 'apiKey', token: 'key-9' },
    ]);
  });

  it('403 insufficient_scope naming the missing scope', async () => {
    expect((await server.call('GET', '/v3/customers', { token: 'reader' })).status).toBe(200);
    const answer = await server.call('POST', '/v3/customers', { token: 'reader', body: { email: 'r@example.com', name: 'R' } });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'insufficient_scope', scopes: ['customers:write'] });
    expect(answer.body['detail']).toContain('customers:write');
    expect(answer.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="customers:write"');
  });

  it('public operations need no credential; the others of the same collection do', async () => {
    expect((await server.call('GET', '/v2/orders', { token: null })).status).toBe(200);
    expect((await server.call('GET', '/v2/orders/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11', { token: null })).status).toBe(404);
    expect((await server.call('POST', '/v2/orders', { token: null, body: {} })).status).toBe(401);
    // A credential sent to a public operation is still checked.
    expect((await server.call('GET', '/v2/orders', { token: 'bad' })).status).toBe(401);
  });

  it('an operation public until a version needs a credential and its read scope from that version on', async () => {
    // The shop's orders are public until v3 (public: [{ name: 'list', removedIn: 'v3' }, ...]).
    const v3 = await server.call('GET', '/v3/orders', { token: null });
    expect(v3.status).toBe(401);
    expect(v3.headers.get('www-authenticate')).toBe('Bearer realm="shop", ApiKey realm="shop", header="X-API-Key"');
    expect((await server.call('GET', '/v3/orders/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11', { token: null })).status).toBe(401);
    const writer = await server.call('GET', '/v3/orders', { token: 'writer' });
    expect(writer.status).toBe(403);
    expect(writer.body).toMatchObject({ code: 'insufficient_scope', scopes: ['orders:read'] });
    expect((await server.call('GET', '/v3/orders', { token: 'reader' })).status).toBe(200);
    // The same token reads v2, where the scope is not asked for.
    expect((await server.call('GET', '/v2/orders', { token: 'writer' })).status).toBe(200);
  });
});

describe('static API keys', () => {
  it('accepts a configured key and rejects others, including a bearer token', async () => {
    expect((await withKeys.call('GET', '/v3/customers', { token: null, headers: { 'x-api-key': 'key-123' } })).status).toBe(200);
    expect((await withKeys.call('GET', '/v3/customers', { token: null, headers: { 'x-api-key': 'key-124' } })).status).toBe(401);
    expect((await withKeys.call('GET', '/v3/customers', { token: null, headers: { 'x-api-key': 'key-12' } })).status).toBe(401);
    expect((await withKeys.call('GET', '/v3/customers', { token: 'key-123' })).status).toBe(401);
  });
});
