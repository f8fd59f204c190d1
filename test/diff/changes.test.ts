/**
 * CHANGES.md: a golden file for the example (`UPDATE_GOLDEN=1` rewrites it), and the shape of the report
 * for reviewers: a summary table per pair of versions, findings grouped by collection with routes and
 * client methods.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import { emitChanges } from '../../generator/emit/changes/emit-changes.ts';
import { loadTemplates } from '../../generator/templates/load-templates.ts';
import { loadIr } from '../helpers/load-ir.ts';
import { createSyntheticApi } from '../../bench/diff.ts';
import { irOf } from './helpers.ts';

const GOLDEN = new URL('./golden/shop-CHANGES.md', import.meta.url).pathname;
const { render } = loadTemplates();

describe('CHANGES.md', () => {
  it('of the example matches its golden file', async () => {
    const files = emitChanges(await loadIr(), { sourcePath: '../api.ts', render });
    expect(files.map((x) => [x.path, x.language])).toEqual([
      ['CHANGES.md', 'markdown'],
      ['UPGRADING.md', 'markdown'],
    ]);
    const text = await prettier.format(files[0]!.content, { parser: 'markdown' });
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, text);
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
    expect(text).toContain('## v1 → v2');
    expect(text).toContain('| breaking | warning | safe |');
    expect(text).toContain('### orders');
    expect(text).toMatch(/\*\*breaking\*\* `orders\.quantity`: orders\.qty was renamed to quantity \(`field-renamed`/);
    expect(text).toContain('Client: `v2.orders.list`');
    expect(text).toContain('MCP tools: `orders_list`');
  });
  it('leaves the emitter exactly as prettier formats it (so the writer may skip prettier)', async () => {
    const single = irOf(
      defineApi({ name: 'one', versions: { v1: { released: '2026-01-01' } }, collections: { items: collection({ fields: { id: f.id() } }) } }),
    );
    for (const ir of [await loadIr(), createSyntheticApi(20), single]) {
      const [file] = emitChanges(ir, { sourcePath: '../api.ts', render });
      expect(file!.preformatted).toBe(true);
      expect(await prettier.format(file!.content, { parser: 'markdown' })).toBe(file!.content);
    }
  });

  it('is the same for the same API (no clock, no ordering by hash)', async () => {
    const ir = await loadIr();
    const text = () => emitChanges(ir, { sourcePath: '../api.ts', render }).map((f) => [f.path, f.content]);
    expect(text()).toEqual(text());
  });
  it('escapes Markdown in messages and says when there is nothing to compare', () => {
    const single = irOf(defineApi({ name: 'one', versions: { v1: {} }, collections: { items: collection({ fields: { id: f.id() } }) } }));
    expect(emitChanges(single, { sourcePath: 'api.ts', render })[0]!.content).toContain('There is only one version');
    const patterned = irOf(
      defineApi({
        name: 'two',
        versions: { v1: {}, v2: {} },
        collections: {
          items: collection({
            fields: {
              id: f.id(),
              code: f
                .string()
                .pattern(/^a*_b$/)
                .typeChangedFrom('v2', f.string()),
            },
          }),
        },
      }),
    );
    const content = emitChanges(patterned, { sourcePath: 'api.ts', render })[0]!.content;
    expect(content).toContain('pattern /^a\\*\\_b$/ added');
  });
});
