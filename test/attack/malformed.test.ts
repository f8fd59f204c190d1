/**
 * Attack: malformed and unusual requests over raw sockets get problem+json answers with the documented
 * statuses: Fastify's own early errors (bad percent-encoding, over-long ids, oversized headers, a method
 * the parser rejects) through `fastifyOptions`, unknown methods on served paths 405 with `Allow`, bodies
 * (empty with a JSON content type, non-UTF-8 charsets) and query numbers (hex, huge limits).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw, request, startVault, vaultServer, type RawAnswer } from './helpers.ts';

let server: Awaited<ReturnType<typeof startVault>>;
const AUTH = { authorization: 'Bearer admin' };
beforeAll(async () => {
  server = await startVault(await vaultServer('malformed'), (await vaultServer('malformed')).createMemoryHandlers());
});
afterAll(() => server.close());

const send = (method: string, path: string, headers: Record<string, string> = {}, body = '') =>
  raw(server.url, request(method, path, { ...AUTH, ...headers }, body));

function expectProblem(answer: RawAnswer, status: number, code?: string): Record<string, unknown> {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(body).toMatchObject({ type: 'about:blank', status, ...(code ? { code } : {}) });
  expect(answer.body).not.toContain('FST_');
  return body;
}

describe("Fastify's own errors answer problem+json", () => {
  it('an id over 100 characters is 404, as any id no resource has', async () => {
    expectProblem(await send('GET', `/v3/accounts/${'a'.repeat(150)}`), 404, 'not_found');
  });

  it('bad percent-encoding in the path is 400', async () => {
    expectProblem(await send('GET', '/v3/accounts/%zz'), 400, 'bad_request');
  });

  it('oversized header fields are 431', async () => {
    expectProblem(await send('GET', '/v3/accounts', { 'x-big': 'a'.repeat(20_000) }), 431, 'header_fields_too_large');
  });

  it('a method token the HTTP parser rejects is 400', async () => {
    expectProblem(await raw(server.url, 'FOO /v3/accounts HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 400, 'bad_request');
  });
});

describe('methods', () => {
  it.each(['TRACE', 'PROPFIND', 'SEARCH', 'LINK', 'PURGE', 'UNLOCK'])('%s on a served path is 405 with Allow', async (method) => {
    const answer = await send(method, '/v3/accounts/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11');
    expectProblem(answer, 405, 'method_not_allowed');
    expect(answer.headers['allow']).toBe('GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
    expect((await send(method, '/v3/accounts')).headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('an unknown method on an unknown path is 404', async () => {
    expectProblem(await send('PROPFIND', '/v3/nothing-here'), 404, 'not_found');
  });
});

describe('bodies', () => {
  it('a DELETE with Content-Type: application/json and no body is a plain delete', async () => {
    const created = await server.call('POST', '/v3/accounts', { body: { email: 'd@example.com', handle: 'd', login: { user: 'd', secret: 's' }, keys: [] } });
    const answer = await send('DELETE', `/v3/accounts/${String(created.body['id'])}`, { 'content-type': 'application/json' });
    expect(answer.status).toBe(204);
  });

  it('a GET with Content-Type: application/json and no body is a plain get', async () => {
    expect((await send('GET', '/v3/accounts', { 'content-type': 'application/json' })).status).toBe(200);
  });

  it('a create with a JSON content type and no body is a validation 400', async () => {
    const body = expectProblem(await send('POST', '/v3/accounts', { 'content-type': 'application/json' }), 400, 'validation_failed');
    expect(body['errors']).toEqual([{ pointer: '#', detail: expect.any(String) }]);
  });

  it.each(['utf-16', 'UTF-16LE', 'latin1', '"iso-8859-1"'])('charset=%s is 415 (JSON is read as UTF-8 only)', async (charset) => {
    const json = JSON.stringify({ email: 'c@example.com', handle: 'c', login: { user: 'c', secret: 's' }, keys: [] });
    expectProblem(await send('POST', '/v3/accounts', { 'content-type': `application/json; charset=${charset}` }, json), 415, 'unsupported_media_type');
  });

  it('charset=utf-8 is accepted', async () => {
    const json = JSON.stringify({ email: 'u8@example.com', handle: 'c', login: { user: 'c', secret: 's' }, keys: [] });
    expect((await send('POST', '/v3/accounts', { 'content-type': 'application/json; charset=UTF-8' }, json)).status).toBe(201);
  });

  it('prototype poisoning is refused', async () => {
    expectProblem(await send('POST', '/v3/accounts', { 'content-type': 'application/json' }, '{"__proto__":{"admin":true}}'), 400);
  });
});

describe('query numbers', () => {
  it.each(['0x10', '1e1', ' 5', '', '5.0', '-1', '0'])('limit=%j is 400', async (limit) => {
    const body = expectProblem(await send('GET', `/v3/accounts?limit=${encodeURIComponent(limit)}`), 400, 'validation_failed');
    expect(body['errors']).toMatchObject([{ parameter: 'limit' }]);
  });

  it.each(['6', '99999', '9007199254740993', '1'.repeat(400)])('limit=%s above the maximum is lowered to it (5)', async (limit) => {
    for (let i = 0; i < 6; i++) await server.call('POST', '/v3/events', { body: { name: `e${i}` } });
    const answer = await send('GET', `/v3/events?limit=${limit}`);
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { data: unknown[] }).data.length).toBeLessThanOrEqual(5);
  });
});
