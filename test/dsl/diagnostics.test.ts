/**
 * One test per diagnostic: a small API with one mistake, marked `// <-` on the line the diagnostic must
 * point at. Asserts the code, the line, a column inside that line, and that nothing was written.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../../generator/model/diagnostics.ts';
import { locateDiagnostics } from '../../generator/model/locate.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { lineOf, tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('diagnostics');
afterAll(tmp.cleanup);

interface Case {
  readonly code: DiagnosticCode;
  /** The whole defineApi options object, or just `fields` of one collection `things`. */
  readonly fields?: string;
  readonly api?: string;
  readonly extraApi?: string;
}

const wrap = (c: Case): string => {
  const body =
    c.api ??
    `{
  name: 'demo',
  versions: { v1: { released: '2026-01-01' }, v2: { released: '2026-06-01' }, v3: {} },
  auth: { bearer: {} },
  ${c.extraApi ?? ''}
  collections: {
    things: collection({
      fields: {
        id: f.id(),
${c.fields}
      },
    }),
    others: collection({ fields: { id: f.id() } }),
  },
}`;
  return `import { collection, defineApi, f } from 'restgen';\n\nexport default defineApi(${body}\n);\n`;
};

const cases: Case[] = [
  { code: 'RG100', api: `{ name: 'my-api', // <-\n versions: { v1: {} }, collections: { a: collection({ fields: { id: f.id() } }) } }` },
  { code: 'RG101', api: `{ name: 'demo', versions: {}, // <-\n collections: { a: collection({ fields: { id: f.id() } }) } }` },
  { code: 'RG102', api: `{ name: 'demo', versions: { 'v 1': {} }, // <-\n collections: { a: collection({ fields: { id: f.id() } }) } }` },
  { code: 'RG103', api: `{ name: 'demo', versions: { v1: { released: '2026-02-30' } }, // <-\n collections: { a: collection({ fields: { id: f.id() } }) } }` },
  {
    code: 'RG104',
    api: `{ name: 'demo', versions: { v1: { released: '2026-05-01', deprecated: '2026-04-01' } }, // <-\n collections: { a: collection({ fields: { id: f.id() } }) } }`,
  },
  {
    code: 'RG105',
    api: `{ name: 'demo', versions: { v1: {}, v2: { released: '2026-01-01' } }, // <-\n collections: { a: collection({ fields: { id: f.id() } }) } }`,
  },
  { code: 'RG107', api: `{ name: 'demo', versions: { server: {} }, // <-\n collections: { a: collection({ fields: { id: f.id() } }) } }` },
  {
    code: 'RG106',
    api: `{ name: 'demo', versions: { v1: {} }, versioning: { in: 'header', header: 'Api Version' }, // <-\n collections: { a: collection({ fields: { id: f.id() } }) } }`,
  },
  {
    code: 'RG110',
    api: `{ name: 'demo', versions: { v1: {} }, auth: { apiKey: { header: 'X Key' } }, // <-\n collections: { a: collection({ fields: { id: f.id() } }) } }`,
  },
  {
    code: 'RG111',
    api: `{ name: 'demo', versions: { v1: {} }, collections: { a: collection({ fields: { id: f.id() },\n scopes: { read: 'a:read' } }) } } // <-`,
  },
  {
    code: 'RG112',
    api: `{ name: 'demo', versions: { v1: {} }, auth: { bearer: {} }, collections: { a: collection({ fields: { id: f.id() }, operations: ['get'],\n public: ['list'] }) } } // <-`,
  },
  {
    code: 'RG113',
    api: `{ name: 'demo', versions: { v1: {} }, rateLimit: { limit: 0, window: '1m' }, // <-\n collections: { a: collection({ fields: { id: f.id() } }) } }`,
  },
  {
    code: 'RG114',
    api: `{ name: 'demo', versions: { v1: {} }, collections: { a: collection({ fields: { id: f.id() },\n pagination: { defaultLimit: 50, maxLimit: 10 } }) } } // <-`,
  },
  {
    code: 'RG115',
    api: `{ name: 'demo', versions: { v1: {} }, collections: { a: collection({ fields: { id: f.id() },\n operations: ['get', 'search' as 'get'] }) } } // <-`,
  },
  {
    code: 'RG116',
    api: `{ name: 'demo', versions: { v1: {} }, collections: { a: collection({ fields: { id: f.id() },\n operations: ['get', 'get'] }) } } // <-`,
  },
  { code: 'RG120', api: `{ name: 'demo', versions: { v1: {} }, collections: { 'line-items': collection({ fields: { id: f.id() } }) } } // <-` },
  {
    code: 'RG121',
    api: `{ name: 'demo', versions: { v1: {} }, collections: { a: collection({ fields: { id: f.id() } }),\n b: collection({ path: 'a', fields: { id: f.id() } }) } } // <-`,
  },
  { code: 'RG122', api: `{ name: 'demo', versions: { v1: {} }, collections: { a: collection({\n fields: { name: f.string() } }) } } // <-` },
  { code: 'RG123', fields: `        other: f.id(), // <-` },
  { code: 'RG124', api: `{ name: 'demo', versions: { v1: {} }, collections: { a: collection({ fields: { id: f.id() },\n path: 'a/b' }) } } // <-` },
  {
    code: 'RG125',
    api: `{ name: 'demo', versions: { v1: {} }, collections: { notes: collection({ fields: { id: f.id() } }),\n Notes: collection({ path: 'archived', fields: { id: f.id() } }) } } // <-`,
  },
  { code: 'RG130', fields: `        'first-name': f.string(), // <-` },
  { code: 'RG131', fields: `        name: f.string().min(10).max(2), // <-` },
  { code: 'RG132', fields: `        name: f.string().max(-1), // <-` },
  { code: 'RG133', fields: `        code: f.string().pattern('[a-'), // <-` },
  { code: 'RG134', fields: `        code: f.string().pattern(/^a$/i), // <-` },
  { code: 'RG135', fields: `        kind: f.enum(['a', 'a']), // <-` },
  { code: 'RG136', fields: `        secret: f.string().readOnly().writeOnly(), // <-` },
  { code: 'RG137', fields: `        size: f.int().min(1).default(0), // <-` },
  { code: 'RG190', fields: `        code: f.string().pattern('^(?=.*\\d)\\w+$'), // <-` },
  { code: 'RG138', fields: `        size: f.int().max(10).example(11), // <-` },
  { code: 'RG139', fields: `        owner: f.ref('people'), // <-` },
  {
    code: 'RG140',
    api: `{ name: 'demo', versions: { v1: {}, v2: {} }, collections: { a: collection({ fields: { id: f.id(),\n b: f.ref('b').optional() } }), // <-\n b: collection({ fields: { id: f.id() } }).addedIn('v2') } }`,
  },
  { code: 'RG141', fields: `        tags: f.array(f.string()).unique(), // <-` },
  { code: 'RG150', fields: `        size: f.int().optional().addedIn('v9'), // <-` },
  { code: 'RG151', fields: `        size: f.int().optional().addedIn('v3').removedIn('v2'), // <-` },
  { code: 'RG152', fields: `        a: f.string(),\n        b: f.string().renamedFrom('a', 'v2'), // <-` },
  { code: 'RG153', fields: `        size: f.int().renamedFrom('size', 'v2'), // <-` },
  { code: 'RG154', fields: `        size: f.int().removedIn('v2'), // <-` },
  { code: 'RG155', fields: `        size: f.int().min(1).removedIn('v2', { fallback: 0 }), // <-` },
  { code: 'RG156', fields: `        size: f.int().addedIn('v2'), // <-` },
  { code: 'RG157', fields: `        size: f.int().madeOptionalIn('v2'), // <-` },
  { code: 'RG158', fields: `        size: f.int().optional().madeRequiredIn('v2'), // <-` },
  { code: 'RG159', fields: `        size: f.int().optional().addedIn('v2').addedIn('v3'), // <-` },
  { code: 'RG160', fields: `        size: f.int().optional().addedIn('v3').renamedFrom('count', 'v2'), // <-` },
  { code: 'RG162', fields: `        size: f.string().typeChangedFrom('v2', f.int().addedIn('v2')), // <-` },
  { code: 'RG163', fields: `        size: f.int().renamedFrom('count', 'v1'), // <-` },
  { code: 'RG164', fields: `        box: f.object({ size: f.int().typeChangedFrom('v2', f.string()) }).optional(), // <-` },
  { code: 'RG165', fields: `        size: f.int().min(1).madeRequiredIn('v2', { fallback: 0 }), // <-` },
  { code: 'RG166', fields: `        size: f.int().default(1).madeRequiredIn('v2', { fallback: 2 }), // <-` },
  { code: 'RG167', fields: `        size: f.int().readOnly().madeRequiredIn('v2', { fallback: 2 }), // <-` },
];

describe('DSL diagnostics', () => {
  it('covers every DSL code with a case (load, output, slip and config codes are tested elsewhere)', () => {
    const tested = new Set(cases.map((c) => c.code));
    // OAuth 2.0 codes (RG300-RG319) are in test/oauth; lifecycle and enum codes (RG320-RG349) in lifecycle-diagnostics.test.ts, event codes (RG350-RG379) in event-diagnostics.test.ts, version operation codes (RG380-RG389) in test/versions/diagnostics.test.ts, server codes (RG390-RG399) in test/openapi/servers.test.ts.
    const elsewhere = (code: string) =>
      ['RG001', 'RG002', 'RG180', 'RG181', 'RG200', 'RG201', 'RG202'].includes(code) || /^RG(17\d|2[12]\d|3[0-9]\d)$/.test(code);
    const untested = Object.keys(DIAGNOSTIC_CODES).filter((code) => !tested.has(code as DiagnosticCode) && !elsewhere(code));
    expect(untested).toEqual([]);
  });

  it.each(cases)('$code points at the offending call', async (c) => {
    const source = wrap(c);
    const dir = path.join(tmp.dir, c.code);
    writeFiles(dir, { 'api.ts': source });
    const result = await generate({ apiPath: path.join(dir, 'api.ts') });
    expect(result.ok).toBe(false);
    expect(existsSync(path.join(dir, 'generated'))).toBe(false);
    const located = await locateDiagnostics(result.diagnostics);
    const match = located.find((d) => d.code === c.code);
    expect(match, `expected ${c.code}, got ${located.map((d) => `${d.code} ${d.message}`).join('; ')}`).toBeDefined();
    expect(match!.loc?.file).toBe(path.join(dir, 'api.ts'));
    expect(match!.loc?.line).toBe(lineOf(source, '// <-'));
    expect(match!.column).toBeGreaterThan(0);
    expect(match!.message.length).toBeGreaterThan(20);
  });

  it('reports every mistake of a run together', async () => {
    const source = wrap({
      code: 'RG131',
      fields: `        a: f.string().min(3).max(1),\n        b: f.ref('nope'),\n        c: f.int().addedIn('v7').optional(),`,
    });
    const dir = path.join(tmp.dir, 'together');
    writeFiles(dir, { 'api.ts': source });
    const result = await generate({ apiPath: path.join(dir, 'api.ts') });
    expect(result.diagnostics.map((d) => d.code).sort()).toEqual(['RG131', 'RG139', 'RG150']);
  });

  it('reports a module that throws as RG001 with its line, and a module without defineApi as RG002', async () => {
    const dir = path.join(tmp.dir, 'load');
    writeFiles(dir, {
      'throws.ts': `import { f } from 'restgen';\nconst x = f.string();\nthrow new Error('boom ' + String(x.def.kind)); // <-\n`,
      'empty.ts': `export default { name: 'x' };\n`,
    });
    const thrown = await generate({ apiPath: path.join(dir, 'throws.ts') });
    expect(thrown.diagnostics[0]).toMatchObject({ code: 'RG001', loc: { line: 3 } });
    expect(thrown.diagnostics[0]!.message).toContain('boom string');
    const empty = await generate({ apiPath: path.join(dir, 'empty.ts') });
    expect(empty.diagnostics[0]).toMatchObject({ code: 'RG002' });
    const missing = await generate({ apiPath: path.join(dir, 'missing.ts') });
    expect(missing.diagnostics[0]!.message).toContain('cannot find the API module');
  });
});
