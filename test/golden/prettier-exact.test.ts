/**
 * restgen writes every file as rendered, without a formatter: each must already be exactly what prettier 3
 * prints with its default options (TypeScript with the `typescript` parser, JSON and Markdown with theirs).
 * Checked on every file of the three examples, of an API with custom events and of the bench's synthetic
 * 200-collection API (its TypeScript; its Markdown at 20 collections, see below).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import * as prettier from 'prettier';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticApi } from '../../bench/synthetic.ts';
import type { FileLanguage, OutputFile } from '../../generator/emit/types.ts';
import { emitAll } from '../../generator/pipeline/generate.ts';
import { loadIr, SHOP_API } from '../helpers/load-ir.ts';
import { tempDir } from '../helpers/temp-api.ts';

const PARSER: { [L in FileLanguage]: string } = { typescript: 'typescript', json: 'json', markdown: 'markdown' };
const HEADER_API = new URL('../../examples/header-versioning/api.ts', import.meta.url).pathname;
/** Date versions with a default, brownouts and docs links (the Link header, UPGRADING.md). */
const LEDGER_API = new URL('../../examples/ledger/api.ts', import.meta.url).pathname;
/** Custom events with payloads per version: `server/events.ts` with zod payloads, the client's `WebhookEvent` with payload types. */
const EVENTS_API = new URL('../webhooks/fixtures/events-api.ts', import.meta.url).pathname;

/** The files whose rendered text prettier would change. */
async function notExact(files: readonly OutputFile[], languages: readonly FileLanguage[]): Promise<string[]> {
  const differ: string[] = [];
  for (const f of files)
    if (languages.includes(f.language) && (await prettier.format(f.content, { parser: PARSER[f.language] })) !== f.content) differ.push(f.path);
  return differ;
}

/**
 * One file of each shape: the synthetic collections `things0` to `things199` are alike but for their number, so
 * their files differ only in the digits of names (`things42`, `Things42Create`, `'things42:read'`). Prettier breaks
 * lines by the text's widths, never by which digits a name holds, so a file whose text equals another's once each
 * such number is replaced by zeros of the same width is printed alike: checking one of them checks both.
 */
function oneOfEachShape(files: readonly OutputFile[]): OutputFile[] {
  const shape = (f: OutputFile) => f.content.replace(/(things)(\d+)/gi, (_, name: string, n: string) => name + '0'.repeat(n.length));
  return [...new Map(files.map((f) => [shape(f), f])).values()];
}

describe('every rendered file is exactly what prettier prints', () => {
  const tmp = tempDir('exact');
  afterAll(tmp.cleanup);

  it.each([SHOP_API, HEADER_API, LEDGER_API, EVENTS_API])('for %s: TypeScript, JSON and Markdown', { timeout: 120_000 }, async (apiPath) => {
    const files = await emitAll(await loadIr(apiPath), '../api.ts');
    expect(files.filter((f) => f.language === 'typescript').length).toBeGreaterThan(20);
    if (apiPath === EVENTS_API) expect(files.find((f) => f.path === 'server/events.ts')?.content).toContain('z.object(');
    expect(await notExact(files, ['typescript', 'json', 'markdown'])).toEqual([]);
  });

  it("for the bench's synthetic API of 200 collections: every shape of TypeScript file", { timeout: 600_000 }, async () => {
    const apiPath = path.join(tmp.dir, 'api.ts');
    writeFileSync(apiPath, syntheticApi(200));
    const files = await emitAll(await loadIr(apiPath), '../api.ts');
    expect(files.filter((f) => f.language === 'typescript').length).toBeGreaterThan(1400);
    const shapes = oneOfEachShape(files);
    // Per collection file, one for each width of its number (things7, things42, things123), and every file of the whole API.
    expect(shapes.length).toBeLessThan(files.length / 5);
    expect(await notExact(shapes, ['typescript'])).toEqual([]);
  });

  // Prettier keeps prose as written (no rewrapping) and lays out each block by its own text, so the changelog and
  // upgrade guide of 200 alike collections hold the same shapes of block as those of 20, repeated: the Markdown of
  // 20 collections checks them in a tenth of the time (the 200-collection CHANGES.md alone is half a megabyte).
  it("for the bench's synthetic API of 20 collections: CHANGES.md and UPGRADING.md", { timeout: 120_000 }, async () => {
    const apiPath = path.join(tmp.dir, 'api20.ts');
    writeFileSync(apiPath, syntheticApi(20));
    const files = await emitAll(await loadIr(apiPath), '../api.ts');
    const markdown = files.filter((f) => f.language === 'markdown');
    expect(markdown.map((f) => f.path)).toEqual(expect.arrayContaining(['CHANGES.md', 'UPGRADING.md']));
    expect(await notExact(markdown, ['markdown'])).toEqual([]);
  });
});
