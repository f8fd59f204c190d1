/**
 * The inputs record (`restgen-inputs.json`): in a fresh clone, with no run cache (CI right after `npm ci`),
 * `check` and `generate` answer "up to date" from the committed record without loading the API, the same in
 * any folder; and every change that could make the outputs wrong (the API, the lock, an output edited,
 * missing or left over, the record itself, the parts, the formatter settings) still gets a full run that
 * finds it.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline/generate.ts';
import { INPUTS_FILE } from '../../generator/pipeline/inputs-record.ts';
import { cacheFile } from '../../generator/pipeline/run-cache.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('inputs-record');
afterAll(tmp.cleanup);

// Counts its own evaluations: a run answered from the record never loads the API.
const API = `import { collection, defineApi, f } from 'restgen';
import { body, title } from './fields.ts';
(globalThis as { apiLoads?: number }).apiLoads = ((globalThis as { apiLoads?: number }).apiLoads ?? 0) + 1;
export default defineApi({
  name: 'notes',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  collections: { notes: collection({ fields: { id: f.id(), title, body: body.optional().addedIn('v2') } }) },
});
`;
const FIELDS = `import { f } from 'restgen';\nexport const title = f.string().max(100);\nexport const body = f.string().max(10);\n`;

const loads = (): number => (globalThis as { apiLoads?: number }).apiLoads ?? 0;

interface Project {
  readonly dir: string;
  readonly out: string;
  readonly api: string;
}

function project(name: string): Project {
  const dir = path.join(tmp.dir, name);
  writeFiles(dir, { 'api.ts': API, 'fields.ts': FIELDS });
  return { dir, out: path.join(dir, 'generated'), api: path.join(dir, 'api.ts') };
}

/** What a fresh clone lacks: restgen's caches for this project. */
function dropCaches(p: Project): void {
  for (const kind of ['', '.render']) rmSync(cacheFile(p.api, p.out, undefined, kind), { force: true });
}

/** A project generated, as committed, then cloned into a new folder (no cache comes with a clone). */
async function clone(name: string): Promise<Project> {
  const source = project(`${name}-source`);
  expect((await generate({ apiPath: source.api })).ok).toBe(true);
  const copy = { dir: path.join(tmp.dir, name), out: path.join(tmp.dir, name, 'generated'), api: path.join(tmp.dir, name, 'api.ts') };
  cpSync(source.dir, copy.dir, { recursive: true });
  dropCaches(copy);
  return copy;
}

describe('the inputs record', () => {
  it('lists what the outputs came from, by content and relative path, the same in every folder', async () => {
    const a = project('same-a');
    const b = project('same-b');
    await generate({ apiPath: a.api });
    await generate({ apiPath: b.api });
    const text = readFileSync(path.join(a.out, INPUTS_FILE), 'utf8');
    expect(readFileSync(path.join(b.out, INPUTS_FILE), 'utf8')).toBe(text);
    const record = JSON.parse(text) as { parts: string; inputs: Record<string, string>; settings: Record<string, string> };
    // restgen's own files are its identity's: only the user's files are listed.
    expect(Object.keys(record.inputs)).toEqual(['../api.ts', '../fields.ts', '../restgen.lock.json']);
    expect(record.parts).toBe('zod client openapi server mcp changes');
    expect(record.settings['v1:typescript']).toBe('defaults');
  });

  it('answers check and generate in a fresh clone without loading the API', async () => {
    const p = await clone('fresh');
    const before = loads();
    expect(existsSync(cacheFile(p.api, p.out, undefined))).toBe(false);
    expect(await generate({ apiPath: p.api, mode: 'check' })).toMatchObject({ ok: true, cached: true, stale: [] });
    // What the record proved is kept as the run cache's record: the next run need not read the outputs again.
    const kept = JSON.parse(readFileSync(cacheFile(p.api, p.out, undefined), 'utf8')) as { outputs: Record<string, { input: string }> };
    expect(Object.keys(kept.outputs)).toContain('v1/notes.ts');
    expect(Object.keys(kept.outputs)).toContain(INPUTS_FILE);
    const written = await generate({ apiPath: p.api });
    expect(written).toMatchObject({ ok: true, cached: true, written: [] });
    expect(written.files).toContain(INPUTS_FILE);
    expect(written.files).toContain('v1/notes.ts');
    expect(loads()).toBe(before);
  });

  it('lets a changed input through to a full check, which finds the stale outputs', async () => {
    const p = await clone('changed-input');
    // v2 is not released: the lock has nothing to say, the outputs are stale.
    writeFileSync(path.join(p.dir, 'fields.ts'), FIELDS.replace('max(10)', 'max(12)'));
    const before = loads();
    const result = await generate({ apiPath: p.api, mode: 'check' });
    expect(result).toMatchObject({ ok: false, cached: false });
    expect(result.stale).toContain('v2/notes.ts');
    // The record is behind too, but it is no output anyone reads: it is refreshed by the next generate.
    expect(result.stale).not.toContain(INPUTS_FILE);
    expect(loads()).toBeGreaterThan(before);
  });

  it('lets a changed lock through to a full check', async () => {
    const p = await clone('changed-lock');
    const lock = path.join(p.dir, 'restgen.lock.json');
    writeFileSync(lock, readFileSync(lock, 'utf8').replace('\n}', ',\n  "extra": true\n}'));
    expect(await generate({ apiPath: p.api, mode: 'check' })).toMatchObject({ cached: false });
  });

  it('finds an output edited, removed or left over, and an edited record', async () => {
    const edited = await clone('edited');
    const file = path.join(edited.out, 'v1/notes.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace('max(100)', 'max(999)'));
    expect(await generate({ apiPath: edited.api, mode: 'check' })).toMatchObject({
      ok: false,
      cached: false,
      stale: ['v1/notes.ts'],
      staleReasons: { 'v1/notes.ts': 'edited' },
    });

    const missing = await clone('missing');
    rmSync(path.join(missing.out, 'v2/notes.ts'));
    expect(await generate({ apiPath: missing.api, mode: 'check' })).toMatchObject({ ok: false, cached: false, stale: ['v2/notes.ts'] });

    const extra = await clone('extra');
    cpSync(path.join(extra.out, 'v1/notes.ts'), path.join(extra.out, 'v1/old.ts'));
    expect(await generate({ apiPath: extra.api, mode: 'check' })).toMatchObject({
      ok: false,
      cached: false,
      stale: ['v1/old.ts'],
      staleReasons: { 'v1/old.ts': 'removed' },
    });

    // An edited record is not trusted: the full check finds the outputs right, and generate rewrites the record.
    const record = await clone('record');
    const at = path.join(record.out, INPUTS_FILE);
    const text = readFileSync(at, 'utf8');
    writeFileSync(at, text.replace('"../api.ts": "', '"../api.ts": "0'));
    expect(await generate({ apiPath: record.api, mode: 'check' })).toMatchObject({ ok: true, cached: false, stale: [] });
    expect(await generate({ apiPath: record.api })).toMatchObject({ ok: true, written: [INPUTS_FILE] });
    expect(readFileSync(at, 'utf8')).toBe(text);
  });

  it('is behind after a change no output shows (a comment): check passes, generate refreshes the record', async () => {
    const p = await clone('comment');
    writeFileSync(p.api, `${API}// a comment\n`);
    expect(await generate({ apiPath: p.api, mode: 'check' })).toMatchObject({ ok: true, cached: false, stale: [], formatted: 0, recordBehind: true });
    expect(await generate({ apiPath: p.api })).toMatchObject({ ok: true, written: [INPUTS_FILE] });
    dropCaches(p);
    expect(await generate({ apiPath: p.api, mode: 'check' })).toMatchObject({ ok: true, cached: true });
  });

  it('holds only for the same parts and formatter settings', async () => {
    const parts = await clone('parts');
    expect(await generate({ apiPath: parts.api, mode: 'check', parts: ['openapi'] })).toMatchObject({ cached: false });

    const settings = await clone('settings');
    writeFiles(settings.dir, { '.prettierrc.json': '{ "singleQuote": true }\n' });
    expect(await generate({ apiPath: settings.api, mode: 'check' })).toMatchObject({ ok: false, cached: false });
  });
});
