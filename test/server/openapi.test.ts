/**
 * The generated server serves each version's generated OpenAPI document over HTTP: at `/<version>/openapi.json`
 * (or `/openapi.json` chosen by the version header), public and unlimited, with `servers[0].url` set to the
 * prefix (unless the API declares its servers: those are kept), moved by `openapi.path`, turned off by
 * `openapi: false`, and a clear startup error when the file is missing.
 */
import Fastify from 'fastify';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_API, SHOP_MIGRATIONS, TMP, generateInto, importServer, registerOf, start, testAuthenticate, type Register, type Running } from './helpers.ts';

const SHOP_VERSIONS = ['v1', 'v2', 'v3'];
let shopDir: string;
let registerShop: Register;
const running: Running[] = [];

/** Starts the shop API with `options` added to the usual ones. */
async function startShop(options: object = {}): Promise<Running> {
  const mod = await importServer(shopDir);
  const server = await start((app) =>
    registerShop(app, mod.createMemoryHandlers(), { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS, ...options }),
  );
  running.push(server);
  return server;
}
const documentOf = (dir: string, version: string): unknown => JSON.parse(readFileSync(path.join(dir, 'openapi', `${version}.json`), 'utf8'));

beforeAll(async () => {
  shopDir = await generateInto('openapi');
  registerShop = registerOf(await importServer(shopDir), 'Shop');
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
});

describe('OpenAPI documents, path versioning', () => {
  it("serves each version's generated document at /<version>/openapi.json, without a credential or a rate limit", async () => {
    const server = await startShop();
    for (const version of SHOP_VERSIONS) {
      const answer = await server.call('GET', `/${version}/openapi.json`, { token: null });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.body).toEqual(documentOf(shopDir, version));
      expect((answer.body['info'] as { version: string }).version).toBe(version);
      expect(answer.headers.get('ratelimit-limit')).toBeNull();
    }
    // A credential that would be refused on the API's routes does not matter here.
    expect((await server.call('GET', '/v2/openapi.json', { token: 'bad' })).status).toBe(200);
    expect((await server.call('GET', '/v2/customers', { token: 'bad' })).status).toBe(401);
  });

  it("a deprecated version's document carries its Deprecation and Sunset headers", async () => {
    const server = await startShop();
    const v1 = await server.call('GET', '/v1/openapi.json', { token: null });
    expect(v1.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(v1.headers.get('sunset')).toBe('Mon, 01 Mar 2027 00:00:00 GMT');
    const v3 = await server.call('GET', '/v3/openapi.json', { token: null });
    expect(v3.headers.get('deprecation')).toBeNull();
  });

  it('answers other methods 405 with Allow, and HEAD', async () => {
    const server = await startShop();
    const post = await server.call('POST', '/v3/openapi.json', { token: null, body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const head = await fetch(`${server.url}/v3/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('under a prefix, serves the documents there with servers[0].url set to the prefix', async () => {
    const server = await startShop({ prefix: '/api/' });
    const answer = await server.call('GET', '/api/v2/openapi.json', { token: null });
    expect(answer.status).toBe(200);
    const file = documentOf(shopDir, 'v2') as { servers: { url: string }[] };
    expect(answer.body['servers']).toEqual([{ ...file.servers[0], url: '/api' }, ...file.servers.slice(1)]);
    expect({ ...answer.body, servers: file.servers }).toEqual(file);
    expect((await server.call('GET', '/v2/openapi.json', { token: null })).status).toBe(404);
  });

  it('openapi.path moves the documents; openapi: false turns them off (the path answers the problem+json 404)', async () => {
    const moved = await startShop({ openapi: { path: '/docs/api.json' } });
    const answer = await moved.call('GET', '/v3/docs/api.json', { token: null });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(documentOf(shopDir, 'v3'));
    expect((await moved.call('GET', '/v3/openapi.json', { token: null })).status).toBe(404);

    const off = await startShop({ openapi: false });
    const gone = await off.call('GET', '/v1/openapi.json', { token: null });
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(gone.body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await off.call('GET', '/v1/customers')).status).toBe(200);
  });

  it('refuses to start when a document is missing, naming the file, unless openapi: false', async () => {
    // The generated output without its openapi/ folder.
    const bare = path.join(TMP, 'server-openapi-missing');
    rmSync(bare, { recursive: true, force: true });
    cpSync(shopDir, bare, { recursive: true, filter: (from) => !from.startsWith(path.join(shopDir, 'openapi')) });
    const mod = await importServer(bare);
    const register = registerOf(mod, 'Shop');
    const options = { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS };
    const app = Fastify();
    try {
      const failure = register(app, mod.createMemoryHandlers(), options);
      await expect(failure).rejects.toThrow(path.join(bare, 'openapi', 'v1.json'));
      await expect(failure).rejects.toThrow(/registerShopApi: the OpenAPI document .* does not exist; run `restgen generate`/);
      await expect(register(Fastify(), mod.createMemoryHandlers(), { ...options, openapi: false })).resolves.toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('reads a document once, when it is first asked for; one broken after the start answers 500 and logs the file', async () => {
    const copy = path.join(TMP, 'server-openapi-later');
    rmSync(copy, { recursive: true, force: true });
    cpSync(shopDir, copy, { recursive: true });
    const mod = await importServer(copy);
    const server = await start((app) =>
      registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS }),
    );
    running.push(server);
    // Written after the start: a document read at the start would be the old one, or a server that never started.
    const v2 = { ...(documentOf(copy, 'v2') as object), info: { title: 'rewritten', version: 'v2' } };
    writeFileSync(path.join(copy, 'openapi', 'v2.json'), JSON.stringify(v2));
    writeFileSync(path.join(copy, 'openapi', 'v3.json'), '{"openapi": "3.1.0", "paths": ');
    expect((await server.call('GET', '/v2/openapi.json', { token: null })).body).toEqual(v2);
    const broken = await server.call('GET', '/v3/openapi.json', { token: null });
    expect(broken.status).toBe(500);
    expect(broken.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(broken.body).toMatchObject({ status: 500, code: 'internal_error' });
    expect(server.errors.join('')).toContain(`the OpenAPI document ${path.join(copy, 'openapi', 'v3.json')} is not JSON`);
    // Read once: a document served is kept, whatever becomes of its file; a broken one is read again when asked.
    rmSync(path.join(copy, 'openapi', 'v2.json'));
    expect((await server.call('GET', '/v2/openapi.json', { token: null })).body).toEqual(v2);
    cpSync(path.join(shopDir, 'openapi', 'v3.json'), path.join(copy, 'openapi', 'v3.json'));
    expect((await server.call('GET', '/v3/openapi.json', { token: null })).body).toEqual(documentOf(shopDir, 'v3'));
  });

  it('refuses to start when a document cannot be read (a folder in its place)', async () => {
    const copy = path.join(TMP, 'server-openapi-folder');
    rmSync(copy, { recursive: true, force: true });
    cpSync(shopDir, copy, { recursive: true });
    rmSync(path.join(copy, 'openapi', 'v2.json'));
    mkdirSync(path.join(copy, 'openapi', 'v2.json'));
    const mod = await importServer(copy);
    await expect(
      registerOf(mod, 'Shop')(Fastify(), mod.createMemoryHandlers(), { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS }),
    ).rejects.toThrow(`registerShopApi: cannot read the OpenAPI document ${path.join(copy, 'openapi', 'v2.json')}`);
  });

  it("refuses an openapi.path inside a collection's path", async () => {
    await expect(
      registerShop(Fastify(), (await importServer(shopDir)).createMemoryHandlers(), {
        authenticate: testAuthenticate,
        migrations: SHOP_MIGRATIONS,
        openapi: { path: 'orders/openapi' },
      }),
    ).rejects.toThrow(/options\.openapi\.path "orders\/openapi"/);
  });
});

describe('OpenAPI documents, header versioning', () => {
  let headerDir: string;
  let server: Running;
  beforeAll(async () => {
    headerDir = await generateInto('openapi-header', HEADER_API);
    const mod = await importServer(headerDir);
    server = await start((app) => registerOf(mod, 'Notes')(app, mod.createMemoryHandlers()));
    running.push(server);
  });

  it('serves the document of the version the header names at /openapi.json', async () => {
    for (const version of ['2025-01', '2025-06']) {
      const answer = await server.call('GET', '/openapi.json', { token: null, headers: { 'api-version': version } });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(documentOf(headerDir, version));
      expect(answer.headers.get('vary')).toContain('Api-Version');
    }
  });

  it('answers 400 naming the versions when the header is missing or unknown', async () => {
    for (const headers of [{}, { 'api-version': 'v9' }] as Record<string, string>[]) {
      const answer = await server.call('GET', '/openapi.json', { token: null, headers });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'unknown_version', versions: ['2025-01', '2025-06'] });
    }
  });
});

describe('OpenAPI documents of an API that declares its servers', () => {
  it('keeps the declared servers under a prefix: they name where the API is published, prefix included', async () => {
    const ledgerDir = await generateInto('openapi-ledger', new URL('../../examples/ledger/api.ts', import.meta.url).pathname);
    const mod = await importServer(ledgerDir);
    const server = await start((app) => registerOf(mod, 'Ledger')(app, mod.createMemoryHandlers(), { prefix: '/api', authenticate: testAuthenticate }));
    running.push(server);
    const answer = await server.call('GET', '/api/openapi.json', { token: null, headers: { 'ledger-version': '2025-09-01' } });
    expect(answer.status).toBe(200);
    expect(answer.body['servers']).toEqual([
      { url: 'https://api.ledger.example', description: 'Production' },
      { url: 'https://sandbox.api.ledger.example', description: 'Sandbox: test keys, no real money' },
    ]);
    expect(answer.body).toEqual(documentOf(ledgerDir, '2025-09-01'));
  });
});
