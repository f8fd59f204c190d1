/**
 * The generated client fetching its own access tokens (OAuth 2.0 client credentials) from a real token
 * endpoint on loopback, calling the generated server on loopback: one token request for 50 concurrent calls,
 * the token renewed before it expires, renewed once and retried when the API answers `invalid_token`, typed
 * errors for `invalid_client`, the secret sent only to the token endpoint (HTTP Basic), the token URL the API
 * declares used by default, and the scopes its token carries.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline/generate.ts';
import { onMovingClock } from '../helpers/clock.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

/** What the tests use of the generated client. */
interface ClientModule {
  createNotesClient(options: object): { v1: { notes: { list(): Promise<{ data: unknown[] }>; create(body: object): Promise<{ id: string }> } } };
  clientCredentials(credentials: object): (options: object) => { scopes?: () => Promise<readonly string[] | null> };
  AuthenticationError: new (...args: never[]) => Error & { status: number; oauthError: string | null };
}
interface ServerModule {
  registerNotesApi(app: FastifyInstance, handlers: unknown, options: object): Promise<void>;
  createMemoryHandlers(): unknown;
}

const tmp = tempDir('oauth-client');
let client: ClientModule;
let tokenServer: Server;
let tokenUrl = '';
let api: FastifyInstance;
let baseUrl = '';

/** Token endpoint state: the requests it saw, the tokens it issued, and how it answers. */
const endpoint = {
  requests: [] as { authorization: string | undefined; body: string }[],
  issued: new Set<string>(),
  revoked: new Set<string>(),
  expiresIn: 3600 as number | undefined,
  delayMs: 0,
};
/** Headers of every request the API saw. */
const apiHeaders: Record<string, string | string[] | undefined>[] = [];

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    request.on('data', (d: Buffer) => (text += d.toString()));
    request.on('end', () => resolve(text));
  });

beforeAll(async () => {
  tokenServer = createServer((request, response) => {
    void readBody(request).then(async (body) => {
      endpoint.requests.push({ authorization: request.headers.authorization, body });
      if (endpoint.delayMs) await new Promise((r) => setTimeout(r, endpoint.delayMs));
      const json = (status: number, value: object) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (request.headers.authorization !== basic('svc', 's3cr%t+/'.replace(/[%+/]/g, encodeURIComponent))) {
        json(401, { error: 'invalid_client', error_description: 'Client authentication failed' });
        return;
      }
      const token = `tok-${endpoint.requests.length}`;
      endpoint.issued.add(token);
      json(200, {
        access_token: token,
        token_type: 'Bearer',
        ...(endpoint.expiresIn === undefined ? {} : { expires_in: endpoint.expiresIn }),
        scope: new URLSearchParams(body).get('scope'),
      });
    });
  });
  await new Promise<void>((resolve) => tokenServer.listen(0, '127.0.0.1', resolve));
  tokenUrl = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/oauth/token`;
  const source = `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'notes',
  versions: { v1: {} },
  auth: {
    oauth2: {
      flows: { clientCredentials: { tokenUrl: '${tokenUrl}' } },
      scopes: { 'notes:read': 'Read notes', 'notes:write': 'Write notes' },
    },
  },
  collections: {
    notes: collection({ fields: { id: f.id(), text: f.string().max(100) }, scopes: { read: 'notes:read', write: 'notes:write' } }),
  },
});
`;
  writeFiles(tmp.dir, { 'api.ts': source });
  const result = await generate({ apiPath: path.join(tmp.dir, 'api.ts') });
  expect(result.diagnostics).toEqual([]);
  client = (await import(path.join(tmp.dir, 'generated/client/index.ts'))) as ClientModule;
  const server = (await import(path.join(tmp.dir, 'generated/server/index.ts'))) as ServerModule;
  api = Fastify();
  api.addHook('onRequest', async (request) => void apiHeaders.push({ ...request.headers }));
  await server.registerNotesApi(api, server.createMemoryHandlers(), {
    rateLimit: false,
    authenticate: ({ token }: { token: string }) =>
      endpoint.issued.has(token) && !endpoint.revoked.has(token) ? { id: 'svc', scopes: ['notes:read', 'notes:write'] } : null,
  });
  baseUrl = await api.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);

afterAll(async () => {
  await api?.close();
  await new Promise<void>((resolve) => tokenServer.close(() => resolve()));
  tmp.cleanup();
});

/** A client with fresh client credentials (its own token cache); `tokenUrl` is the API's declared one by default. */
const notesClient = (credentials: object = {}) =>
  client.createNotesClient({
    baseUrl,
    retryDelay: 5,
    auth: client.clientCredentials({ clientId: 'svc', clientSecret: 's3cr%t+/', scopes: ['notes:read', 'notes:write'], ...credentials }),
  });

/** Every test starts with a token endpoint that issued nothing yet (its tokens are tok-1, tok-2, ...). */
function reset(): void {
  endpoint.requests.length = 0;
  endpoint.issued.clear();
  endpoint.revoked.clear();
  endpoint.expiresIn = 3600;
  endpoint.delayMs = 0;
  apiHeaders.length = 0;
}

describe('client credentials', () => {
  it('makes one token request for 50 concurrent calls, at the token URL the API declares, with HTTP Basic', async () => {
    reset();
    endpoint.delayMs = 100;
    const notes = notesClient();
    const pages = await Promise.all(Array.from({ length: 50 }, () => notes.v1.notes.list()));
    expect(pages).toHaveLength(50);
    expect(endpoint.requests).toHaveLength(1);
    const [request] = endpoint.requests;
    // RFC 6749 section 2.3.1: id and secret form-encoded, then Basic; the scopes asked for in the body.
    expect(request!.authorization).toBe(basic('svc', 's3cr%25t%2B%2F'));
    expect(Object.fromEntries(new URLSearchParams(request!.body))).toEqual({ grant_type: 'client_credentials', scope: 'notes:read notes:write' });
    expect(new Set(apiHeaders.map((h) => h['authorization']))).toEqual(new Set(['Bearer tok-1']));
    // The secret never reaches the API.
    expect(JSON.stringify(apiHeaders)).not.toMatch(/s3cr|Basic/);
    // Later calls reuse the cached token.
    await notes.v1.notes.create({ text: 'hello' });
    expect(endpoint.requests).toHaveLength(1);
  });

  it('renews the token before it expires', async () => {
    reset();
    endpoint.expiresIn = 2;
    // The client reads Date for a token's age: the clock moves on without waiting.
    await onMovingClock(async (later) => {
      const notes = notesClient();
      await notes.v1.notes.list();
      await notes.v1.notes.list();
      expect(endpoint.requests).toHaveLength(1);
      // At most half the lifetime before expiry (1 s of 2 s), a new token is fetched while the old one still works.
      later(1100);
      await notes.v1.notes.list();
      expect(endpoint.requests).toHaveLength(2);
      expect(apiHeaders.map((h) => h['authorization'])).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
    });
  });

  it('renews the token once and retries when the API answers invalid_token', async () => {
    reset();
    const notes = notesClient();
    await notes.v1.notes.list();
    endpoint.revoked.add('tok-1');
    const page = await notes.v1.notes.list();
    expect(page.data).toBeInstanceOf(Array);
    expect(endpoint.requests).toHaveLength(2);
    expect(apiHeaders.map((h) => h['authorization'])).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
  });

  it('renews only once: a second invalid_token is an AuthenticationError', async () => {
    reset();
    const notes = notesClient();
    await notes.v1.notes.list();
    // The API refuses the cached token and the next one the endpoint issues.
    endpoint.revoked.add('tok-1');
    endpoint.revoked.add('tok-2');
    const error = await notes.v1.notes.list().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(client.AuthenticationError);
    expect(error).toMatchObject({ status: 401, oauthError: 'invalid_token' });
    expect(endpoint.requests).toHaveLength(2);
    expect(apiHeaders.map((h) => h['authorization'])).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
  });

  it('types a refused client: AuthenticationError with oauthError invalid_client, and the API is never called', async () => {
    reset();
    const notes = notesClient({ clientSecret: 'wrong' });
    const error = await notes.v1.notes.list().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(client.AuthenticationError);
    expect(error).toMatchObject({ status: 401, oauthError: 'invalid_client' });
    expect(String((error as Error).message)).toContain('invalid_client: Client authentication failed');
    expect(apiHeaders).toHaveLength(0);
    // Not retried: a refused client stays refused.
    expect(endpoint.requests).toHaveLength(1);
  });

  it('reports an unreachable token endpoint as a ConnectionError after the retries', async () => {
    reset();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const notes = notesClient({ tokenUrl: `http://127.0.0.1:${port}/token` });
    const error = await notes.v1.notes.list().then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as Error).name).toBe('ConnectionError');
    expect(String((error as Error).message)).toContain('token request');
    expect(apiHeaders).toHaveLength(0);
  });

  it('keeps an async bearer working, and refuses bearer together with client credentials', async () => {
    reset();
    endpoint.issued.add('manual');
    let calls = 0;
    const notes = client.createNotesClient({ baseUrl, bearer: async () => (calls++, 'manual') });
    await notes.v1.notes.list();
    expect(calls).toBe(1);
    expect(apiHeaders[0]!['authorization']).toBe('Bearer manual');
    expect(() => client.createNotesClient({ baseUrl, bearer: 'x', auth: client.clientCredentials({ clientId: 'a', clientSecret: 'b' }) })).toThrow('not both');
  });

  it('says which scopes its token carries: those granted, else those asked for, else none known; fetching one token', async () => {
    reset();
    const scopesOf = (credentials: object) =>
      client.clientCredentials({ clientId: 'svc', clientSecret: 's3cr%t+/', tokenUrl, ...credentials })({ baseUrl }).scopes!();
    // The endpoint answers the scopes asked for (RFC 6749 section 5.1).
    expect(await scopesOf({ scopes: ['notes:read'] })).toEqual(['notes:read']);
    expect(await scopesOf({})).toBeNull();
    expect(endpoint.requests).toHaveLength(2);
  });
});
