/**
 * The server's output layout: one module per collection, assembled by `routes.ts`, `types.ts` and
 * `index.ts`, which only name collections. Changing a field rewrites (and reformats) only that collection's
 * module.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import type { ApiDef } from '../../generator/dsl/index.ts';
import { emitServer } from '../../generator/emit/server/emit-server.ts';
import type { OutputFile } from '../../generator/emit/types.ts';
import { buildApi } from '../../generator/model/build.ts';
import { checkApi } from '../../generator/model/check.ts';
import { DiagnosticBag } from '../../generator/model/diagnostics.ts';
import type { ApiIR } from '../../generator/model/ir.ts';
import { loadRuntime, loadTemplates } from '../../generator/templates/load-templates.ts';
import { loadIr } from '../helpers/load-ir.ts';
import { HEADER_API, generateInto } from './helpers.ts';

const { render } = loadTemplates();
const emit = (ir: ApiIR): readonly OutputFile[] => emitServer(ir, { sourcePath: 'api.ts', render, runtime: loadRuntime() });

function irOf(def: ApiDef): ApiIR {
  const bag = new DiagnosticBag();
  const ir = buildApi(def, 'api.ts', bag);
  checkApi(ir, bag);
  expect(bag.items).toEqual([]);
  return ir;
}

/** Two collections over two versions; the variants change one field of `notes`. */
function twoCollections(variant: 'plain' | 'renamed' | 'readOnly'): ApiIR {
  const text = variant === 'renamed' ? f.string().renamedFrom('body', 'v2') : variant === 'readOnly' ? f.string().readOnly() : f.string();
  return irOf(
    defineApi({
      name: 'layout',
      versions: { v1: { released: '2026-01-01' }, v2: {} },
      collections: {
        notes: collection({ fields: { id: f.id(), text, score: f.int().optional().addedIn('v2') } }),
        tags: collection({ fields: { id: f.id(), label: f.string() }, operations: ['get', 'create'] }),
      },
    }),
  );
}

function changed(a: readonly OutputFile[], b: readonly OutputFile[]): string[] {
  const before = new Map(a.map((x) => [x.path, x.content]));
  expect(b.map((x) => x.path)).toEqual([...before.keys()]);
  return b.filter((x) => before.get(x.path) !== x.content).map((x) => x.path);
}

describe('server layout', () => {
  it('emits one module per collection beside the shared ones, and imports the runtime from its package', async () => {
    const files = emit(await loadIr());
    expect(files.map((x) => x.path)).toEqual([
      'server/index.ts',
      'server/routes.ts',
      'server/types.ts',
      'server/events.ts',
      'server/collections/customers.ts',
      'server/collections/orders.ts',
      'server/collections/coupons.ts',
      'server/collections/webhook_endpoints.ts',
    ]);
    // Nothing of restgen's own code is generated: every file reaches the runtime through the package.
    for (const file of files) expect(file.content, file.path).not.toMatch(/from "\.{1,2}\/runtime\//);
    expect(files.find((x) => x.path === 'server/routes.ts')!.content).toContain('contract: 3,');
  });

  it("rewrites only the changed collection's module, whether the change reaches its routes or its store", () => {
    const plain = emit(twoCollections('plain'));
    const renamed = emit(twoCollections('renamed'));
    const readOnly = emit(twoCollections('readOnly'));
    expect(changed(plain, renamed)).toEqual(['server/collections/notes.ts']);
    expect(changed(plain, readOnly)).toEqual(['server/collections/notes.ts']);
    expect(renamed.find((x) => x.path === 'server/collections/notes.ts')!.content).toContain('up: { renames: { body: "text" } }');
    expect(readOnly.find((x) => x.path === 'server/collections/notes.ts')!.content).toContain('readOnly: ["id", "text"]');
    const routes = plain.find((x) => x.path === 'server/routes.ts')!.content;
    expect(routes).not.toContain('text');
    expect(routes).toContain('collections: [$notes, $tags]');
    expect(routes).not.toContain('routes:');
  });

  it('lists in down plans only fields the response schema has, and no plain copies', async () => {
    for (const [name, apiPath] of [
      ['layout-shop', undefined],
      ['layout-header', HEADER_API],
    ] as const) {
      const dir = await generateInto(name, apiPath);
      const mod = (await import(path.join(dir, 'server/routes.ts'))) as Record<
        string,
        { collections: { path: string; versions: Record<string, { schemas: { response: { shape: object } }; down?: Record<string, { key?: string }> }> }[] }
      >;
      const spec = Object.values(mod)[0]!;
      let steps = 0;
      for (const route of spec.collections.flatMap((c) => Object.values(c.versions).map((v) => ({ path: c.path, ...v })))) {
        const keys = Object.keys(route.schemas.response.shape);
        // A version whose fields are all copies writes no down plan.
        expect(route.down, route.path).not.toEqual({});
        for (const [field, step] of Object.entries(route.down ?? {})) {
          expect(keys, `${route.path}.${field}`).toContain(field);
          expect(step).not.toEqual({ key: field });
          steps++;
        }
      }
      expect(steps).toBeGreaterThan(0);
    }
  });

  it('keeps every generated server module under 400 lines (formatted)', async () => {
    const dir = await generateInto('layout-shop');
    const files = readdirSync(path.join(dir, 'server'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(7);
    const long = files.filter((f) => readFileSync(path.join(dir, 'server', f), 'utf8').split('\n').length > 400);
    expect(long).toEqual([]);
  });
});
