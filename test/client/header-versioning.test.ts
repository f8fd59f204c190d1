/**
 * The client of an API unlike the example: the version in a header, bearer auth only, version names that
 * are not identifiers, a collection with only some operations, nested objects with read-only and
 * write-only members. Generated through the whole pipeline, type-checked on its own, run against a server.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultServer } from './fault-server.ts';
import { generateInto, typeCheckClient } from './generate-client.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

const API = `
import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'gadgetStore',
  versions: { '2025-01': { released: '2025-01-01' }, '2026-01': {} },
  versioning: { in: 'header', header: 'Api-Version' },
  auth: { bearer: {} },
  collections: {
    widgets: collection({
      fields: {
        id: f.id(),
        label: f.string().nullable().filterable(),
        colors: f.array(f.enum(['red', 'blue'])).default([]),
        spec: f.object({ secret: f.string().writeOnly().optional(), serial: f.int().readOnly(), size: f.number().default(1) }),
        active: f.boolean().filterable().description('Shown in the shop').deprecated(),
      },
      operations: ['list', 'get'],
    }),
    parts: collection({ fields: { id: f.id(), name: f.string() }, operations: ['create', 'replace'] }).addedIn('2026-01'),
  },
});
`;

let api: { dir: string; cleanup: () => void };
let out: { dir: string; cleanup: () => void };
const read = (file: string): string => readFileSync(path.join(out.dir, 'client', file), 'utf8');

beforeAll(async () => {
  api = tempDir('client-header-api');
  writeFiles(api.dir, { 'api.ts': API });
  out = await generateInto('client-header', path.join(api.dir, 'api.ts'));
});
afterAll(() => {
  out?.cleanup();
  api?.cleanup();
});

describe('a header-versioned API', () => {
  it('generates a module per version and type-checks on its own', async () => {
    expect(read('index.ts')).toContain('export type * as V2025_01 from "./2025-01.js";');
    expect(read('index.ts')).toContain('client["2025-01"].widgets.list()');
    expect(await typeCheckClient(out.dir)).toBe('');
  });

  it('declares the types each direction of the wire needs', () => {
    const v1 = read('2025-01/widgets.ts');
    // Responses: no write-only member, defaults present; no create type for a collection without writes.
    expect(v1).toMatch(/spec: \{ serial: number; size: number \}/);
    expect(v1).toMatch(/label: string \| null;/);
    expect(v1).toMatch(/colors: \("red" \| "blue"\)\[\];/);
    expect(v1).not.toContain('WidgetCreate');
    expect(v1).toMatch(/\/\*\* Shown in the shop\n \s*\* @deprecated \*\/\n\s*active\?: \$\.Filter<boolean, "eq">;/);
    const v2 = read('2026-01/parts.ts');
    expect(v2).toMatch(/export interface PartCreate \{\s+name: string;\s+\}/);
    expect(v2).toContain('export type PartReplace = PartCreate;');
    expect(v2).toContain('create: PartCreate;');
    expect(read('2026-01.ts')).toContain('export type * from "./2026-01/parts.js";');
    expect(read('2026-01.ts')).toMatch(/@experimental/);
    // No client credentials flow: no `auth` (and no OAuth module).
    expect(read('index.ts')).toMatch(/GadgetStoreClientOptions = Omit<\s*ClientOptions,\s*"auth" \| "apiKey"\s*>/);
    expect(read('index.ts')).not.toContain('oauth');
  });

  it('sends the version in the header, never in the path', async () => {
    const server = await startFaultServer(() => ({ status: 200, body: { data: [], next_cursor: null } }));
    try {
      type Method = (...args: unknown[]) => PromiseLike<unknown>;
      type Client = Record<string, Record<string, Record<string, Method>>>;
      const mod = (await import(path.join(out.dir, 'client/index.ts'))) as { createGadgetStoreClient(o: object): Client };
      const client = mod.createGadgetStoreClient({ baseUrl: server.url, bearer: 't' });
      expect(Object.keys(client)).toEqual(['2025-01', '2026-01']);
      expect(Object.keys(client['2025-01']!)).toEqual(['widgets']);
      expect(Object.keys(client['2026-01']!.parts!)).toEqual(['create', 'replace']);
      await client['2025-01']!.widgets!.list!({ active: false, label: 'x' });
      await client['2026-01']!.parts!.create!({ name: 'n' });
      expect(server.seen.map((s) => [s.method, s.url, s.headers['api-version'], s.headers.authorization])).toEqual([
        ['GET', '/widgets?active=false&label=x', '2025-01', 'Bearer t'],
        ['POST', '/parts', '2026-01', 'Bearer t'],
      ]);
    } finally {
      await server.close();
    }
  });
});
