/**
 * The client's output layout: one small module per version and one per collection and version, so that
 * changing a field rewrites (and reformats) only that collection's modules, never a version's.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import type { ApiDef } from '../../generator/dsl/index.ts';
import { emitClient } from '../../generator/emit/client/emit-client.ts';
import type { OutputFile } from '../../generator/emit/types.ts';
import { buildApi } from '../../generator/model/build.ts';
import { checkApi } from '../../generator/model/check.ts';
import { DiagnosticBag } from '../../generator/model/diagnostics.ts';
import type { ApiIR } from '../../generator/model/ir.ts';
import { keyOf } from '../../generator/pipeline/emit.ts';
import { loadRuntime, loadTemplates } from '../../generator/templates/load-templates.ts';
import { loadIr } from '../helpers/load-ir.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';
import { typeCheckClient } from './generate-client.ts';

const { render } = loadTemplates();
const emit = (ir: ApiIR): readonly OutputFile[] => emitClient(ir, { sourcePath: 'api.ts', render, runtime: loadRuntime() });
const tmp = tempDir('client-layout');
afterAll(() => tmp.cleanup());

function irOf(def: ApiDef): ApiIR {
  const bag = new DiagnosticBag();
  const ir = buildApi(def, 'api.ts', bag);
  checkApi(ir, bag);
  expect(bag.items).toEqual([]);
  return ir;
}

/** Two collections over two versions; `noteMax` and `noteType` vary one field of `notes` only. */
function twoCollections(note: 'string' | 'int'): ApiIR {
  return irOf(
    defineApi({
      name: 'layout',
      versions: { v1: { released: '2026-01-01' }, v2: {} },
      collections: {
        notes: collection({
          fields: { id: f.id(), text: f.string(), score: note === 'string' ? f.string().optional().addedIn('v2') : f.int().optional().addedIn('v2') },
        }),
        // No list: its module must not import the runtime (noUnusedLocals).
        tags: collection({ fields: { id: f.id(), label: f.string() }, operations: ['get', 'create'] }),
      },
    }),
  );
}

describe('client layout', () => {
  it('emits one module per version and one per collection in each version', async () => {
    expect(emit(await loadIr()).map((x) => x.path)).toEqual([
      'client/index.ts',
      ...[...loadRuntime().keys()].filter((k) => k.startsWith('client/')).map((k) => k.replace(/^client\//, 'client/runtime/')),
      'client/v1.ts',
      'client/v1/customers.ts',
      'client/v1/orders.ts',
      'client/v1/webhook_endpoints.ts',
      'client/v2.ts',
      'client/v2/customers.ts',
      'client/v2/orders.ts',
      'client/v2/webhook_endpoints.ts',
      'client/v3.ts',
      'client/v3/coupons.ts',
      'client/v3/customers.ts',
      'client/v3/orders.ts',
      'client/v3/webhook_endpoints.ts',
    ]);
  });

  it('rewrites only the changed collection in the versions that have the field', () => {
    const before = new Map(emit(twoCollections('string')).map((x) => [x.path, x.content]));
    const after = emit(twoCollections('int'));
    expect(after.map((x) => x.path)).toEqual([...before.keys()]);
    expect(after.filter((x) => before.get(x.path) !== x.content).map((x) => x.path)).toEqual(['client/v2/notes.ts']);
    const version = after.find((x) => x.path === 'client/v2.ts')!.content;
    expect(version).not.toMatch(/interface Note\b/);
    expect(version).toContain('export type * from "./v2/notes.js";');
  });

  it('generates a version module from names only: a field change leaves its key (renderer and data) and text alone', () => {
    const key = (ir: ApiIR, p: string) => keyOf(emit(ir).find((x) => x.path === p)!);
    expect(key(twoCollections('int'), 'client/v2.ts')).toBe(key(twoCollections('string'), 'client/v2.ts'));
    expect(key(twoCollections('int'), 'client/v2/notes.ts')).not.toBe(key(twoCollections('string'), 'client/v2/notes.ts'));
  });

  it('type-checks standalone, also with a collection that has no list', async () => {
    const files = emit(twoCollections('int'));
    expect(files.find((x) => x.path === 'client/v1/tags.ts')!.content).not.toContain('runtime/index.js');
    writeFiles(tmp.dir, Object.fromEntries(files.map((x) => [x.path, x.content])));
    // Uses the namespace's types, so a slot wired to the wrong collection fails to compile.
    writeFileSync(
      path.join(tmp.dir, 'client/use.ts'),
      [
        `import { createLayoutClient, type V2 } from './index.js';`,
        `const c = createLayoutClient({ baseUrl: 'http://127.0.0.1' });`,
        `export const score: Promise<V2.Note['score']> = c.v2.notes.get('x').then((n) => n.score);`,
        `export const tag: PromiseLike<V2.Tag> = c.v1.tags.create({ label: 'a' });`,
        // A real Promise (issue 29), also under exactOptionalPropertyTypes and browser libraries only.
        `export const note: Promise<V2.Note> = c.v2.notes.get('x');`,
        `export const both: Promise<[V2.Note, V2.NoteList]> = Promise.all([c.v2.notes.get('x'), c.v2.notes.list()]);`,
        `// @ts-expect-error tags offer no list`,
        `void c.v1.tags.list;`,
        `// @ts-expect-error v2's score is a number`,
        `void c.v2.notes.update('x', { score: 'a' });`,
      ].join('\n'),
    );
    expect(await typeCheckClient(tmp.dir)).toBe('');
  });
});
