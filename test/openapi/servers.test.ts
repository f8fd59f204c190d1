/**
 * `defineApi({ servers, openapi })`: where the API is served and how its documents are written. A server is an
 * absolute http(s) URL (RG390 where it is written otherwise; RG391 for an empty list or one listed twice); the
 * documents list the servers in place of `/`, and the generated client's `baseUrl` defaults to the first.
 * `openapi.implicitMethods` brings HEAD and OPTIONS back into the documents (what-the-server-answers tests them).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../../generator/model/diagnostics.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { expectOnlyDiagnostic } from '../helpers/expect-diagnostic.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';
import { readFileSync } from 'node:fs';

const tmp = tempDir('openapi-servers');
afterAll(tmp.cleanup);

/** An API module with `servers` (as source text) and one collection. */
const api = (servers: string, more = ''): string =>
  `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'demo',
  versions: { v1: {} },
  servers: ${servers}${more}
  collections: { things: collection({ fields: { id: f.id(), name: f.string() } }) },
});
`;

interface Case {
  readonly name: string;
  readonly code: DiagnosticCode;
  readonly text: string;
  readonly at: string;
  readonly says: string;
}

const cases: Case[] = [
  { name: 'a relative server', code: 'RG390', text: api(`[{ url: '/api' }], // <-`), at: 'url:', says: 'is not an absolute URL' },
  { name: 'a server of another scheme', code: 'RG390', text: api(`[{ url: 'ftp://api.example.com' }], // <-`), at: 'url:', says: 'must use https or http' },
  {
    name: 'a server with a password',
    code: 'RG390',
    text: api(`[{ url: 'https://me:secret@api.example.com' }], // <-`),
    at: 'url:',
    says: 'user name or password',
  },
  { name: 'a server with a query', code: 'RG390', text: api(`[{ url: 'https://api.example.com?region=eu' }], // <-`), at: 'url:', says: '?query' },
  { name: 'a server with a fragment', code: 'RG390', text: api(`[{ url: 'https://api.example.com#top' }], // <-`), at: 'url:', says: '#fragment' },
  { name: 'a templated server', code: 'RG390', text: api(`[{ url: 'https://{region}.example.com' }], // <-`), at: 'url:', says: 'server variables' },
  { name: 'no servers', code: 'RG391', text: api(`[], // <-`), at: 'servers:', says: 'servers is empty' },
  {
    name: 'a server listed twice',
    code: 'RG391',
    text: api(`[
    { url: 'https://api.example.com' },
    { url: 'https://api.example.com/', description: 'again' }, // <-
  ],`),
    at: 'url:',
    says: 'listed twice',
  },
];

describe('servers diagnostics', () => {
  it('every code of RG390-RG399 has a case', () => {
    const codes = Object.keys(DIAGNOSTIC_CODES).filter((c) => /^RG39\d$/.test(c));
    expect(codes).toEqual(['RG390', 'RG391']);
    expect(codes.filter((c) => !cases.some((x) => x.code === c))).toEqual([]);
  });

  it.each(cases)('$code: $name', async (c) => {
    await expectOnlyDiagnostic(path.join(tmp.dir, c.name.replace(/\W+/g, '-')), c.text, { code: c.code, at: c.at, says: c.says });
  });

  it('refuses an option of the wrong kind where it is written (RG175, RG176)', async () => {
    await expectOnlyDiagnostic(
      path.join(tmp.dir, 'implicit-kind'),
      api(`[{ url: 'https://api.example.com' }],`, `\n  openapi: { implicitMethods: 'yes' }, // <-`),
      {
        code: 'RG175',
        at: 'implicitMethods',
        says: 'implicitMethods',
      },
    );
    await expectOnlyDiagnostic(path.join(tmp.dir, 'server-key'), api(`[{ url: 'https://api.example.com', name: 'prod' }], // <-`), {
      code: 'RG176',
      at: 'name',
      says: 'name',
    });
  });
});

describe('declared servers', () => {
  const dir = path.join(tmp.dir, 'declared');
  const generated = async () => {
    writeFiles(dir, {
      'api.ts': api(`[
    { url: 'https://api.example.com/shop/', description: 'Production' },
    { url: 'http://localhost:3000' },
  ],`),
    });
    const result = await generate({ apiPath: path.join(dir, 'api.ts') });
    expect(result.diagnostics).toEqual([]);
    return path.join(dir, 'generated');
  };

  it('are the documents servers, in order, without a trailing slash', async () => {
    const out = await generated();
    const doc = JSON.parse(readFileSync(path.join(out, 'openapi/v1.json'), 'utf8')) as { servers: unknown; paths: Record<string, object> };
    expect(doc.servers).toEqual([{ url: 'https://api.example.com/shop', description: 'Production' }, { url: 'http://localhost:3000' }]);
    expect(Object.keys(doc.paths['/v1/things']!)).toEqual(['get', 'post']);
  });

  it('are where the client sends requests unless it is given a baseUrl', async () => {
    const out = await generated();
    const client = (await import(pathToFileURL(path.join(out, 'client/index.ts')).href)) as {
      createDemoClient: (options: object) => { v1: { things: { get: (id: string) => Promise<unknown> } } };
    };
    const seen: string[] = [];
    const fetch = async (url: string | URL | Request) => {
      seen.push(String(url));
      return new Response(JSON.stringify({ id: 't1', name: 'n' }), { headers: { 'content-type': 'application/json' } });
    };
    await client.createDemoClient({ fetch }).v1.things.get('t1');
    await client.createDemoClient({ fetch, baseUrl: 'https://staging.example.com' }).v1.things.get('t1');
    await client.createDemoClient({ fetch, baseUrl: undefined }).v1.things.get('t1');
    expect(seen).toEqual([
      'https://api.example.com/shop/v1/things/t1',
      'https://staging.example.com/v1/things/t1',
      'https://api.example.com/shop/v1/things/t1',
    ]);
  });
});

describe('without servers', () => {
  it('the documents name the host serving them, and the client needs its baseUrl', async () => {
    const dir = path.join(tmp.dir, 'none');
    writeFiles(dir, { 'api.ts': api('undefined,') });
    expect((await generate({ apiPath: path.join(dir, 'api.ts') })).ok).toBe(true);
    const doc = JSON.parse(readFileSync(path.join(dir, 'generated/openapi/v1.json'), 'utf8')) as { servers: unknown };
    expect(doc.servers).toEqual([{ url: '/', description: 'The host serving this API.' }]);
    const index = readFileSync(path.join(dir, 'generated/client/index.ts'), 'utf8');
    expect(index).not.toContain('BASE_URL');
    expect(index).not.toContain('WithDefaultBaseUrl');
    expect(index).toContain('createTransport(options, API_KEY_HEADER, VERSION_HEADER)');
  });
});
