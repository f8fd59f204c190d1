/**
 * Changes that must be expressible (issue #12, items 1 and 2): a field made required with a migrate-up
 * `fallback` instead of a default, and nullable array items. Unit tests on the model and the diff, the
 * new diagnostics at their exact line and column, then end to end: generate, type-check the generated
 * client, start the generated server on loopback and call it over HTTP.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { f } from '../../generator/dsl/index.ts';
import { HookNeeds, planUp } from '../../generator/emit/server/migration-plan.ts';
import { contractOf } from '../../generator/lock/index.ts';
import { locateDiagnostics } from '../../generator/model/locate.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';
import { importServer, registerOf, start, type Running } from '../server/helpers.ts';
import { apiWith, diffBetween, diffField, summary } from './helpers.ts';

const tmp = tempDir('expressible');
afterAll(tmp.cleanup);

const versions = { v1: { released: '2026-01-01' }, v2: {} };

describe('madeRequiredIn with a fallback', () => {
  it('the issue example (an optional write-only field made required) needs no default', () => {
    const api = apiWith({ note: f.string().writeOnly().madeRequiredIn('v2', { fallback: '' }) }, { versions });
    const note = api.collections[0]!.fields.find((x) => x.name === 'note')!;
    expect(note.default).toBeUndefined();
    expect(note.optionality).toMatchObject([{ version: 'v2', to: 'required', fallback: { value: '' } }]);
  });
  it('a create of the older version that leaves it out gets the fallback when migrated up; a patch does not', () => {
    const api = apiWith({ title: f.string().madeRequiredIn('v2', { fallback: 'untitled' }) }, { versions });
    const plan = planUp(['v1', 'v2'], api.collections[0]!, 0, 1, new HookNeeds());
    expect(plan.fill).toEqual({ title: 'untitled' });
    expect(planUp(['v1', 'v2'], api.collections[0]!, 1, 1, new HookNeeds()).fill).toEqual({});
  });
  it('the diff reports it at the madeRequiredIn call', () => {
    const api = apiWith({ title: f.string().madeRequiredIn('v2', { fallback: 'untitled' }) }, { versions });
    const [found] = diffBetween(api, 'v1', 'v2');
    expect(found).toMatchObject({ id: 'request-field-became-required', location: 'items.title', loc: { member: 'madeRequiredIn' } });
  });
});

describe('RG165–RG167 point at the madeRequiredIn call (line and column)', () => {
  const cases = [
    { code: 'RG165', field: `size: f.int().min(1).madeRequiredIn('v2', { fallback: 0 }),` },
    { code: 'RG166', field: `size: f.int().default(1).madeRequiredIn('v2', { fallback: 2 }),` },
    { code: 'RG167', field: `size: f.int().readOnly().madeRequiredIn('v2', { fallback: 2 }),` },
  ];
  it.each(cases)('$code', async ({ code, field }) => {
    const source = `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'demo',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  collections: {
    things: collection({ fields: { id: f.id(),
      ${field}
    } }),
  },
});
`;
    const dir = path.join(tmp.dir, code);
    writeFiles(dir, { 'api.ts': source });
    const result = await generate({ apiPath: path.join(dir, 'api.ts') });
    const [d] = await locateDiagnostics(result.diagnostics.filter((x) => x.code === code));
    expect(d, result.diagnostics.map((x) => x.message).join('; ')).toBeDefined();
    expect(d!.loc!.line).toBe(8);
    expect(d!.column).toBe(source.split('\n')[7]!.indexOf('madeRequiredIn') + 1);
  });
});

describe('nullable array items in the model and the diff', () => {
  it('f.array(f.string().nullable()) keeps the items nullable; the lock records it', () => {
    const api = apiWith({ tags: f.array(f.string().nullable()) });
    expect(api.collections[0]!.fields[1]!.type).toEqual({ kind: 'array', of: { kind: 'string' }, itemsNullable: true });
    expect(contractOf(api, 'v1').collections[0]!.fields.find((x) => x.name === 'tags')!.type).toMatchObject({ itemsNullable: true });
  });
  it('items becoming nullable breaks responses; becoming non-nullable breaks requests', () => {
    expect(summary(diffField(f.array(f.string()), f.array(f.string().nullable())))).toEqual([
      { id: 'response-field-became-nullable', level: 'breaking', location: 'items.x[]' },
    ]);
    expect(summary(diffField(f.array(f.string().nullable()), f.array(f.string())))).toEqual([
      { id: 'request-field-became-non-nullable', level: 'breaking', location: 'items.x[]' },
    ]);
    expect(diffField(f.array(f.string().nullable()), f.array(f.string().nullable()))).toEqual([]);
  });
  it('a default with a null item is checked against the items', () => {
    expect(() => apiWith({ tags: f.array(f.string()).default(['a', null as unknown as string]) })).toThrow(/RG137.*null is not allowed/);
    // The DSL's value types do not carry item nullability (a .nullable() builder keeps its value type), hence the cast.
    expect(() => apiWith({ tags: f.array(f.string().nullable()).default(['a', null] as unknown as string[]) })).not.toThrow();
  });
});

const MODULE = `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'notes',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  auth: { bearer: {} },
  collections: {
    notes: collection({
      fields: {
        id: f.id(),
        title: f.string().min(1).madeRequiredIn('v2', { fallback: 'untitled' }),
        secret: f.string().writeOnly().madeRequiredIn('v2', { fallback: '' }),
        tags: f.array(f.string().max(10).nullable()).optional(),
        counts: f.array(f.int()).optional(),
        lines: f.array(f.object({ sku: f.string() }).nullable()).optional(),
      },
    }),
  },
});
`;

describe('end to end: generated server, client and OpenAPI', () => {
  let out: string;
  let server: Running;
  beforeAll(async () => {
    const dir = path.join(tmp.dir, 'e2e');
    writeFiles(dir, { 'api.ts': MODULE });
    const result = await generate({ apiPath: path.join(dir, 'api.ts') });
    expect(result.diagnostics).toEqual([]);
    out = result.outDir;
    const mod = await importServer(out);
    server = await start((app) => registerOf(mod, 'Notes')(app, mod.createMemoryHandlers(), { authenticate: () => ({ id: 'u', scopes: [] }) }));
  });
  afterAll(() => server?.close());

  it('a v1 create without the field gets the fallback; v2 requires it', async () => {
    const old = await server.call('POST', '/v1/notes', { body: {} });
    expect(old.status).toBe(201);
    expect(old.body.title).toBe('untitled');
    expect((await server.call('GET', `/v2/notes/${String(old.body.id)}`)).body.title).toBe('untitled');
    const given = await server.call('POST', '/v1/notes', { body: { title: 'mine' } });
    expect(given.body.title).toBe('mine');
    const v2 = await server.call('POST', '/v2/notes', { body: {} });
    expect(v2.status).toBe(400);
    expect(v2.body.errors!.map((e) => e.pointer).sort()).toEqual(['#/secret', '#/title']);
  });
  it('null items are accepted where declared and rejected elsewhere, with a pointer to the item', async () => {
    const body = { title: 't', secret: 's', tags: ['a', null], lines: [{ sku: 'x' }, null] };
    const created = await server.call('POST', '/v2/notes', { body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tags: ['a', null], lines: [{ sku: 'x' }, null] });
    const bad = await server.call('POST', '/v2/notes', { body: { title: 't', secret: 's', counts: [1, null] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors!.map((e) => e.pointer)).toEqual(['#/counts/1']);
    expect((await server.call('POST', '/v2/notes', { body: { title: 't', secret: 's', tags: ['far too long a tag'] } })).status).toBe(400);
  });
  it('zod and OpenAPI carry the nullable items', () => {
    expect(readFileSync(path.join(out, 'v2/notes.ts'), 'utf8')).toContain('z.array(z.string().max(10).nullable())');
    const doc = JSON.parse(readFileSync(path.join(out, 'openapi/v2.json'), 'utf8')) as {
      components: { schemas: Record<string, { properties: Record<string, { items: unknown }> }> };
    };
    const note = doc.components.schemas['Note']!;
    expect(note.properties['tags']!.items).toEqual({ type: ['string', 'null'], maxLength: 10 });
    expect(JSON.stringify(note.properties['counts']!.items)).not.toContain('null');
  });
  it('the generated client and server types say (string | null)[] and compile under strict settings', async () => {
    const usage = `import { createNotesClient } from './client/index.js';
import type { NotesHandlers } from './server/index.js';

const client = createNotesClient({ baseUrl: 'http://127.0.0.1:1', bearer: 't' });
export const ok = () => client.v2.notes.create({ title: 'a', secret: 's', tags: ['a', null], lines: [{ sku: 'x' }, null] });
export const old = () => client.v1.notes.create({});
// @ts-expect-error the items of counts are not nullable
export const bad = () => client.v2.notes.create({ title: 'a', secret: 's', counts: [1, null] });
// @ts-expect-error v2 requires title and secret
export const missing = () => client.v2.notes.create({});
export type Tags = Parameters<NotesHandlers['notes']['create']>[0]['tags'];
export const tags: Tags = ['a', null];
`;
    writeFileSync(path.join(out, 'usage.ts'), usage);
    const tsconfig = {
      compilerOptions: {
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['es2022', 'dom'],
        types: ['node'],
        strict: true,
        noUnusedLocals: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: true,
        noEmit: true,
      },
      include: ['**/*.ts'],
    };
    writeFileSync(path.join(out, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = new URL('../../node_modules/typescript-native/bin/tsc', import.meta.url).pathname;
    const result = await promisify(execFile)(process.execPath, [tsc, '-p', path.join(out, 'tsconfig.json')], { cwd: out }).then(
      () => '',
      (error: { stdout?: string }) => String(error.stdout ?? error),
    );
    expect(result).toBe('');
  }, 120_000);
});
