/**
 * What restgen leaves in a user's repository for a 5-collection library-style API (books, authors,
 * members, loans with a lifecycle, branches; two versions; bearer auth; fixtures/library-api.ts): at most
 * 3,400 lines of TypeScript in all its parts but the MCP server (3,000 before list queries brought each
 * collection's typed queries: the handler's, the client's, and the masks of get and list; the MCP server is at
 * most 3,200 more, mostly its tools' JSON Schemas): the server runtime is a package, and the client gets only
 * the runtime modules it uses. An API without events, lifecycles or JWT gets no code for them: no webhook,
 * transition or OAuth module in its client, and no import of one (nor of the JWT verifier) in its client or
 * server. The library's client runs (a path that is not the collection's name, a transition) against a
 * loopback server, and type-checks on its own.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';
import { startFaultServer } from './fault-server.ts';
import { generateInto, listFiles, typeCheckClient } from './generate-client.ts';

const LIBRARY = readFileSync(new URL('./fixtures/library-api.ts', import.meta.url), 'utf8');
/** No events, no lifecycle, API keys (bearer tokens bring the JWT verifier). */
const PLAIN = `
import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'catalog',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  auth: { apiKey: { header: 'X-API-Key' } },
  collections: {
    items: collection({ fields: { id: f.id(), name: f.string().max(100), price: f.int().min(0).optional().addedIn('v2') } }),
    tags: collection({ fields: { id: f.id(), label: f.string() }, operations: ['list', 'get', 'create'] }),
  },
});
`;

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((c) => c()));

/** Generates `source` (an API module) in a fresh folder (its lock file stays there too); the output folder. */
async function generated(prefix: string, source: string): Promise<string> {
  const api = tempDir(`${prefix}-api`);
  writeFiles(api.dir, { 'api.ts': source });
  const out = await generateInto(prefix, path.join(api.dir, 'api.ts'));
  cleanups.push(api.cleanup, out.cleanup);
  return out.dir;
}

/** The TypeScript files under `dir` with their line counts. */
function typescriptLines(dir: string): Map<string, number> {
  const lines = new Map<string, number>();
  for (const file of listFiles(dir).filter((f) => f.endsWith('.ts'))) lines.set(file, readFileSync(path.join(dir, file), 'utf8').split('\n').length - 1);
  return lines;
}

/** Every module specifier imported or re-exported by the TypeScript files under `dir`. */
function specifiers(dir: string): string[] {
  return listFiles(dir)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => [...readFileSync(path.join(dir, f), 'utf8').matchAll(/\b(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => `${f}: ${m[1]}`));
}

let library = '';
let plain = '';
beforeAll(async () => {
  [library, plain] = await Promise.all([generated('library-lines', LIBRARY), generated('plain-lines', PLAIN)]);
}, 60_000);

describe('the library-style API', () => {
  it('generates at most 3,400 lines of TypeScript besides its MCP server, and at most 3,200 for the MCP server', () => {
    const lines = typescriptLines(library);
    const part = (prefix: string) => [...lines].filter(([f]) => f.startsWith(prefix)).reduce((n, [, l]) => n + l, 0);
    const total = [...lines.values()].reduce((a, b) => a + b, 0) - part('mcp/');
    const parts = {
      'client/runtime': part('client/runtime/'),
      client: part('client/') - part('client/runtime/'),
      server: part('server/'),
      zod: total - part('client/') - part('server/'),
    };
    expect(total, JSON.stringify(parts)).toBeLessThanOrEqual(3400);
    // The MCP server is mostly data: every tool's JSON Schemas, as each version's OpenAPI document has them.
    const mcp = { runtime: part('mcp/runtime/'), tools: part('mcp/tools/'), entries: part('mcp/') - part('mcp/runtime/') - part('mcp/tools/') };
    expect(part('mcp/'), JSON.stringify(mcp)).toBeLessThanOrEqual(3200);
    // The runtime modules its features need, and no others.
    expect([...lines.keys()].filter((f) => f.startsWith('client/runtime/')).map((f) => path.basename(f, '.ts'))).toEqual([
      'body',
      'etags',
      'failures',
      'namespace',
      'options',
      'promises',
      'retry',
      'signals',
      'transitions',
      'transport',
    ]);
  });

  it('has a client that type-checks on its own, and sends to the path of a collection that is not its name', async () => {
    expect(await typeCheckClient(library)).toBe('');
    const api = await startFaultServer((_, seen) => ({
      status: 200,
      body: seen.url.startsWith('/v2/loans') ? { id: 'l1', status: 'active' } : { data: [], next_cursor: null },
    }));
    try {
      type Method = (...args: unknown[]) => Promise<unknown>;
      const mod = (await import(path.join(library, 'client/index.ts'))) as {
        createLibraryClient(o: object): Record<string, Record<string, Record<string, Method>>>;
      };
      const client = mod.createLibraryClient({ baseUrl: api.url, bearer: 'T', maxRetries: 0 });
      await client['v2']!['members']!['list']!({ tier: 'premium' });
      await client['v2']!['loans']!['renew']!('l1', { due: '2026-12-01' });
      expect(api.seen.map((s) => [s.method, s.url, s.body])).toEqual([
        ['GET', '/v2/patrons?tier=premium', ''],
        ['POST', '/v2/loans/l1:renew', '{"due":"2026-12-01"}'],
      ]);
    } finally {
      await api.close();
    }
  });
});

describe('an API without events, lifecycles or JWT', () => {
  it('gets no webhook, transition or OAuth module in its client', () => {
    const runtime = listFiles(path.join(plain, 'client/runtime'));
    expect(runtime).not.toContain('webhooks.ts');
    expect(runtime).not.toContain('transitions.ts');
    expect(runtime).not.toContain('oauth.ts');
    expect(listFiles(path.join(plain, 'server'))).not.toContain('events.ts');
  });

  it('imports none of them, nor the JWT verifier, in its client or server', () => {
    const all = specifiers(plain);
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((s) => /webhooks|transitions|oauth|events|\/jwt/.test(s))).toEqual([]);
    const index = readFileSync(path.join(plain, 'client/index.ts'), 'utf8');
    for (const name of ['verifyWebhook', 'InvalidTransitionError', 'clientCredentials']) expect(index).not.toContain(name);
  });

  it('while the library, which has a lifecycle, gets its transitions (and no webhooks or OAuth)', () => {
    const all = specifiers(path.join(library, 'client'));
    expect(all).toContain('v2.ts: ./runtime/transitions.js');
    expect(all.filter((s) => /webhooks|oauth/.test(s))).toEqual([]);
  });
});
