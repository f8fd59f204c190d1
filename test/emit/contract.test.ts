/**
 * The emitter contract: one suite that every emitter runs, on every example and on a minimal API (as hono runs one
 * router suite for every router). Each emitter's files sit at unique, relative POSIX paths (sorted once emitted);
 * each is a renderer applied to plain data; rendering gives the same text twice, with or without a cache; every
 * written file carries a header naming its API module. And the cache can never serve a stale text, because what a
 * file is generated from is exactly its data: a change to any property of a file's data changes its key, and any
 * change to the model that changes a file's text changes that file's key.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { uncached } from '../../generator/emit/file.ts';
import { PART_NAMES } from '../../generator/emit/parts.ts';
import { EMITTERS } from '../../generator/emit/registry.ts';
import type { OutputFile, RenderUse } from '../../generator/emit/types.ts';
import { readHeader } from '../../generator/format/header.ts';
import type { ApiIR } from '../../generator/model/ir.ts';
import { digest } from '../../generator/pipeline/digest.ts';
import { emitAll, keyOf } from '../../generator/pipeline/emit.ts';
import { loadRuntime, loadTemplates } from '../../generator/templates/load-templates.ts';
import { loadIr } from '../helpers/load-ir.ts';
import { random } from '../helpers/mutate.ts';
import { SHARED_APIS, sharedOutput } from '../helpers/shared-output.ts';
import { listFiles, tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('emitter-contract');
afterAll(tmp.cleanup);

const MINIMAL = `import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'tiny',
  versions: { v1: {} },
  collections: { notes: collection({ fields: { id: f.id(), text: f.string().max(10) } }) },
});
`;
writeFiles(tmp.dir, { 'api.ts': MINIMAL });

const EXAMPLES = ['shop', 'header-versioning', 'ledger'] as const;
const APIS: readonly (readonly [string, string])[] = [
  ...EXAMPLES.map((name) => [name, SHARED_APIS[name]!] as const),
  ['minimal', path.join(tmp.dir, 'api.ts')],
];

const { render } = loadTemplates();
const runtime = loadRuntime();
const emitterOf = (part: string) => EMITTERS.find((e) => e.name === part)!.emit;
const emit = (part: string, ir: ApiIR): readonly OutputFile[] => emitterOf(part)(ir, { sourcePath: '../api.ts', render, runtime });

/** `use` whose calls go through a Map by renderer and data, as the pipeline's cache keys them. */
function mapUse(): RenderUse {
  const texts = new Map<string, string>();
  const use: RenderUse = {
    template: render,
    call: (r, data) => {
      const key = `${r.name}\0${digest(data)}`;
      if (!texts.has(key)) texts.set(key, r.render(data, use));
      return texts.get(key)!;
    },
  };
  return use;
}

/** Where `value` holds something that is not plain data (JSON's view would lose or collapse it), or undefined. */
function notPlain(value: unknown, at = '', seen = new Set<object>()): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${at}: ${value}`;
  if (typeof value !== 'object') return `${at}: a ${typeof value}`;
  if (seen.has(value)) return undefined;
  seen.add(value);
  const prototype: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return `${at}: a ${value.constructor.name}`;
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined && Array.isArray(value)) return `${at}[${key}]: undefined in an array`;
    const found = v === undefined ? undefined : notPlain(v, `${at}.${key}`, seen);
    if (found) return found;
  }
  return undefined;
}

/** The paths of every string, number and boolean in `value` (`skip`: keys not to descend into). */
function leaves(
  value: unknown,
  skip: ReadonlySet<string> = new Set(),
  at: readonly (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out.push([...at]);
  else if (Array.isArray(value)) value.forEach((v, i) => leaves(v, skip, [...at, i], out));
  else if (typeof value === 'object' && value !== null) for (const [key, v] of Object.entries(value)) if (!skip.has(key)) leaves(v, skip, [...at, key], out);
  return out;
}

/** `value` with the leaf at `at` changed (a string lengthened, a number raised, a boolean flipped); copies only the path. */
function changed(value: unknown, at: readonly (string | number)[]): unknown {
  if (at.length === 0) return typeof value === 'string' ? `${value}x` : typeof value === 'number' ? value + 1 : typeof value === 'boolean' ? !value : value;
  const [head, ...rest] = at;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? changed(v, rest) : v));
  return { ...(value as Record<string, unknown>), [head!]: changed((value as Record<string, unknown>)[head!], rest) };
}

/** Up to `n` of `xs`, picked by a seeded generator (the same ones on every run). */
function sample<T>(xs: readonly T[], n: number, seed: number): T[] {
  if (xs.length <= n) return [...xs];
  const next = random(seed);
  const picked = new Set<number>();
  while (picked.size < n) picked.add(Math.floor(next() * xs.length));
  return [...picked].sort((a, b) => a - b).map((i) => xs[i]!);
}

describe.each(PART_NAMES)('the %s emitter', (part) => {
  describe.each(APIS)('on %s', (_name, apiPath) => {
    it('describes files at unique, relative POSIX paths (sorted once emitted), each from plain data', async () => {
      const ir = await loadIr(apiPath);
      const files = emit(part, ir);
      expect(files.length).toBeGreaterThan(0);
      const paths = files.map((f) => f.path);
      expect(new Set(paths).size).toBe(paths.length);
      for (const p of paths) expect(p, p).toMatch(/^(?!\/)(?!.*(?:^|\/)\.\.?(?:\/|$))(?!.*\/\/)[^\\:]+$/);
      expect((await emitAll(ir, '../api.ts', undefined, [part])).map((f) => f.path)).toEqual([...paths].sort());
      for (const f of files) expect(notPlain(f.data), f.path).toBeUndefined();
    });

    it('renders the same text twice, and the same through a cache', async () => {
      const [a, b] = [emit(part, await loadIr(apiPath)), emit(part, await loadIr(apiPath))];
      const use = mapUse();
      a.forEach((f, i) => {
        const text = f.content;
        expect(text.length, f.path).toBeGreaterThan(0);
        expect(b[i]!.content, f.path).toBe(text);
        expect(keyOf(b[i]!), f.path).toBe(keyOf(f));
        expect(f.renderer.render(f.data, use), f.path).toBe(text);
        // Twice through the same cache: the second time from what it kept.
        expect(f.renderer.render(f.data, use), f.path).toBe(text);
        expect(f.renderer.render(f.data, uncached(render)), f.path).toBe(text);
      });
    });

    it("changes a file's key whenever any property of its data changes", async () => {
      const files = emit(part, await loadIr(apiPath));
      let checked = 0;
      files.forEach((f, i) => {
        const key = digest(f.data);
        for (const leaf of sample(leaves(f.data), 12, i + 1)) {
          expect(digest(changed(f.data, leaf)), `${f.path}: ${leaf.join('.')}`).not.toBe(key);
          checked++;
        }
      });
      expect(checked).toBeGreaterThan(0);
    });
  });
});

describe('a change to the model', () => {
  it.each(APIS)(
    "that changes a file's text changes its key (%s)",
    async (name, apiPath) => {
      const ir = await loadIr(apiPath);
      const before = new Map(PART_NAMES.flatMap((part) => emit(part, ir)).map((f) => [f.path, { text: f.content, key: keyOf(f) }]));
      // Every property of the minimal API; a sample of each example's. Where the DSL was written is not output.
      const all = leaves(ir, new Set(['loc', 'calls', 'source']));
      const picked = name === 'minimal' ? all : sample(all, 12, 7);
      let reached = 0;
      for (const leaf of picked) {
        let files: OutputFile[];
        try {
          files = PART_NAMES.flatMap((part) => emit(part, changed(ir, leaf) as ApiIR));
          for (const f of files) void f.content;
        } catch {
          // A change the model could not hold (a kind renamed): no output to compare.
          continue;
        }
        for (const f of files) {
          const was = before.get(f.path);
          if (was === undefined || was.text === f.content) continue;
          reached++;
          expect(keyOf(f), `${f.path} after ${leaf.join('.')}`).not.toBe(was.key);
        }
      }
      // The changes reached files: the test compared texts, not only skipped them.
      expect(reached).toBeGreaterThan(picked.length / 4);
    },
    120_000,
  );
});

describe('every file generated from the examples', () => {
  it.each(EXAMPLES)('carries a header naming its API module, and its body as the header says (%s)', (name) => {
    const out = sharedOutput(SHARED_APIS[name]!)!;
    const source = path.relative(out, SHARED_APIS[name]!).split(path.sep).join('/');
    const files = listFiles(out);
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) expect(readHeader(readFileSync(path.join(out, f))), f).toEqual({ source, output: expect.any(String), intact: true });
  });
});
