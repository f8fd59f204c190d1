/**
 * Golden files: each example's committed output (`examples/<name>/generated/`) must be exactly what
 * restgen generates now. A missing, changed or extra file fails. `UPDATE_GOLDEN=1 npx vitest run test/golden`
 * (or `npm run example`) rewrites them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { afterAll, describe, expect, it } from 'vitest';
import { emitAll, generate } from '../../generator/pipeline/generate.ts';
import { loadIr, SHOP_API } from '../helpers/load-ir.ts';
import { listFiles } from '../helpers/temp-api.ts';

const EXAMPLES = [SHOP_API, ...['header-versioning', 'ledger'].map((name) => new URL(`../../examples/${name}/api.ts`, import.meta.url).pathname)];
const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((c) => c()));

describe.each(EXAMPLES)('golden files of %s', (apiPath) => {
  const golden = path.join(path.dirname(apiPath), 'generated');
  // Same depth as the golden folder, so the headers' relative path to api.ts is the same.
  const fresh = mkdtempSync(path.join(path.dirname(apiPath), '.golden-'));
  cleanups.push(() => rmSync(fresh, { recursive: true, force: true }));

  it('are exactly what restgen generates', async () => {
    if (process.env.UPDATE_GOLDEN === '1') expect((await generate({ apiPath, outDir: golden })).ok).toBe(true);
    const result = await generate({ apiPath, outDir: fresh });
    expect(result.diagnostics).toEqual([]);
    const expected = listFiles(fresh);
    expect(listFiles(golden), 'missing or extra golden files (run with UPDATE_GOLDEN=1)').toEqual(expected);
    // Byte for byte, headers included: nothing in them depends on which restgen build wrote them.
    const read = (dir: string, f: string) => readFileSync(path.join(dir, f), 'utf8');
    const changed = expected.filter((f) => read(fresh, f) !== read(golden, f));
    expect(changed, 'golden files out of date (run with UPDATE_GOLDEN=1)').toEqual([]);
  });

  // Every file is exactly what prettier's default typescript parser prints (test/golden/prettier-exact.test.ts), so
  // printing it with babel-ts must leave it as it is too: a project formatting with either parser sees no change.
  it('are exactly what prettier prints with the babel-ts parser as well', { timeout: 120_000 }, async () => {
    const files = await emitAll(await loadIr(apiPath), '../api.ts');
    const differing: string[] = [];
    for (const f of files.filter((x) => x.language === 'typescript'))
      if ((await prettier.format(f.content, { parser: 'babel-ts' })) !== f.content) differing.push(f.path);
    expect(files.length).toBeGreaterThan(10);
    expect(differing).toEqual([]);
  });

  it('regenerate to identical bytes, writing nothing', async () => {
    await generate({ apiPath, outDir: fresh });
    const again = await generate({ apiPath, outDir: fresh });
    expect(again.written).toEqual([]);
    expect(again.formatted).toBe(0);
  });
});
