/**
 * End to end over HTTP: a create sent with an `Idempotency-Key` is answered once and replayed on retries
 * (same status, body and Location), a reused key with another body is refused, and a concurrent retry
 * waits for the first attempt instead of creating twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, testAuthenticate, type Running } from './helpers.ts';

let server: Running;
let creates = 0;
let clock = 0;

beforeAll(async () => {
  const mod = await importServer(await generateInto('idempotency'));
  const handlers = mod.createMemoryHandlers();
  const create = handlers['customers']!['create'] as (body: unknown, ctx: unknown) => Promise<unknown>;
  handlers['customers']!['create'] = (async (body: unknown, ctx: unknown) => {
    creates++;
    await new Promise((r) => setTimeout(r, 50));
    return create(body, ctx);
  }) as never;
  server = await start((app) =>
    registerOf(mod, 'Shop')(app, handlers, {
      authenticate: testAuthenticate,
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      idempotencyTtl: 60_000,
      now: () => new Date(Date.UTC(2026, 10, 1) + clock),
    }),
  );
});
afterAll(() => server.close());

describe('Idempotency-Key on create', () => {
  it('replays the first answer to a retry: one resource, same body and Location', async () => {
    creates = 0;
    const body = { email: 'once@example.com', name: 'Once' };
    const first = await server.call('POST', '/v3/customers', { body, headers: { 'idempotency-key': 'abc' } });
    const retry = await server.call('POST', '/v3/customers', { body, headers: { 'idempotency-key': 'abc' } });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    // The same representation: its ETag, its type, and its bytes (the text written once, not written again).
    expect(retry.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(retry.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(retry.headers.get('content-length')).toBe(first.headers.get('content-length'));
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(creates).toBe(1);
    expect((await server.call('GET', '/v3/customers?email=once%40example.com')).body.data).toHaveLength(1);
  });

  it('without a key a second create is a 409 duplicate', async () => {
    const body = { email: 'twice@example.com', name: 'Twice' };
    expect((await server.call('POST', '/v3/customers', { body })).status).toBe(201);
    expect((await server.call('POST', '/v3/customers', { body })).status).toBe(409);
  });

  it('a concurrent retry waits for the first attempt', async () => {
    creates = 0;
    const body = { email: 'race@example.com', name: 'Race' };
    const [a, b] = await Promise.all([0, 1].map(() => server.call('POST', '/v3/customers', { body, headers: { 'idempotency-key': 'race' } })));
    expect([a!.status, b!.status]).toEqual([201, 201]);
    expect(a!.body).toEqual(b!.body);
    expect(creates).toBe(1);
  });

  it('refuses a key reused with a different body (422), and keys are per principal', async () => {
    const body = { email: 'k@example.com', name: 'K' };
    expect((await server.call('POST', '/v3/customers', { body, headers: { 'idempotency-key': 'k' } })).status).toBe(201);
    const reused = await server.call('POST', '/v3/customers', { body: { ...body, name: 'Other' }, headers: { 'idempotency-key': 'k' } });
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ code: 'idempotency_key_reused' });
    // Another principal's same key is a different key: this create runs (and meets the duplicate email).
    expect((await server.call('POST', '/v3/customers', { token: 'someone-else', body, headers: { 'idempotency-key': 'k' } })).status).toBe(409);
  });

  it('replays an error as it was answered, without Idempotent-Replayed (declared on successes only)', async () => {
    creates = 0;
    const body = { email: 'taken@example.com', name: 'Taken' };
    expect((await server.call('POST', '/v3/customers', { body })).status).toBe(201);
    const first = await server.call('POST', '/v3/customers', { body, headers: { 'idempotency-key': 'dup' } });
    const retry = await server.call('POST', '/v3/customers', { body, headers: { 'idempotency-key': 'dup' } });
    expect([first.status, retry.status]).toEqual([409, 409]);
    expect(retry.body).toEqual(first.body);
    expect(creates).toBe(2);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const doc = (await server.call('GET', '/v3/openapi.json')).body as { components: { responses: Record<string, { headers?: object }> } };
    for (const [name, response] of Object.entries(doc.components.responses))
      expect(Object.keys(response.headers ?? {}), name).not.toContain('Idempotent-Replayed');
  });

  it("replays a transition's answer with Idempotent-Replayed, which the document declares there", async () => {
    const customer = await server.call('POST', '/v3/customers', { body: { email: 'pays@example.com', name: 'Pays' } });
    const order = await server.call('POST', '/v3/orders', { body: { customer_id: customer.body['id'], product_id: 7, quantity: 1 } });
    const path = `/v3/orders/${order.body['id'] as string}:pay`;
    const first = await server.call('POST', path, { body: {}, headers: { 'idempotency-key': 'pay-once' } });
    const retry = await server.call('POST', path, { body: {}, headers: { 'idempotency-key': 'pay-once' } });
    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const doc = (await server.call('GET', '/v3/openapi.json')).body as { paths: Record<string, { post: { responses: Record<string, { headers?: object }> } }> };
    expect(Object.keys(doc.paths['/v3/orders/{id}:pay']!.post.responses['200']!.headers ?? {})).toContain('Idempotent-Replayed');
  });

  it('forgets answers after the configured time', async () => {
    creates = 0;
    const body = { email: 'ttl@example.com', name: 'Ttl' };
    expect((await server.call('POST', '/v3/customers', { body, headers: { 'idempotency-key': 'ttl' } })).status).toBe(201);
    clock += 61_000;
    expect((await server.call('POST', '/v3/customers', { body, headers: { 'idempotency-key': 'ttl' } })).status).toBe(409);
    expect(creates).toBe(2);
  });
});
