/**
 * The up-to-date proof answers from the last run's record by file stamps: an unchanged project is confirmed without
 * reading a single output file and without asking the formatter, while every kind of change is still found (edits
 * that keep the size and put the modification time back, touched files, new or changed prettier configuration, a
 * changed restgen or template override).
 */
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createPrettierFormatter, type Formatter } from '../../generator/format/formatter.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { stampOf, treeStamp, trusted } from '../../generator/pipeline/stamps.ts';
import { filesRead } from '../helpers/fs-reads.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('run-cache');
afterAll(tmp.cleanup);

const API = `import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'notes',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  collections: { notes: collection({ fields: { id: f.id(), title: f.string().max(100), body: f.string().max(10).optional().addedIn('v2') } }) },
});
`;

/** A prettier formatter that counts how often it is asked for settings. */
function countingFormatter(): Formatter & { asked: number } {
  const inner = createPrettierFormatter();
  const counting = {
    asked: 0,
    refresh: () => inner.refresh(),
    format: inner.format.bind(inner),
    configFiles: inner.configFiles.bind(inner),
    settingsKey: (abs: string, language: Parameters<Formatter['settingsKey']>[1]) => {
      counting.asked++;
      return inner.settingsKey(abs, language);
    },
  };
  return counting;
}

/** Records every file under `dir` that is read (whole or its first bytes) while `run` runs, relative to `dir`. */
async function readsUnder<T>(dir: string, run: () => Promise<T>): Promise<{ result: T; reads: string[] }> {
  const { result, reads } = await filesRead((file) => file.startsWith(dir), run);
  return { result, reads: reads.map((file) => path.relative(dir, file)) };
}

function project(name: string): { dir: string; out: string; api: string } {
  const dir = path.join(tmp.dir, name);
  writeFiles(dir, { 'api.ts': API });
  return { dir, out: path.join(dir, 'generated'), api: path.join(dir, 'api.ts') };
}

/** Waits past the file system's clock tick, so that stamps taken now are older than the next record. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

/**
 * Generates, then lets the record settle: a file written in the same clock tick as the record cannot be vouched for
 * by its stamp (a change in that tick would keep it), so the next run reads it once and records it anew (as git does
 * with "racily clean" files). After that, no output needs to be read.
 */
async function generated(p: { api: string }): Promise<void> {
  expect((await generate({ apiPath: p.api })).written.length).toBeGreaterThan(10);
  await tick();
  expect(await generate({ apiPath: p.api, mode: 'check' })).toMatchObject({ ok: true, cached: true });
  await tick();
}

afterEach(() => vi.restoreAllMocks());

describe('the up-to-date cache', () => {
  it('confirms an unchanged project without reading any output file or asking the formatter', async () => {
    const p = project('unchanged');
    await generated(p);
    const formatter = countingFormatter();
    const { result, reads } = await readsUnder(p.out, () => generate({ apiPath: p.api, mode: 'check', formatter }));
    expect(result).toMatchObject({ ok: true, cached: true, stale: [] });
    expect(reads).toEqual([]);
    expect(formatter.asked).toBe(0);
  });

  it('finds an edit that keeps the size and puts the modification time back', async () => {
    const p = project('same-size');
    await generate({ apiPath: p.api });
    await tick();
    const file = path.join(p.out, 'v1/notes.ts');
    const before = statSync(file);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('max(100)', 'max(999)'));
    utimesSync(file, before.atime, before.mtime);
    expect(statSync(file).size).toBe(before.size);
    const result = await generate({ apiPath: p.api, mode: 'check' });
    expect(result).toMatchObject({ ok: false, cached: false, stale: ['v1/notes.ts'] });
  });

  it('reads a touched but unchanged file once, then trusts its new stamp', async () => {
    const p = project('touched');
    await generated(p);
    const file = path.join(p.out, 'v2/notes.ts');
    const earlier = new Date(Date.now() - 5000);
    utimesSync(file, earlier, earlier);
    await tick();
    const first = await readsUnder(p.out, () => generate({ apiPath: p.api, mode: 'check' }));
    expect(first.result).toMatchObject({ ok: true, cached: true });
    expect(first.reads).toEqual(['v2/notes.ts']);
    await tick();
    const second = await readsUnder(p.out, () => generate({ apiPath: p.api, mode: 'check' }));
    expect(second.result).toMatchObject({ ok: true, cached: true });
    expect(second.reads).toEqual([]);
  });

  it('notices a prettier configuration that appears, and asks prettier each time one is a module', async () => {
    const p = project('prettier-config');
    await generate({ apiPath: p.api });
    await tick();
    writeFiles(p.dir, { '.prettierrc.json': '{ "singleQuote": true }\n' });
    expect(await generate({ apiPath: p.api, mode: 'check' })).toMatchObject({ ok: false, cached: false });
    await generate({ apiPath: p.api });
    expect(readFileSync(path.join(p.out, 'v1/notes.ts'), 'utf8')).toContain("from 'zod'");
    await tick();
    const json = countingFormatter();
    expect(await generate({ apiPath: p.api, mode: 'check', formatter: json })).toMatchObject({ ok: true, cached: true });
    expect(json.asked).toBe(0);
    // A module configuration can change through what it imports: no shortcut, prettier decides.
    writeFiles(p.dir, { 'prettier.config.mjs': 'export default { singleQuote: true };\n' });
    await generate({ apiPath: p.api });
    await tick();
    const module = countingFormatter();
    expect(await generate({ apiPath: p.api, mode: 'check', formatter: module })).toMatchObject({ ok: true, cached: true });
    expect(module.asked).toBeGreaterThan(0);
  });

  it('finds a changed input module even when its size is unchanged', async () => {
    const p = project('input');
    await generate({ apiPath: p.api });
    await tick();
    writeFileSync(p.api, API.replace('max(10)', 'max(20)'));
    const result = await generate({ apiPath: p.api, mode: 'check' });
    expect(result).toMatchObject({ ok: false, cached: false });
    expect(result.stale).toContain('v2/notes.ts');
  });
});

describe('a run after a change', () => {
  it('reads none of the outputs the previous run recorded and nobody touched since', async () => {
    const p = project('one-change');
    await generated(p);
    writeFileSync(p.api, API.replace('max(10)', 'max(20)'));
    const { result, reads } = await readsUnder(p.out, () => generate({ apiPath: p.api }));
    expect(result.written).toContain('v2/notes.ts');
    expect(result.written).not.toContain('v1/notes.ts');
    // Only what is rewritten may be read (to compare with what is there).
    expect(reads.filter((r) => !result.written.includes(r))).toEqual([]);
    expect(await generate({ apiPath: p.api, mode: 'check' })).toMatchObject({ ok: true, cached: true });
  });
});

describe('a tree stamp (restgen itself, template overrides)', () => {
  it('changes when a file below changes, appears or goes, and knows the newest time', async () => {
    const root = path.join(tmp.dir, 'tree');
    writeFiles(root, { 'templates/zod/schemas.hbs': 'x\n', 'runtime/client/errors.ts': 'export {};\n' });
    const dirs = ['templates', 'runtime', 'dist'].map((d) => path.join(root, d));
    const first = treeStamp(dirs);
    expect(treeStamp(dirs).stamp).toBe(first.stamp);
    await tick();
    writeFiles(root, { 'runtime/client/errors.ts': 'export { }; \n' });
    const edited = treeStamp(dirs);
    expect(edited.stamp).not.toBe(first.stamp);
    expect(edited.newest).toBeGreaterThan(first.newest);
    mkdirSync(path.join(root, 'dist'));
    writeFileSync(path.join(root, 'dist/cli.js'), 'export {};\n');
    expect(treeStamp(dirs).stamp).toContain('cli.js');
  });

  it('of a template override is part of the proof: an edited override renders again', async () => {
    const p = project('override');
    const original = readFileSync(new URL('../../templates/zod/schemas.hbs', import.meta.url), 'utf8');
    writeFiles(p.dir, { 'tpl/zod/schemas.hbs': `// one\n${original}` });
    const templatesDir = path.join(p.dir, 'tpl');
    await generate({ apiPath: p.api, templatesDir });
    await tick();
    expect(await generate({ apiPath: p.api, templatesDir, mode: 'check' })).toMatchObject({ ok: true, cached: true });
    writeFiles(p.dir, { 'tpl/zod/schemas.hbs': `// two\n${original}` });
    expect(await generate({ apiPath: p.api, templatesDir, mode: 'check' })).toMatchObject({
      ok: false,
      cached: false,
      stale: ['v1/schemas.ts', 'v2/schemas.ts'],
    });
  });
});

describe('file stamps', () => {
  it('are trusted only when equal and older than the record (a change in the same clock tick may hide)', () => {
    const file = path.join(tmp.dir, 'stamped.txt');
    writeFileSync(file, 'a');
    const stamp = stampOf(file)!;
    const { mtimeNs, ctimeNs } = statSync(file, { bigint: true });
    // biome-ignore lint/complexity/useMathMinMax: bigints; Math.max takes numbers
    const changed = mtimeNs > ctimeNs ? mtimeNs : ctimeNs;
    expect(trusted(stamp, stampOf(file), changed + 1n)).toBe(true);
    expect(trusted(stamp, stampOf(file), changed)).toBe(false);
    expect(trusted(stamp, undefined, changed + 1n)).toBe(false);
    writeFileSync(file, 'bb');
    expect(trusted(stamp, stampOf(file), changed + 10n ** 12n)).toBe(false);
  });
});
