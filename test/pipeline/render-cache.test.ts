/**
 * The render cache: a run renders only what depends on what changed, a missing or corrupt cache only costs
 * time (the output is the same bytes), and the cache never lands in the output folder.
 */
import { partThrough } from '../../generator/pipeline/stages.ts';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline/generate.ts';
import { changesParts } from '../../generator/emit/changes/changes-parts.ts';
import { buildChangesView } from '../../generator/report/changes-view.ts';
import type { Memo } from '../../generator/pipeline/memo.ts';
import { KEEP_RUNS, loadRenderCache } from '../../generator/pipeline/render-cache.ts';
import { cacheFile } from '../../generator/pipeline/run-cache.ts';
import { listFiles, tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('render-cache');
afterAll(tmp.cleanup);

const API = (notes = 'f.string().max(500)', extra = '') => `import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'notes',
  versions: { v1: { released: '2026-01-01' }, v2: {}, v3: {} },
  collections: {
    notes: collection({ fields: { id: f.id(), title: f.string().max(100), body: ${notes}.optional().addedIn('v3') } }),
    tags: collection({ fields: { id: f.id(), label: f.string().min(1) } }),
    people: collection({ fields: { id: f.id(), name: f.string() } }).addedIn('v2'),
  },
});${extra}
`;

/** Every file of `dir` with its text. */
const snapshot = (dir: string) => Object.fromEntries(listFiles(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]));

describe('the render cache', () => {
  it('stores what was rendered, answers it again, and starts empty for another restgen or a corrupt file', () => {
    const file = path.join(tmp.dir, 'unit', 'cache.json');
    let computed = 0;
    const render = () => `text ${++computed}`;
    const first = loadRenderCache(file, 'restgen-a');
    // Offsets count bytes: a text beyond ASCII before another one must not shift it.
    expect(first.memo('k', 'unicode', () => 'naïve – ü 😀')).toBe('naïve – ü 😀');
    expect(first.memo('k', '{"a":1}', render)).toBe('text 1');
    expect(first.memo('k', '{"a":1}', render)).toBe('text 1');
    expect(first.memo('k', '{"a":2}', render)).toBe('text 2');
    first.save('identity');
    const again = loadRenderCache(file, 'restgen-a');
    expect(again.memo('k', 'unicode', () => 'rendered again')).toBe('naïve – ü 😀');
    again.stats.hits = 0;
    expect(again.memo('k', '{"a":2}', render)).toBe('text 2');
    expect(again.memo('k', '{"a":1}', render)).toBe('text 1');
    expect(again.stats).toEqual({ hits: 2, misses: 0 });
    expect(again.identity).toBe('identity');
    expect(loadRenderCache(file, 'restgen-b').memo('k', '{"a":1}', render)).toBe('text 3');
    // An index whose entry points past the end of its segment (cut short) is a miss for that entry.
    const index = JSON.parse(readFileSync(file, 'utf8')) as { segments: string[]; entries: Record<string, number[]> };
    writeFileSync(path.join(path.dirname(file), index.segments[0]!), 'short');
    const corrupt = loadRenderCache(file, 'restgen-a');
    expect(corrupt.memo('k', '{"a":1}', render)).toBe('text 4');
    writeFileSync(file, JSON.stringify({ ...index, entries: { x: [7, 0, 1, 1] } }));
    expect(loadRenderCache(file, 'restgen-a').memo('k', '{"a":1}', render)).toBe('text 5');
    writeFileSync(file, 'not json');
    expect(loadRenderCache(file, 'restgen-a').memo('k', '{"a":1}', render)).toBe('text 6');
  });

  it('never answers a text whose bytes changed on disk: a segment overwritten in place is a miss, and a run renders again', async () => {
    const file = path.join(tmp.dir, 'overwritten', 'cache.json');
    const first = loadRenderCache(file, 'restgen-a');
    expect(first.memo('k', 'a', () => '{"part":"a"}')).toBe('{"part":"a"}');
    expect(first.memo('k', 'b', () => '{"part":"b"}')).toBe('{"part":"b"}');
    first.save('identity');
    // The same length, other bytes (a sync tool, a disk, a hand): the locations still fit, the texts do not.
    const index = JSON.parse(readFileSync(file, 'utf8')) as { segments: string[] };
    const segment = path.join(path.dirname(file), index.segments[0]!);
    writeFileSync(segment, readFileSync(segment, 'utf8').replace('"a"', '"x"'));
    const again = loadRenderCache(file, 'restgen-a');
    expect(again.memo('k', 'a', () => 'rendered again')).toBe('rendered again');
    expect(again.memo('k', 'b', () => 'rendered again')).toBe('{"part":"b"}');

    // A whole run over a cache whose every segment is garbage of the same size: no crash, and the bytes of a run
    // without any cache.
    const dir = path.join(tmp.dir, 'garbage');
    writeFiles(dir, { 'api.ts': API() });
    const apiPath = path.join(dir, 'api.ts');
    const out = path.join(dir, 'generated');
    expect((await generate({ apiPath })).ok).toBe(true);
    // This API's segments only: the cache folder is shared with the other tests' APIs.
    const renderIndex = cacheFile(apiPath, out, undefined, '.render');
    const cacheDir = path.dirname(renderIndex);
    const segments = readdirSync(cacheDir).filter((f) => f.startsWith(`${path.basename(renderIndex, '.json')}.`) && f.endsWith('.seg'));
    expect(segments.length).toBeGreaterThan(0);
    for (const f of segments) writeFileSync(path.join(cacheDir, f), Buffer.alloc(statSync(path.join(cacheDir, f)).size, 0x7b));
    writeFileSync(apiPath, API('f.string().max(500).nullable()'));
    const changed = await generate({ apiPath });
    expect(changed).toMatchObject({ ok: true, diagnostics: [] });
    expect(changed.renders.hits, 'no text of a garbage segment is used').toBe(0);
    const written = snapshot(out);
    rmSync(cacheFile(apiPath, out, undefined, '.render'));
    rmSync(out, { recursive: true });
    expect((await generate({ apiPath })).renders.hits).toBe(0);
    expect(snapshot(out)).toEqual(written);
  });

  it('writes a text to its segment as it is rendered, reads it back when asked again, and holds texts where no segment can be written', () => {
    const dir = path.join(tmp.dir, 'streamed');
    const file = path.join(dir, 'cache.json');
    let computed = 0;
    const render = () => `text ${++computed} ${'x'.repeat(1 << 19)}`;
    const run = loadRenderCache(file, 'restgen-a');
    const first = run.memo('k', '1', render);
    // Past the chunk size: the first texts are on disk before the save, in the segment the save indexes.
    run.memo('k', '2', render);
    run.memo('k', '3', render);
    const segment = readdirSync(dir).find((f) => f.endsWith('.seg'))!;
    expect(statSync(path.join(dir, segment)).size).toBeGreaterThan(1 << 20);
    expect(run.memo('k', '1', render)).toBe(first);
    expect(computed).toBe(3);
    // A concurrent save removed this run's segment: a text asked for again is rendered again (the same text).
    rmSync(path.join(dir, segment));
    expect(run.memo('k', '3', render).startsWith('text 3 ')).toBe(true);
    run.save('identity');
    expect(loadRenderCache(file, 'restgen-a').memo('k', '1', () => 'rendered again')).toBe('rendered again');
    // The cache's folder cannot be made (a file stands at its path): every text is held, answered again, and
    // the save stores nothing and does not throw.
    const blocked = path.join(tmp.dir, 'blocked');
    writeFileSync(blocked, 'a file');
    const held = loadRenderCache(path.join(blocked, 'cache.json'), 'restgen-a');
    const text = held.memo('k', '1', render);
    expect(held.memo('k', '1', render)).toBe(text);
    expect(() => held.save('identity')).not.toThrow();
    expect(readFileSync(blocked, 'utf8')).toBe('a file');
  });

  it('appends what a run rendered as a new segment, leaves the others as they are, and compacts them', () => {
    const dir = path.join(tmp.dir, 'segments');
    const file = path.join(dir, 'cache.json');
    const segmentsOf = () => (JSON.parse(readFileSync(file, 'utf8')) as { segments: string[] }).segments;
    const first = loadRenderCache(file, 'restgen-a');
    for (let i = 0; i < 50; i++) first.memo('k', `part ${i}`, () => `text of part ${i} `.repeat(100));
    first.save('identity');
    const [big] = segmentsOf();
    const bigStat = statSync(path.join(dir, big!));
    // One new part per run: the big segment is neither rewritten nor reread whole, the new text lands in a segment of its own.
    const rendered: string[] = [];
    for (let run = 0; run < 30; run++) {
      const cache = loadRenderCache(file, 'restgen-a');
      expect(cache.memo('k', `part ${run % 10}`, () => (rendered.push('old'), 'wrong'))).toBe(`text of part ${run % 10} `.repeat(100));
      cache.memo('k', `new ${run}`, () => `new text ${run}`);
      cache.save('identity');
      const segments = segmentsOf();
      if (run < 5) {
        expect(segments[0]).toBe(big);
        expect(statSync(path.join(dir, big!)).ino).toBe(bigStat.ino);
        expect(statSync(path.join(dir, big!)).mtimeMs).toBe(bigStat.mtimeMs);
      }
      // Never more than a dozen segments, and nothing on disk that the index does not name.
      expect(segments.length).toBeLessThanOrEqual(12);
      expect(
        readdirSync(dir)
          .filter((f) => f.endsWith('.seg'))
          .sort(),
      ).toEqual([...segments].sort());
    }
    expect(rendered).toEqual([]);
    // Compacted on the way (the parts no run used for a while were dropped): the first segment is gone, every
    // entry still kept answers.
    expect(segmentsOf()).not.toContain(big);
    const last = loadRenderCache(file, 'restgen-a');
    for (let i = 0; i < 10; i++) expect(last.memo('k', `part ${i}`, () => 'wrong')).toBe(`text of part ${i} `.repeat(100));
    expect(last.memo('k', 'new 29', () => 'wrong')).toBe('new text 29');
    expect(last.stats).toEqual({ hits: 11, misses: 0 });
    expect(last.memo('k', 'part 40', () => 'dropped')).toBe('dropped');
    // A segment removed under a run (a concurrent save compacted it): its entries are rendered again, nothing fails.
    for (const s of segmentsOf()) rmSync(path.join(dir, s));
    const lost = loadRenderCache(file, 'restgen-a');
    expect(lost.memo('k', 'part 3', () => 'rendered again')).toBe('rendered again');
    lost.save('identity');
    expect(loadRenderCache(file, 'restgen-a').memo('k', 'part 3', () => 'wrong')).toBe('rendered again');
  });

  it('keeps an entry a run did not use for the next runs, and drops it once no run used it for a while', () => {
    const file = path.join(tmp.dir, 'keep', 'cache.json');
    const rendered: string[] = [];
    const render = (name: string) => () => (rendered.push(name), `text of ${name}`);
    const first = loadRenderCache(file, 'restgen-a');
    first.memo('k', 'part a', render('a'));
    first.memo('k', 'part b', render('b'));
    first.memo('k', 'whole file', render('file'), 'file');
    first.save('identity');
    // Each later run renders something new and does not ask for part a (its file's header proved it).
    for (let run = 1; run < KEEP_RUNS; run++) {
      const cache = loadRenderCache(file, 'restgen-a');
      cache.memo('k', 'part b', render('b'));
      cache.memo('k', `new ${run}`, render(`new ${run}`));
      cache.save('identity');
    }
    expect(rendered.filter((r) => r === 'a' || r === 'b')).toEqual(['a', 'b']);
    const later = loadRenderCache(file, 'restgen-a');
    expect(later.memo('k', 'part a', render('a'))).toBe('text of a');
    expect(later.stats).toEqual({ hits: 1, misses: 0 });
    // A whole file's text is never kept (its header stands for it once it is written): rendered again, counted as a render.
    later.memo('k', 'whole file', render('file'), 'file');
    expect(later.stats).toEqual({ hits: 1, misses: 1 });
    expect(rendered.filter((r) => r === 'file')).toEqual(['file', 'file']);
    // The runs so far used part a once more; KEEP_RUNS saves without it and it is gone, while part b stays.
    for (let run = 0; run < KEEP_RUNS; run++) {
      const cache = loadRenderCache(file, 'restgen-a');
      cache.memo('k', 'part b', render('b'));
      cache.memo('k', `newer ${run}`, render(`newer ${run}`));
      cache.save('identity');
    }
    const last = loadRenderCache(file, 'restgen-a');
    last.memo('k', 'part a', render('a'));
    last.memo('k', 'part b', render('b'));
    expect(last.stats).toEqual({ hits: 1, misses: 1 });
    expect(rendered.filter((r) => r === 'a' || r === 'b')).toEqual(['a', 'b', 'a']);
  });

  it('stores a fact computed while another entry is computed (a template compiled while a file renders)', () => {
    const file = path.join(tmp.dir, 'nested-fact', 'cache.json');
    const first = loadRenderCache(file, 'restgen-a');
    const text = first.memo('k', 'a file', () => `${first.memo('template', 'zod/collection', () => 'compiled code', 'fact')} and more`, 'file');
    expect(text).toBe('compiled code and more');
    first.save('identity');
    const again = loadRenderCache(file, 'restgen-a');
    expect(again.memo('template', 'zod/collection', () => 'compiled again', 'fact')).toBe('compiled code');
    // Facts do not count as renders.
    expect(again.stats).toEqual({ hits: 0, misses: 0 });
  });

  it('compares again only the collections whose projections changed, for CHANGES.md', async () => {
    const dir = path.join(tmp.dir, 'changes');
    writeFiles(dir, { 'api.ts': API() });
    const apiPath = path.join(dir, 'api.ts');
    const before = (await generate({ apiPath })).ir!;
    writeFileSync(apiPath, API('f.string().max(500).nullable()'));
    const after = (await generate({ apiPath })).ir!;
    const cache = loadRenderCache(path.join(tmp.dir, 'changes-cache', 'cache.json'), 'restgen-a');
    const compared: string[] = [];
    const memo: Memo = (kind, input, compute) => cache.memo(kind, input, () => (compared.push(kind), compute()));
    // Through the cache as the pipeline goes through it: a pair's comparisons only when the pair is not kept.
    const through = (api: typeof before) => buildChangesView(api, '../api.ts', changesParts(api).map(partThrough(memo)));
    expect(through(before)).toEqual(buildChangesView(before, '../api.ts'));
    // Two pairs; v1 -> v2: notes and tags (people is new in v2); v2 -> v3: all three.
    expect(compared.filter((k) => k === 'changes pair')).toHaveLength(2);
    expect(compared.filter((k) => k === 'changes collection')).toHaveLength(5);
    compared.length = 0;
    // Only notes in v3 changed: the pair v1 -> v2 is not compared at all, and of v2 -> v3 only notes is compared
    // again; the view is the one a run without cache builds.
    const view = through(after);
    expect(compared).toEqual(['changes pair', 'changes collection']);
    expect(view).toEqual(buildChangesView(after, '../api.ts'));
    // A change to what every collection's comparison reads (the auth of v3) compares v3's collections again.
    compared.length = 0;
    const withAuth = { ...after, auth: { ...after.auth, apiKey: { header: 'X-API-Key' } } } as typeof after;
    expect(through(withAuth)).toEqual(buildChangesView(withAuth, '../api.ts'));
    expect(compared.filter((k) => k === 'changes collection').length).toBeGreaterThanOrEqual(3);
    expect(view.pairs[1]!.groups.map((g) => g.title)).toEqual(['notes']);
  });

  it('renders only what one changed field reaches, and writes the same bytes as a run without cache', async () => {
    const dir = path.join(tmp.dir, 'incremental');
    writeFiles(dir, { 'api.ts': API() });
    const apiPath = path.join(dir, 'api.ts');
    const cold = await generate({ apiPath });
    expect(cold.ok).toBe(true);
    expect(cold.renders.hits).toBe(0);
    const all = cold.renders.misses;
    expect(all).toBeGreaterThan(20);
    // Not one file of the output folder is the cache's.
    expect(listFiles(path.join(dir, 'generated')).every((f) => !f.includes('cache'))).toBe(true);

    // A change that changes nothing generated (a comment): nothing is rendered; only the inputs record,
    // which lists the API module's hash, is written.
    writeFileSync(apiPath, API(undefined, '\n// a comment'));
    const same = await generate({ apiPath });
    expect(same.renders.misses).toBe(0);
    expect(same.written).toEqual(['restgen-inputs.json']);

    // One field of one collection, in the one version that has it.
    writeFileSync(apiPath, API('f.string().max(500).nullable()'));
    const one = await generate({ apiPath });
    // Three files show the change; two more are reached by it without showing it (the server's module of the
    // collection, CHANGES.md): only their headers' render keys change. The inputs record lists both changes.
    expect([...one.written].sort()).toEqual([
      'CHANGES.md',
      'client/v3/notes.ts',
      'openapi/v3.json',
      'restgen-inputs.json',
      'server/collections/notes.ts',
      'v3/notes.ts',
    ]);
    // Those files, v3's client module, the server's module of the collection (and its summary), CHANGES.md
    // and its v2 -> v3 comparison at most: nothing of the other collections or versions. A file whose key is
    // unchanged is not even looked up: its header proves it up to date.
    expect(one.renders.misses).toBeGreaterThanOrEqual(3);
    expect(one.renders.misses).toBeLessThanOrEqual(9);
    expect(one.renders.hits + one.renders.misses).toBeLessThan(all / 2);

    const cached = snapshot(path.join(dir, 'generated'));
    rmSync(cacheFile(apiPath, path.join(dir, 'generated'), undefined, '.render'));
    rmSync(path.join(dir, 'generated'), { recursive: true });
    const fresh = await generate({ apiPath });
    expect(fresh.renders.hits).toBe(0);
    expect(snapshot(path.join(dir, 'generated'))).toEqual(cached);
  });
});
