/**
 * Attack: misbehaving user code. Errors thrown by handlers or `authenticate` never leak their message or
 * their `statusCode` (a 4xx error object is still a 500 that tells nothing); a handler that never settles
 * answers 503 after `requestTimeout`; problems a handler returns or throws (`NotFound`, `Conflict`) still
 * answer as documented.
 */
import { describe, expect, it } from 'vitest';
import { startVault, vaultServer } from './helpers.ts';

const SECRET = 'db password is hunter2';
const leaky = () => Object.assign(new Error(SECRET), { statusCode: 400, status: 400, expose: true });
const ID = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11';
const BODY = { email: 'h@example.com', handle: 'h', login: { user: 'h', secret: 's' }, keys: [] };

describe('errors thrown by user code', () => {
  it.each([
    ['a handler that throws an error with statusCode 400', { get: () => Promise.reject(leaky()) }, {}],
    [
      'a handler that throws synchronously',
      {
        get: () => {
          throw leaky();
        },
      },
      {},
    ],
    [
      'authenticate that throws an error with statusCode 401',
      {},
      {
        authenticate: () => {
          throw leaky();
        },
      },
    ],
  ])('%s answers 500 without its message', async (_name, override, options) => {
    const mod = await vaultServer('handlers');
    const handlers = mod.createMemoryHandlers();
    Object.assign(handlers['accounts']!, override);
    const server = await startVault(mod, handlers, options);
    try {
      const answer = await server.call('GET', `/v3/accounts/${ID}`);
      expect(answer.status).toBe(500);
      expect(answer.body).toMatchObject({ code: 'internal_error', status: 500 });
      expect(JSON.stringify(answer.body)).not.toContain('hunter2');
      expect(server.logs.some((l) => JSON.stringify(l).includes(SECRET))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('problems a handler throws or returns still answer with their status', async () => {
    const mod = await vaultServer('handlers');
    const handlers = mod.createMemoryHandlers();
    const NotFound = mod.NotFound;
    handlers['accounts']!['get'] = (() => {
      throw new NotFound('No such account.');
    }) as never;
    const server = await startVault(mod, handlers);
    try {
      const answer = await server.call('GET', `/v3/accounts/${ID}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: 'not_found', detail: 'No such account.' });
    } finally {
      await server.close();
    }
  });
});

describe('requestTimeout', () => {
  it('authenticate that never settles answers 503 too', async () => {
    const mod = await vaultServer('handlers');
    const server = await startVault(mod, mod.createMemoryHandlers(), { requestTimeout: 200, authenticate: () => new Promise(() => undefined) });
    try {
      const answer = await server.call('GET', `/v3/accounts/${ID}`);
      expect(answer.status).toBe(503);
      expect(server.logs.find((l) => l['source'] === 'options.authenticate')).toBeDefined();
    } finally {
      await server.close();
    }
  });

  it('a handler that never settles answers 503 with Retry-After, logged with its name', async () => {
    const mod = await vaultServer('handlers');
    const handlers = mod.createMemoryHandlers();
    handlers['accounts']!['get'] = (() => new Promise(() => undefined)) as never;
    handlers['accounts']!['create'] = (() => new Promise(() => undefined)) as never;
    const server = await startVault(mod, handlers, { requestTimeout: 300 });
    try {
      // The handler never settles: the answer comes from requestTimeout (logged with it), or not at all.
      const answer = await server.call('GET', `/v3/accounts/${ID}`);
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ code: 'timeout' });
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(server.logs.find((l) => l['source'] === 'handlers.accounts.get')).toMatchObject({ timeoutMs: 300 });
      // An idempotent create that hangs: 503 too, and its key stays taken until the create settles.
      // (authenticate has the same timeout: see below.)
      const first = await server.call('POST', '/v3/accounts', { body: BODY, headers: { 'idempotency-key': 'hang' } });
      expect(first.status).toBe(503);
      const retry = await server.call('POST', '/v3/accounts', { body: BODY, headers: { 'idempotency-key': 'hang' } });
      expect(retry.status).toBe(503);
    } finally {
      await server.close();
    }
  });
});
