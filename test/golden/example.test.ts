/**
 * Golden files: the example's committed output (`examples/shop/generated/`) must be exactly what restgen
 * generates now. A missing, changed or extra file fails. `UPDATE_GOLDEN=1 npx vitest run test/golden`
 * rewrites them.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { afterAll, describe, expect, it } from 'vitest';
import { emitAll, generate } from '../../generator/pipeline/generate.ts';
import { loadIr, SHOP_API } from '../helpers/load-ir.ts';

const GOLDEN = path.join(path.dirname(SHOP_API), 'generated');
// Same depth as the golden folder, so the headers' relative path to api.ts is the same.
const fresh = mkdtempSync(path.join(path.dirname(SHOP_API), '.golden-'));
afterAll(() => rmSync(fresh, { recursive: true, force: true }));

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

describe('golden files of examples/shop', () => {
  it('are exactly what restgen generates', async () => {
    if (process.env.UPDATE_GOLDEN === '1') {
      const updated = await generate({ apiPath: SHOP_API, outDir: GOLDEN });
      expect(updated.ok).toBe(true);
    }
    const result = await generate({ apiPath: SHOP_API, outDir: fresh });
    expect(result.diagnostics).toEqual([]);
    const expected = listFiles(fresh);
    const committed = listFiles(GOLDEN);
    expect(committed, 'missing or extra golden files (run with UPDATE_GOLDEN=1)').toEqual(expected);
    const changed = expected.filter((f) => readFileSync(path.join(fresh, f), 'utf8') !== readFileSync(path.join(GOLDEN, f), 'utf8'));
    expect(changed, 'golden files out of date (run with UPDATE_GOLDEN=1)').toEqual([]);
  });

  it('are formatted by babel-ts exactly as by prettier\'s default typescript parser', async () => {
    // Compared on the unformatted emitter output: prettier is not always idempotent on its own output.
    const ir = (await generate({ apiPath: SHOP_API, outDir: fresh })).ir ?? (await loadIr());
    const files = await emitAll(ir, '../api.ts');
    const differing: string[] = [];
    for (const f of files.filter((x) => x.language === 'typescript'))
      if ((await prettier.format(f.content, { parser: 'typescript' })) !== (await prettier.format(f.content, { parser: 'babel-ts' })))
        differing.push(f.path);
    expect(files.length).toBeGreaterThan(10);
    expect(differing).toEqual([]);
  });

  it('regenerates to identical bytes, writing nothing', async () => {
    const again = await generate({ apiPath: SHOP_API, outDir: fresh });
    expect(again.written).toEqual([]);
    expect(again.formatted).toBe(0);
  });
});
