/**
 * Call-site lines are resolved only when someone reads them. Resolving every builder call's line made
 * loading quadratic in the size of the API (V8 walks the whole `defineApi({...})` expression per lookup),
 * so no stage of a successful run may read one: load, build, check, lock, projection, diff and emit. A
 * line that is read is still the line the call was written on.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticApi } from '../../bench/synthetic.ts';
import { diffApis } from '../../generator/diff/index.ts';
import type { ApiDef, CallSite, CollectionDef } from '../../generator/dsl/defs.ts';
import { compareWithLock } from '../../generator/lock/index.ts';
import { atPath, refOf } from '../../generator/model/diagnostics.ts';
import { project } from '../../generator/model/project.ts';
import { emitAll, loadModel } from '../../generator/pipeline/generate.ts';
import { lineOf, tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('lazy-locations');
afterAll(tmp.cleanup);

/** Every call site recorded in a DSL definition (objects with `file`, `member` and `line`). */
function callSites(value: unknown, found: CallSite[] = [], seen = new Set<unknown>()): CallSite[] {
  if (typeof value !== 'object' || value === null || seen.has(value)) return found;
  seen.add(value);
  if ('file' in value && 'member' in value && 'line' in value) found.push(value as CallSite);
  for (const key of Object.keys(value)) {
    // Reading `line` would resolve it; its descriptor tells without reading.
    if (key === 'line') continue;
    callSites((value as Record<string, unknown>)[key], found, seen);
  }
  return found;
}

const resolved = (site: CallSite): boolean => !Object.getOwnPropertyDescriptor(site, 'line')!.get;

describe('call-site lines', () => {
  it('are not resolved by loading, building, checking, the lock, projection, diff or emit', async () => {
    const api = path.join(tmp.dir, 'synthetic.ts');
    writeFileSync(api, syntheticApi(20));
    const model = await loadModel(api);
    expect(model.diagnostics).toEqual([]);
    const ir = model.ir!;
    const lock = compareWithLock(ir, undefined);
    expect(lock.diagnostics).toEqual([]);
    const [v1, v2, v3] = ir.versions.map((v) => project(ir, v.name));
    expect(diffApis(v1!, v2!).length + diffApis(v2!, v3!).length).toBeGreaterThan(0);
    const files = await emitAll(ir, '../synthetic.ts');
    expect(files.length).toBeGreaterThan(100);
    // Keyed files render when read: read every one, so rendering is part of what is checked.
    expect(files.every((f) => f.content.length > 0)).toBe(true);
    const sites = callSites(model.def);
    // 20 collections x (12 fields with their modifiers and markers + the collection call) at least.
    expect(sites.length).toBeGreaterThan(20 * 13);
    expect(sites.filter(resolved)).toEqual([]);
  });

  it('of a load without call sites are plain data: no ref of the model carries a getter', async () => {
    const api = path.join(tmp.dir, 'without-sites.ts');
    writeFileSync(api, syntheticApi(20));
    const model = await loadModel(api, { callSites: false });
    expect(model.diagnostics).toEqual([]);
    // The IR's refs and the stand-in sites they were made from; a getter per ref would be a closure per field.
    const refs = callSites(model.ir);
    expect(refs.length).toBeGreaterThan(20 * 12);
    expect(refs.filter((ref) => !resolved(ref))).toEqual([]);
    // Copied refs keep their line through a spread, as the getter refs of a load with call sites do.
    const field = model.ir!.collections[0]!.fields[0]!;
    expect({ ...atPath(field.loc, ['x']) }).toEqual({ ...field.loc, path: ['x'] });
  });

  it('read as the line the builder was called on, through the IR and a property path alike', async () => {
    const dir = path.join(tmp.dir, 'lines');
    const source = [
      `import { collection, defineApi, f } from 'restgen';`,
      `export default defineApi({`,
      `  name: 'demo',`,
      `  versions: { v1: {} },`,
      `  collections: {`,
      `    things: collection({ // <- collection`,
      `      fields: {`,
      `        id: f.id(),`,
      `        name: f`,
      `          .string() // <- string`,
      `          .max(20), // <- max`,
      `      },`,
      `    }),`,
      `  },`,
      `});`,
      ``,
    ].join('\n');
    writeFiles(dir, { 'api.ts': source });
    const model = await loadModel(path.join(dir, 'api.ts'));
    // defineApi keeps its options as written, with each collection builder replaced by its plain data.
    const thingsSite = (def: ApiDef) => (def.options as { collections: Record<string, CollectionDef> }).collections['things']!.site!;
    const things = model.ir!.collections[0]!;
    const name = things.fields.find((x) => x.name === 'name')!;
    expect(resolved(thingsSite(model.def!))).toBe(false);
    expect(things.loc.line).toBe(lineOf(source, '<- collection'));
    expect(atPath(things.loc, ['fields']).line).toBe(lineOf(source, '<- collection'));
    expect(name.loc.line).toBe(lineOf(source, '<- string'));
    expect(name.calls['max']!.line).toBe(lineOf(source, '<- max'));
    expect(refOf(undefined, name.loc, ['x'])).toEqual({ file: path.join(dir, 'api.ts'), line: lineOf(source, '<- string'), member: 'string', path: ['x'] });
    // Once read, the line is plain data.
    expect(resolved(thingsSite(model.def!))).toBe(true);
  });
});
