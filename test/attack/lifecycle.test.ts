/**
 * Attack: the surfaces lifecycles and conditional requests add, over raw sockets against the shop's
 * generated server (made with `fastifyOptions`). Custom-method paths a router might misread (colons,
 * encoded colons and slashes, NUL bytes, over-long verbs), precondition headers that are long, malformed
 * or unterminated, and transition bodies that try prototype pollution: each answers a documented
 * problem+json status, quickly, and moves nothing.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, testAuthenticate } from '../server/helpers.ts';
import { raw, request, type RawAnswer } from './helpers.ts';

let app: FastifyInstance;
let url = '';
let order = '';
const AUTH = { authorization: 'Bearer admin' };
const send = (method: string, path: string, headers: Record<string, string> = {}, body = '') => raw(url, request(method, path, { ...AUTH, ...headers }, body));
const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  const mod = await importServer(await generateInto('attack-lifecycle'));
  app = Fastify({ ...(mod['fastifyOptions'] as object), logger: false });
  await registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS, rateLimit: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const customer = JSON.parse(
    (await send('POST', '/v3/customers', json({ email: 'attack@example.com' }).headers, json({ email: 'attack@example.com' }).body)).body,
  ) as { id: string };
  const created = json({ customer_id: customer.id, product_id: 7, quantity: 1 });
  order = (JSON.parse((await send('POST', '/v3/orders', created.headers, created.body)).body) as { id: string }).id;
});
afterAll(() => app.close());

function expectProblem(answer: RawAnswer, status: number, code?: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(JSON.parse(answer.body)).toMatchObject({ type: 'about:blank', status, ...(code ? { code } : {}) });
  expect(answer.body).not.toContain('FST_');
}
const stateOf = async () => (JSON.parse((await send('GET', `/v3/orders/${order}`)).body) as { status: string }).status;

describe('custom method paths', () => {
  it.each([
    ['an unknown verb', () => `/v3/orders/${order}:bogus`],
    ['two colons', () => `/v3/orders/${order}::pay`],
    ['a verb after a second colon', () => `/v3/orders/${order}:x:pay`],
    ['an encoded slash before the verb', () => `/v3/orders/${order}%2F:pay`],
    ['a NUL byte in the verb', () => `/v3/orders/${order}:pay%00`],
    ['a verb and more path', () => `/v3/orders/${order}:pay/`],
    ['an over-long verb', () => `/v3/orders/${order}:${'p'.repeat(300)}`],
    ['an over-long id with a verb', () => `/v3/orders/${'a'.repeat(300)}:pay`],
    ['a verb on the collection path', () => '/v3/orders:pay'],
  ])('%s: 404, nothing moved', async (_name, path) => {
    expectProblem(await send('POST', path(), json({}).headers, '{}'), 404, 'not_found');
    expect(await stateOf()).toBe('open');
  });
  it('bad percent-encoding in a custom method path: 400', async () => {
    expectProblem(await send('POST', `/v3/orders/${order}:%zz`), 400, 'bad_request');
  });
});

describe('precondition headers', () => {
  it('a thousand tags in If-Match are read and fail (412)', async () => {
    const tags = Array.from({ length: 1000 }, (_, i) => `"${String(i).padStart(8, '0')}"`).join(',');
    expectProblem(
      await send('PATCH', `/v3/orders/${order}`, { ...json({ quantity: 2 }).headers, 'if-match': tags }, json({ quantity: 2 }).body),
      412,
      'precondition_failed',
    );
  });
  it.each(['"', 'W/', '""', '*, "x"', 'abc', ',,,', 'W/"x" "y', '"\u00ff"'])('malformed If-Match %j: 412, never 500', async (header) => {
    expectProblem(await send('POST', `/v3/orders/${order}:pay`, { ...json({}).headers, 'if-match': header }, '{}'), 412, 'precondition_failed');
    expect(await stateOf()).toBe('open');
  });
  it('a malformed If-None-Match on get matches nothing: 200', async () => {
    expect((await send('GET', `/v3/orders/${order}`, { 'if-none-match': '"unterminated' })).status).toBe(200);
  });
});

describe('transition bodies', () => {
  it.each([
    ['__proto__', '{"__proto__": {"polluted": true}}'],
    ['constructor.prototype', '{"constructor": {"prototype": {"polluted": true}}}'],
    ['an array', '[]'],
    ['a string', '"cancel"'],
    ['null', 'null'],
  ])('%s: 400, nothing polluted or moved', async (_name, body) => {
    const answer = await send('POST', `/v3/orders/${order}:pay`, { 'content-type': 'application/json' }, body);
    expect(answer.status).toBe(400);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(await stateOf()).toBe('open');
  });
});
