/**
 * The up-to-date cache answers from file stamps: an unchanged project is confirmed without reading a single
 * output file and without asking the formatter, while every kind of change is still found (edits that keep
 * the size and put the modification time back, touched files, new or changed prettier configuration, a
 * changed restgen in either layout).
 */
import { mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createPrettierFormatter, type Formatter } from '../../generator/format/formatter.ts';
import { stampOf, trusted } from '../../generator/pipeline/file-stamp.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { restgenStamp } from '../../generator/pipeline/run-cache.ts';
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

afterEach(() => vi.restoreAllMocks());

describe('the up-to-date cache', () => {
  it('confirms an unchanged project without reading any output file or asking the formatter', async () => {
    const p = project('unchanged');
    expect((await generate({ apiPath: p.api })).written.length).toBeGreaterThan(10);
    await tick();
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
    await generate({ apiPath: p.api });
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
    await generate({ apiPath: p.api });
    await tick();
    writeFileSync(p.api, API.replace('max(10)', 'max(20)'));
    const { result, reads } = await readsUnder(p.out, () => generate({ apiPath: p.api }));
    expect(result.written).toContain('v2/notes.ts');
    expect(result.written).not.toContain('v1/notes.ts');
    // Only what is rewritten may be read (to compare with what is there).
    expect(reads.filter((r) => !result.written.includes(r))).toEqual([]);
    expect(await generate({ apiPath: p.api, mode: 'check' })).toMatchObject({ ok: true, cached: true });
  });
});

describe("restgen's own stamp", () => {
  it('covers a packed install (dist, templates, runtime) as well as the sources', async () => {
    const root = path.join(tmp.dir, 'packed');
    writeFiles(root, { 'package.json': '{ "name": "restgen", "version": "1.0.0" }\n', 'dist/cli.js': 'export {};\n', 'templates/zod/schemas.hbs': 'x\n' });
    const first = restgenStamp(root);
    expect(restgenStamp(root).stamp).toBe(first.stamp);
    await tick();
    writeFiles(root, { 'runtime/client/errors.ts': 'export {};\n' });
    const withRuntime = restgenStamp(root);
    expect(withRuntime.stamp).not.toBe(first.stamp);
    await tick();
    writeFiles(root, { 'dist/cli.js': 'export {}; \n' });
    expect(restgenStamp(root).stamp).not.toBe(withRuntime.stamp);
    expect(restgenStamp(root).newest).toBeGreaterThan(withRuntime.newest);
    // The sources' layout: generator/ is part of it too.
    mkdirSync(path.join(root, 'generator'));
    writeFileSync(path.join(root, 'generator/index.ts'), 'export {};\n');
    expect(restgenStamp(root).stamp).toContain('generator\0index.ts');
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
