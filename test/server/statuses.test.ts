/**
 * End to end over HTTP: every status of the generated shop server, the problem+json bodies, and the order
 * in which answers are decided (404, 405, 401/403, 429, 415/413, 400, handler).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, testAuthenticate, type Running, type ServerModule } from './helpers.ts';

let mod: ServerModule;
let server: Running;
const throwing = { current: false };

beforeAll(async () => {
  mod = await importServer(await generateInto('statuses'));
  const handlers = mod.createMemoryHandlers();
  const coupons = handlers['coupons']!;
  // A handler that fails with internals in its message: the answer must not carry them.
  const get = coupons['get']!;
  coupons['get'] = ((id: string, ctx: unknown) => {
    if (throwing.current) throw new Error('db password=hunter2 at /srv/db.ts:42');
    return (get as (id: string, ctx: unknown) => unknown)(id, ctx);
  }) as never;
  server = await start((app) =>
    registerOf(mod, 'Shop')(app, handlers, { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS, bodyLimit: 2048, rateLimit: false }),
  );
});
afterAll(() => server.close());

const customer = (n: number) => ({ email: `c${n}@example.com`, name: `C ${n}` });

function expectProblem(answer: { status: number; headers: Headers; body: Record<string, unknown> }, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ type: 'about:blank', status, code });
  expect(typeof answer.body['title']).toBe('string');
  expect(typeof answer.body['detail']).toBe('string');
}

describe('success statuses', () => {
  it('201 with Location on create, 200 on get, replace and update, 204 on delete', async () => {
    const created = await server.call('POST', '/v3/customers', { body: customer(1) });
    expect(created.status).toBe(201);
    const id = created.body['id'] as string;
    expect(created.headers.get('location')).toBe(`/v3/customers/${id}`);
    expect(created.body).toMatchObject({ email: 'c1@example.com', tier: 'free', tags: [] });
    expect(created.body['createdAt']).toMatch(/^\d{4}-\d\d-\d\dT/);

    const got = await server.call('GET', `/v3/customers/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);

    const replaced = await server.call('PUT', `/v3/customers/${id}`, { body: { email: 'c1b@example.com', tier: 'pro' } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id, email: 'c1b@example.com', tier: 'pro', createdAt: created.body['createdAt'] });
    expect(replaced.body['name']).toBeUndefined();

    const updated = await server.call('PATCH', `/v3/customers/${id}`, { body: { name: 'Renamed' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, email: 'c1b@example.com', name: 'Renamed' });

    const deleted = await server.call('DELETE', `/v3/customers/${id}`);
    expect(deleted.status).toBe(204);
    expectProblem(await server.call('GET', `/v3/customers/${id}`), 404, 'not_found');
  });

  it('never returns write-only fields', async () => {
    const created = await server.call('POST', '/v3/customers', { body: { ...customer(2), password: 'correct horse battery' } });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('password');
    const got = await server.call('GET', `/v3/customers/${created.body['id'] as string}`);
    expect(got.body).not.toHaveProperty('password');
  });
});

describe('error statuses, all problem+json', () => {
  it('404 for an unknown path, an unknown id and a malformed id', async () => {
    expectProblem(await server.call('GET', '/v3/nothing'), 404, 'not_found');
    expectProblem(await server.call('GET', '/v9/customers'), 404, 'not_found');
    expectProblem(await server.call('GET', '/v3/customers/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11'), 404, 'not_found');
    expectProblem(await server.call('GET', '/v3/customers/not-a-uuid'), 404, 'not_found');
    expectProblem(await server.call('GET', '/v1/coupons'), 404, 'not_found');
  });

  it('405 with Allow listing every method of the path; OPTIONS answers 204 with Allow', async () => {
    const put = await server.call('PUT', '/v3/orders/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11', { body: {} });
    expectProblem(put, 405, 'method_not_allowed');
    expect(put.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');
    const post = await server.call('DELETE', '/v3/orders');
    expectProblem(post, 405, 'method_not_allowed');
    expect(post.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const head = await server.call('HEAD', '/v3/customers');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^application\/json/);
    const options = await server.call('OPTIONS', '/v3/customers');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('400 for malformed JSON', async () => {
    const answer = await server.call('POST', '/v3/customers', { raw: '{"email": ', headers: { 'content-type': 'application/json' } });
    expectProblem(answer, 400, 'bad_request');
  });

  it('400 listing every validation issue with a JSON pointer: unknown, read-only, nested and bad values', async () => {
    const answer = await server.call('POST', '/v3/customers', {
      body: { email: 'nope', name: '', id: 'x', createdAt: 'x', extra: 1, shipping: { street: 'S', city: 'C', zip: '1', country: 'de' }, tags: [''] },
    });
    expectProblem(answer, 400, 'validation_failed');
    const pointers = answer.body.errors!.map((e) => e.pointer).sort();
    expect(pointers).toEqual(['#/createdAt', '#/email', '#/extra', '#/id', '#/name', '#/shipping/country', '#/shipping/zip', '#/tags/0'].sort());
    for (const e of answer.body.errors!) expect(e.detail.length).toBeGreaterThan(0);
  });

  it('400 names a missing required field "required", not a type mismatch, and keeps zod\'s words for a wrong value', async () => {
    const answer = await server.call('POST', '/v3/customers', {
      body: { email: 'a@example.com', shipping: { street: 'S', city: 'C', country: 'DE' }, name: 5 },
    });
    expectProblem(answer, 400, 'validation_failed');
    const detail = (pointer: string) => answer.body.errors!.find((e) => e.pointer === pointer)?.detail;
    expect(detail('#/shipping/zip')).toBe('Required: this field is missing (expected string).');
    expect(detail('#/name')).toMatch(/^Invalid input: expected string, received number$/);
  });

  it('400 for a bad list query: limit below 1, not an integer, an unknown filter value or parameter', async () => {
    for (const q of ['limit=0', 'limit=1.5', 'limit=abc', 'tier=gold', 'nope=1']) {
      const answer = await server.call('GET', `/v3/customers?${q}`);
      expectProblem(answer, 400, 'validation_failed');
      expect(answer.body.errors![0]).toHaveProperty('parameter');
    }
  });

  it('409 for a duplicate unique value, on create and on update', async () => {
    const a = await server.call('POST', '/v3/customers', { body: customer(3) });
    const b = await server.call('POST', '/v3/customers', { body: customer(4) });
    expect([a.status, b.status]).toEqual([201, 201]);
    const dup = await server.call('POST', '/v3/customers', { body: customer(3) });
    expectProblem(dup, 409, 'conflict');
    expect(dup.body['field']).toBe('email');
    expectProblem(await server.call('PATCH', `/v3/customers/${b.body['id'] as string}`, { body: { email: 'c3@example.com' } }), 409, 'conflict');
  });

  it('413 over the configured body limit', async () => {
    const answer = await server.call('POST', '/v3/customers', { body: { ...customer(5), name: 'x'.repeat(4000) } });
    expectProblem(answer, 413, 'payload_too_large');
    expect(answer.body['detail']).toContain('2048');
  });

  it('415 for a body that is not JSON', async () => {
    expectProblem(
      await server.call('POST', '/v3/customers', { raw: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      'unsupported_media_type',
    );
    expectProblem(await server.call('POST', '/v3/customers', { raw: '{}', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
  });

  it('500 without internals, and the error is logged', async () => {
    const created = await server.call('POST', '/v3/coupons', { body: { code: 'SAVE10', percentOff: 10, validUntil: null } });
    expect(created.status).toBe(201);
    throwing.current = true;
    try {
      const answer = await server.call('GET', `/v3/coupons/${created.body['id'] as string}`);
      expectProblem(answer, 500, 'internal_error');
      expect(JSON.stringify(answer.body)).not.toMatch(/hunter2|srv|db\.ts|stack/);
      expect(server.errors.join('')).toContain('hunter2');
    } finally {
      throwing.current = false;
    }
  });
});

describe('order of answers', () => {
  const id = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11';
  it('405 comes before 401', async () => {
    expectProblem(await server.call('PUT', `/v3/orders/${id}`, { token: null, body: {} }), 405, 'method_not_allowed');
  });
  it('401 and 403 come before 415, 413 and 400', async () => {
    expectProblem(await server.call('POST', '/v3/customers', { token: null, raw: 'x', headers: { 'content-type': 'text/plain' } }), 401, 'unauthenticated');
    expectProblem(await server.call('POST', '/v3/customers', { token: 'reader', body: { name: 'x'.repeat(4000) } }), 403, 'insufficient_scope');
    expectProblem(await server.call('POST', '/v3/customers', { token: 'reader', body: { bad: 1 } }), 403, 'insufficient_scope');
  });
  it('415 and 413 come before validation', async () => {
    expectProblem(
      await server.call('POST', '/v3/customers', { raw: 'not json at all', headers: { 'content-type': 'text/csv' } }),
      415,
      'unsupported_media_type',
    );
    expectProblem(await server.call('POST', '/v3/customers', { body: { bad: 'x'.repeat(4000) } }), 413, 'payload_too_large');
  });
});
