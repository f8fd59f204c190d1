/**
 * Render keys in file headers: each generated file records what it was rendered from (its render key, with the
 * identity of the restgen that rendered it), so `check` right after a fresh clone and `npm ci` (no cache at all)
 * confirms an unchanged project by reading headers, renders only the files a change reaches, and still finds
 * every edit. A file whose text is right under another key (written by another restgen) is up to date.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readHeader } from '../../generator/format/header.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { cacheFile } from '../../generator/pipeline/run-cache.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('render-keys');
afterAll(tmp.cleanup);

const API = (max: number) => `import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'notes',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  collections: {
    notes: collection({ fields: { id: f.id(), title: f.string().max(100), body: f.string().max(${max}).optional().addedIn('v2') } }),
    tags: collection({ fields: { id: f.id(), label: f.string() } }),
  },
});
`;

function project(name: string): { api: string; out: string } {
  const dir = path.join(tmp.dir, name);
  writeFiles(dir, { 'api.ts': API(10) });
  return { api: path.join(dir, 'api.ts'), out: path.join(dir, 'generated') };
}

/** Removes the run record and the render cache: what a fresh clone after `npm ci` has. */
function dropCaches(p: { api: string; out: string }): void {
  for (const kind of ['', '.render']) rmSync(cacheFile(p.api, p.out, undefined, kind), { force: true });
}

describe('render keys in file headers', () => {
  it('confirm an unchanged project without any cache, rendering nothing', async () => {
    const p = project('unchanged');
    const first = await generate({ apiPath: p.api });
    expect(first.written.length).toBeGreaterThan(20);
    dropCaches(p);
    // A comment: the inputs record no longer holds, so this is a full check by render keys.
    writeFileSync(p.api, `${readFileSync(p.api, 'utf8')}// a comment\n`);
    const check = await generate({ apiPath: p.api, mode: 'check' });
    expect(check).toMatchObject({ ok: true, cached: false, stale: [], formatted: 0, renders: { hits: 0, misses: 0 } });
    const header = readHeader(readFileSync(path.join(p.out, 'v1/notes.ts'), 'utf8'));
    expect(header).toMatchObject({ intact: true, earlier: false });
  });

  it('under another restgen, render every file to compare it (header keys name no restgen), and rewrite none', async () => {
    const p = project('other-restgen');
    await generate({ apiPath: p.api });
    const recordFile = path.join(p.out, 'restgen-inputs.json');
    const record = readFileSync(recordFile, 'utf8');
    // The record names the restgen that wrote the outputs; here, another one.
    writeFileSync(recordFile, record.replace(/"identity": "[^"]+"/, '"identity": "another-restgen"'));
    const edited = readFileSync(recordFile, 'utf8');
    const body = edited.slice(edited.indexOf('\n  "identity"'));
    writeFileSync(recordFile, edited.replace(/out=[0-9a-f]{16}/, `out=${createHash('sha1').update(`{${body}\0`).digest('hex').slice(0, 16)}`));
    expect(readHeader(readFileSync(recordFile, 'utf8'))?.intact).toBe(true);
    dropCaches(p);
    const check = await generate({ apiPath: p.api, mode: 'check' });
    expect(check).toMatchObject({ ok: true, stale: [] });
    expect(check.formatted, 'every file rendered and compared').toBeGreaterThan(20);
    // Every file is byte for byte what generate would write (its header included): nothing is behind, and the run
    // record of this check answers the next one.
    expect(await generate({ apiPath: p.api, mode: 'check' })).toMatchObject({ ok: true, cached: true, stale: [] });
    dropCaches(p);
    const again = await generate({ apiPath: p.api });
    expect(again).toMatchObject({ ok: true, written: [], removed: [] });
    expect(again.formatted, 'every file rendered and compared').toBeGreaterThan(20);
    // The inputs record keeps naming the other restgen, yet this one compared every file: its run record says so,
    // and the runs after it are answered without loading the API, as after any other complete run.
    expect(readFileSync(recordFile, 'utf8')).toContain('"identity": "another-restgen"');
    for (const mode of ['write', 'check'] as const) expect(await generate({ apiPath: p.api, mode })).toMatchObject({ ok: true, cached: true, written: [] });
  });

  it('without a cache, render only what a change reaches and find it stale', async () => {
    const p = project('changed');
    const first = await generate({ apiPath: p.api });
    writeFileSync(p.api, API(20));
    dropCaches(p);
    const check = await generate({ apiPath: p.api, mode: 'check' });
    expect(check.ok).toBe(false);
    // The client's types do not show a maximum length: its module is rendered, found the same, and not stale.
    expect(check.stale).toEqual(['mcp/tools/v2/notes.ts', 'openapi/v2.json', 'v2/notes.ts']);
    expect(check.staleReasons['v2/notes.ts']).toBe('outdated');
    // The files of the changed collection (and those naming it as a whole), not the rest of the API.
    expect(check.formatted).toBeGreaterThanOrEqual(3);
    expect(check.formatted).toBeLessThan(first.files.length / 4);
  });

  it('without a cache, find a hand edit', async () => {
    const p = project('edited');
    await generate({ apiPath: p.api });
    dropCaches(p);
    const file = path.join(p.out, 'v1/tags.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace('z.string()', 'z.number()'));
    const check = await generate({ apiPath: p.api, mode: 'check' });
    expect(check).toMatchObject({ ok: false, stale: ['v1/tags.ts'], staleReasons: { 'v1/tags.ts': 'edited' } });
  });

  it('accept the same text under another key, and generate then rewrites only its header', async () => {
    const p = project('other-key');
    await generate({ apiPath: p.api });
    dropCaches(p);
    const file = path.join(p.out, 'v1/notes.ts');
    const text = readFileSync(file, 'utf8');
    // As another restgen (or one before render keys) wrote it: same body, another `in`, no version.
    const other = text.replace(/in=[0-9a-f]{16}/, 'in=0123456789abcdef').replace(/ v=\S+/, '');
    writeFileSync(file, other);
    const check = await generate({ apiPath: p.api, mode: 'check' });
    expect(check).toMatchObject({ ok: true, stale: [], formatted: 1 });
    const again = await generate({ apiPath: p.api });
    expect(again.written).toEqual(['v1/notes.ts']);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it("rewrites a file whose header holds an earlier restgen's SHA-256 `out` hash, to the bytes a fresh run writes", async () => {
    const p = project('earlier-out');
    await generate({ apiPath: p.api });
    const file = path.join(p.out, 'client/runtime/retry.ts');
    const now = readFileSync(file, 'utf8');
    const header = readHeader(now)!;
    const body = now.slice(now.indexOf('\n', now.indexOf('\n') + 1) + 2);
    const earlier = now.replace(header.hashes.output, createHash('sha256').update(`${body}\0`).digest('hex').slice(0, 16));
    writeFileSync(file, earlier);
    expect(readHeader(earlier)).toMatchObject({ intact: true, earlier: true });
    dropCaches(p);
    // Its text is right: check passes; generate rewrites the header.
    expect(await generate({ apiPath: p.api, mode: 'check' })).toMatchObject({ ok: true, stale: [] });
    expect(await generate({ apiPath: p.api })).toMatchObject({ ok: true, written: ['client/runtime/retry.ts'] });
    expect(readFileSync(file, 'utf8')).toBe(now);
  });
});
