/**
 * The one cache (`pipeline/cache.ts`): a text computed once is answered again by later runs under the same key; a
 * record is kept until a run records another; a missing, foreign, truncated, overwritten or hostile cache only costs
 * computing again, and a cache that cannot be written costs nothing else; texts no run uses go, and packs stay few.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCache, type RunRecord } from '../../generator/pipeline/cache.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('cache');
afterAll(tmp.cleanup);

const RECORD: RunRecord = { inputs: {}, settings: {}, configs: [], outputs: { 'v1/a.ts': { key: 'k', out: '0123456789abcdef', stamp: '1:2:3:4' } } };

/** A cache file in a folder of its own, and a counter of what `text` had to compute. */
function place(name: string) {
  const file = path.join(tmp.dir, name, 'c.json');
  const computed: string[] = [];
  const text = (value: string) => () => (computed.push(value), value);
  return { file, computed, text, packs: () => readdirSync(path.dirname(file)).filter((f) => f.endsWith('.pack')) };
}

describe('the cache', () => {
  it('answers a text computed by an earlier run under the same key, and only under it', () => {
    const { file, computed, text } = place('answers');
    const first = openCache(file, 'key-a', 0n);
    // Offsets count bytes: a text beyond ASCII before another must not shift it.
    expect(first.memo('u', text('naïve – ü 😀'))).toBe('naïve – ü 😀');
    expect(first.memo('x', text('x text'))).toBe('x text');
    expect(first.memo('x', text('recomputed'))).toBe('x text');
    first.save(RECORD);
    const again = openCache(file, 'key-a', 0n);
    expect(again.record).toEqual(RECORD);
    expect(again.memo('u', text('wrong'))).toBe('naïve – ü 😀');
    expect(again.memo('x', text('wrong'))).toBe('x text');
    expect(again.stats).toEqual({ hits: 2, misses: 0 });
    again.save(undefined);
    // Another key (another restgen, other templates or options): nothing of it.
    const other = openCache(file, 'key-b', 0n);
    expect(other.record).toBeUndefined();
    expect(other.memo('x', text('for key b'))).toBe('for key b');
    other.save(undefined);
    // A cache older than restgen's own newest file is another restgen's.
    expect(openCache(file, 'key-a', statSync(file, { bigint: true }).mtimeNs).record).toBeUndefined();
    expect(computed).toEqual(['naïve – ü 😀', 'x text', 'for key b']);
  });

  it('keeps the record when a run records none (a failed run, a check that found stale files)', () => {
    const { file, text } = place('record');
    const first = openCache(file, 'k', 0n);
    first.save(RECORD);
    const failed = openCache(file, 'k', 0n);
    failed.memo('t', text('computed by a failed run'));
    failed.save(undefined);
    const next = openCache(file, 'k', 0n);
    expect(next.record).toEqual(RECORD);
    // What the failed run computed stays computed.
    expect(next.memo('t', text('wrong'))).toBe('computed by a failed run');
  });

  it('computes again what a damaged cache holds: a corrupt index, a short pack, bytes overwritten in place, a pack elsewhere', () => {
    const { file, text } = place('damaged');
    const first = openCache(file, 'k', 0n);
    first.memo('a', text('{"part":"a"}'));
    first.memo('b', text('{"part":"b"}'));
    first.save(RECORD);
    const index = path.join(path.dirname(file), 'c.texts.json');
    const [pack] = readdirSync(path.dirname(file)).filter((f) => f.endsWith('.pack'));
    const packFile = path.join(path.dirname(file), pack!);
    // The same length, other bytes (a sync tool, a disk, a hand): the locations fit, the texts do not.
    writeFileSync(packFile, readFileSync(packFile, 'utf8').replace('"a"', '"x"'));
    const overwritten = openCache(file, 'k', 0n);
    expect(overwritten.memo('a', () => 'computed again')).toBe('computed again');
    expect(overwritten.memo('b', () => 'wrong')).toBe('{"part":"b"}');
    // Cut short: every text past the end is computed again.
    writeFileSync(packFile, 'short');
    expect(openCache(file, 'k', 0n).memo('b', () => 'computed again')).toBe('computed again');
    // An index naming a file outside the cache's folder is no index.
    const saved = JSON.parse(readFileSync(index, 'utf8')) as { packs: string[] };
    writeFileSync(index, JSON.stringify({ ...saved, packs: ['../../elsewhere.pack'] }));
    expect(openCache(file, 'k', 0n).memo('b', () => 'not read from elsewhere')).toBe('not read from elsewhere');
    writeFileSync(index, 'not json');
    writeFileSync(file, '{ "format": ');
    const broken = openCache(file, 'k', 0n);
    expect(broken.record).toBeUndefined();
    expect(broken.memo('b', () => 'computed again')).toBe('computed again');
  });

  it('computes and answers everything, and throws nothing, where it cannot write', () => {
    const blocked = path.join(tmp.dir, 'blocked');
    writeFileSync(blocked, 'a file where the folder should be');
    const cache = openCache(path.join(blocked, 'c.json'), 'k', 0n);
    let computed = 0;
    const text = () => `text ${++computed}`;
    expect(cache.memo('a', text)).toBe('text 1');
    expect(cache.memo('a', text)).toBe('text 2');
    expect(() => cache.save(RECORD)).not.toThrow();
    expect(readFileSync(blocked, 'utf8')).toBe('a file where the folder should be');
  });

  it('drops a text no run used for 16 saves, keeps one in use, and keeps few packs', () => {
    const { file, computed, text, packs } = place('aging');
    const first = openCache(file, 'k', 0n);
    first.memo('old', text('old text'));
    first.memo('kept', text('kept text'));
    first.save(undefined);
    for (let run = 0; run < 20; run++) {
      const cache = openCache(file, 'k', 0n);
      cache.memo('kept', text('wrong'));
      cache.memo(`new ${run}`, text(`new text ${run}`));
      cache.save(undefined);
      // Never more than a handful of packs, and none the index does not name.
      expect(packs().length).toBeLessThanOrEqual(9);
    }
    const last = openCache(file, 'k', 0n);
    expect(last.memo('kept', text('wrong'))).toBe('kept text');
    expect(last.memo('new 19', text('wrong'))).toBe('new text 19');
    expect(last.memo('old', text('old text again'))).toBe('old text again');
    expect(computed.filter((c) => c.startsWith('old'))).toEqual(['old text', 'old text again']);
  });

  it("removes an earlier restgen's render cache files beside it", () => {
    const { file, text } = place('earlier');
    writeFiles(path.dirname(file), { 'c.render.json': '{}', 'c.render.3-0a1b2c3d.seg': 'x', 'other.json': '{}' });
    const cache = openCache(file, 'k', 0n);
    cache.memo('a', text('a'));
    cache.save(RECORD);
    expect(readdirSync(path.dirname(file)).sort()).toEqual(expect.arrayContaining(['c.json', 'c.texts.json', 'other.json']));
    expect(readdirSync(path.dirname(file)).filter((f) => f.includes('render'))).toEqual([]);
  });
});
