/**
 * Differential property: generation through the cache, after any sequence of random DSL edits, writes byte for byte
 * what a generation without any cache writes from the same API module and lock, and says the same. One project is
 * edited and generated again and again, its cache kept (in its own `node_modules/.cache`); after every edit a second
 * project with the same API module and lock, but no output and no cache, is generated from scratch.
 */
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { generate, type GenerateResult } from '../../generator/pipeline/generate.ts';
import { listFiles, tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('cached-vs-fresh');
afterAll(tmp.cleanup);

/** Builder chains a field can have (in the newest version; some with markers of the versions before). */
const FIELDS = [
  'f.string().max(20)',
  'f.string().min(1).max(200).filterable()',
  'f.int().min(0).max(100)',
  'f.number().min(0).optional()',
  "f.enum(['a', 'b']).default('a')",
  'f.boolean().optional()',
  'f.datetime().readOnly()',
  'f.email().optional().description("Where to write")',
  "f.string().optional().addedIn('v2')",
  "f.int().optional().addedIn('v3')",
  "f.string().max(5).removedIn('v3', { fallback: '' })",
  'f.array(f.string().max(3)).max(4).default([])',
  'f.object({ street: f.string(), zip: f.string().pattern(/^\\d{5}$/) }).optional()',
] as const;
const COLLECTIONS = ['notes', 'tags', 'people'] as const;

/** The API as the edits leave it. */
interface State {
  /** Per collection: absent (null), or its fields by slot (null: no field there). */
  readonly collections: readonly ((string | null)[] | null)[];
  readonly released: number;
  readonly title: string;
}

type Edit =
  | { readonly kind: 'field'; readonly c: number; readonly slot: number; readonly def: string | null }
  | { readonly kind: 'collection'; readonly c: number }
  | { readonly kind: 'release' }
  | { readonly kind: 'title'; readonly title: string };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('field' as const), c: fc.nat(2), slot: fc.nat(3), def: fc.option(fc.constantFrom(...FIELDS)) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('collection' as const), c: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'release' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('title' as const), title: fc.constantFrom('Notes', 'Shop', 'Tiny') }) },
);

function apply(state: State, e: Edit): State {
  switch (e.kind) {
    case 'field':
      return {
        ...state,
        collections: state.collections.map((c, i) => (i === e.c ? (c ?? [null, null, null, null]).map((f, slot) => (slot === e.slot ? e.def : f)) : c)),
      };
    case 'collection':
      return { ...state, collections: state.collections.map((c, i) => (i === e.c ? (c ? null : ['f.string()', null, null, null]) : c)) };
    case 'release':
      return { ...state, released: Math.min(state.released + 1, 2) };
    case 'title':
      return { ...state, title: e.title };
  }
}

function source(state: State): string {
  const versions = ['v1', 'v2', 'v3'].map((v, i) => `${v}: ${i < state.released ? `{ released: '2026-0${i + 1}-01' }` : '{}'}`).join(', ');
  const collections = state.collections
    .map((fields, i) => {
      if (!fields) return '';
      const defs = fields.flatMap((def, slot) => (def ? [`f${slot}: ${def}`] : []));
      return `    ${COLLECTIONS[i]}: collection({ fields: { id: f.id(), ${defs.join(', ')} } }),\n`;
    })
    .join('');
  return `import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'edits',
  title: '${state.title}',
  versions: { ${versions} },
  collections: {
${collections}    always: collection({ fields: { id: f.id(), label: f.string() } }),
  },
});
`;
}

/** Every file of `dir` with its text. */
const snapshot = (dir: string): Record<string, string> =>
  existsSync(dir) ? Object.fromEntries(listFiles(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')])) : {};

/** The lock's text, or null when there is none (nothing released). */
const lockOf = (dir: string): string | null =>
  existsSync(path.join(dir, 'restgen.lock.json')) ? readFileSync(path.join(dir, 'restgen.lock.json'), 'utf8') : null;

/** What a run said, comparable between runs in two folders. */
const said = (r: GenerateResult) => ({
  ok: r.ok,
  diagnostics: r.diagnostics.map((d) => `${d.code} ${d.message}`),
  lock: r.lockFindings.map((f) => f.fingerprint),
});

describe('generation through the cache', () => {
  it('writes, after any sequence of edits, what a generation without a cache writes', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 2, maxLength: 5 }), async (edits) => {
        const cached = path.join(tmp.dir, `cached-${++round}`);
        const fresh = path.join(tmp.dir, `fresh-${round}`);
        let state: State = {
          collections: [['f.string().max(20)', 'f.int().min(0).max(100)', null, null], ['f.string()', null, null, null], null],
          released: 0,
          title: 'Notes',
        };
        writeFiles(cached, { 'node_modules/.keep': '' });
        for (const e of [{ kind: 'title', title: 'Notes' } as const, ...edits]) {
          state = apply(state, e);
          writeFiles(cached, { 'api.ts': source(state) });
          // The same module and lock, no output, no cache.
          rmSync(fresh, { recursive: true, force: true });
          writeFiles(fresh, { 'api.ts': source(state), 'node_modules/.keep': '' });
          if (existsSync(path.join(cached, 'restgen.lock.json'))) cpSync(path.join(cached, 'restgen.lock.json'), path.join(fresh, 'restgen.lock.json'));
          const before = snapshot(path.join(cached, 'generated'));
          const a = await generate({ apiPath: path.join(cached, 'api.ts'), today: '2026-11-23' });
          const b = await generate({ apiPath: path.join(fresh, 'api.ts'), today: '2026-11-23' });
          expect(said(a), JSON.stringify(e)).toEqual(said(b));
          // A refused run writes nothing, with a cache or without.
          expect(snapshot(path.join(cached, 'generated'))).toEqual(a.ok ? snapshot(path.join(fresh, 'generated')) : before);
          if (a.ok) expect(lockOf(cached)).toBe(lockOf(fresh));
        }
        rmSync(cached, { recursive: true, force: true });
      }),
      { numRuns: 6, seed: 4301, endOnFailure: true },
    );
  }, 240_000);
});
