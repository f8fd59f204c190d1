/**
 * `generate` loads the API without call sites when there is nothing to report (capturing a stack frame per
 * builder call is a large part of loading an API). The model must not differ in anything but where it was
 * written: the same IR, the same modifiers called on every field and collection, the same diagnostics once
 * it is loaded again with call sites.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticApi } from '../../bench/synthetic.ts';
import type { ApiIR } from '../../generator/model/ir.ts';
import { loadModel } from '../../generator/pipeline/generate.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('without-call-sites');
afterAll(tmp.cleanup);

/** The model as JSON without where the DSL was written (`loc`, `calls`): what is generated from it. */
const withoutLocations = (ir: ApiIR): unknown =>
  JSON.parse(JSON.stringify(ir, (key, value: unknown) => (key === 'loc' || key === 'calls' ? undefined : value)));

/** Which members were called on every collection and field, by path: the model reads modifiers from them. */
function calledMembers(ir: ApiIR): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const walk = (at: string, value: unknown): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(`${at}[${i}]`, v));
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) {
        if (k === 'calls' && v && typeof v === 'object') out[at] = Object.keys(v).sort();
        else if (k !== 'loc') walk(`${at}.${k}`, v);
      }
  };
  walk('api', ir);
  return out;
}

describe('loading an API without call sites', () => {
  const apis = {
    shop: path.resolve('examples/shop/api.ts'),
    'header-versioning': path.resolve('examples/header-versioning/api.ts'),
    ledger: path.resolve('examples/ledger/api.ts'),
    synthetic: path.join(tmp.dir, 'synthetic', 'api.ts'),
  };
  writeFiles(path.dirname(apis.synthetic), { 'api.ts': syntheticApi(20) });

  for (const [name, apiPath] of Object.entries(apis))
    it(`builds the same model as with them (${name})`, async () => {
      const withSites = await loadModel(apiPath);
      const without = await loadModel(apiPath, { callSites: false });
      expect(without.diagnostics).toEqual([]);
      expect(withSites.diagnostics).toEqual([]);
      expect(withoutLocations(without.ir!)).toEqual(withoutLocations(withSites.ir!));
      expect(calledMembers(without.ir!)).toEqual(calledMembers(withSites.ir!));
      // Without them, no ref names a line of the module.
      expect(without.ir!.collections[0]!.loc.line).not.toBeGreaterThan(1);
      expect(withSites.ir!.collections[0]!.loc.line).toBeGreaterThan(1);
    });

  it('reports the same diagnostics, at their lines, through generate', async () => {
    const dir = path.join(tmp.dir, 'broken');
    writeFiles(dir, {
      'api.ts': `import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'notes',
  versions: { v1: {} },
  collections: {
    notes: collection({ fields: { id: f.id(), title: f.string().min(10).max(5) } }),
  },
});
`,
    });
    const { generate } = await import('../../generator/pipeline/generate.ts');
    const result = await generate({ apiPath: path.join(dir, 'api.ts') });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.length).toBeGreaterThan(0);
    expect(result.diagnostics.map((d) => [d.loc?.file, d.loc?.line])).toEqual(result.diagnostics.map(() => [path.join(dir, 'api.ts'), 6]));
    expect(result.diagnostics).toEqual((await loadModel(path.join(dir, 'api.ts'))).diagnostics);
  });
});
