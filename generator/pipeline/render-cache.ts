/**
 * @module The render cache: rendered text keyed by a hash of exactly what it was rendered from, so that a
 * run renders only what changed. A file's key is its template's name and its whole view model (the
 * projection of the IR that one file shows: one collection in one version for most files); the OpenAPI
 * document and CHANGES.md are keyed by the projections they are built from (one version, every version).
 * restgen itself and the template overrides are part of the cache's key (see `runKey`): another restgen
 * or other templates start from an empty cache.
 *
 * It lives beside the run record in `node_modules/.cache/restgen/` (never in the output folder). A
 * missing, unreadable or corrupt cache only means rendering everything; what is rendered never depends on
 * the cache (the same key always renders the same text), so output stays deterministic.
 *
 * A whole file's text is kept only while runs use it (once written, the file's header stands for it). A
 * part other files are assembled from (an OpenAPI document's collection, CHANGES.md's comparison of one
 * collection) and a fact (a collection's server summary, a lock verdict, a template's precompiled code) are
 * kept even when a run does not use them: a file whose header proves it up to date is not rendered, yet its
 * parts are what the next change to it needs. An entry no run used for {@link KEEP_RUNS} saves is dropped,
 * so the cache does not grow with history.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { memoKey } from '../emit/keyed-file.ts';
import type { Memo, MemoHolds } from '../emit/types.ts';

/** Bumped whenever the file's shape or the way keys are computed changes. */
const FORMAT = 4;

/** How many saves an entry survives unused. */
export const KEEP_RUNS = 16;

interface CacheFile {
  readonly format: typeof FORMAT;
  readonly key: string;
  /** How many times the cache was saved: an entry records the save that last used it. */
  readonly generation: number;
  /**
   * Entry hash to the offset and length of its text after the index line, and, for a part, the generation
   * that last used it (-1 for a file's text).
   */
  readonly entries: Readonly<Record<string, readonly [number, number, number]>>;
  /** The content identity of the restgen the key's stamps stand for, so a run with a cache need not compute it. */
  readonly identity: string;
}

/** A render cache loaded for one run. */
export interface RenderCache {
  /** Renders through the cache. */
  readonly memo: Memo;
  /** Entries found in the cache and rendered anew, so far (facts not counted). */
  readonly stats: { hits: number; misses: number };
  /** The identity of the restgen (and templates) the cache was written by, by content (see `code-identity.ts`). */
  readonly identity: string | undefined;
  /**
   * Writes the entries this run used (atomically) and lets go of every text; failing to write only costs
   * the next run its shortcut. `identity` is stored with the entries: it belongs to the same key.
   */
  save(identity: string): void;
}

/**
 * The stored entries. The file is the JSON of {@link CacheFile} (each entry a byte offset and length), a
 * newline, then every text's UTF-8 bytes one after the other: reading it parses only the small index, a
 * text is decoded when it is used, and an entry kept without being used is written back as the bytes it was
 * read as (a large API's OpenAPI parts are megabytes that most runs never look at).
 */
interface Stored {
  readonly bytes: Buffer;
  /** The generation that last used it; -1 for a file's text. */
  readonly used: number;
}

const FILE = -1;

function readCache(file: string, key: string): { found: Map<string, Stored>; generation: number; identity?: string } {
  const none = { found: new Map<string, Stored>(), generation: 0 };
  try {
    const all = readFileSync(file);
    const newline = all.indexOf(0x0a);
    const head = JSON.parse(all.toString('utf8', 0, newline)) as Partial<CacheFile> | null;
    if (head?.format !== FORMAT || head.key !== key || typeof head.entries !== 'object' || head.entries === null || typeof head.generation !== 'number') return none;
    const found = new Map<string, Stored>();
    const body = newline + 1;
    let total = 0;
    for (const [hash, at] of Object.entries(head.entries)) {
      if (!Array.isArray(at) || typeof at[0] !== 'number' || typeof at[1] !== 'number' || typeof at[2] !== 'number' || body + at[0] + at[1] > all.length) return none;
      found.set(hash, { bytes: all.subarray(body + at[0], body + at[0] + at[1]), used: at[2] });
      total += at[1];
    }
    // The texts fill the rest of the file exactly: a truncated or appended-to file is not trusted.
    if (body + total !== all.length) return none;
    return typeof head.identity === 'string' ? { found, generation: head.generation, identity: head.identity } : { found, generation: head.generation };
  } catch {
    // No cache yet, or one that cannot be read: everything is rendered.
    return none;
  }
}

/** Loads the render cache stored in `file` for a restgen and templates identified by `key`. */
export function loadRenderCache(file: string, key: string): RenderCache {
  const { found: stored, generation, identity } = readCache(file, key);
  const used = new Map<string, { text: string; holds: MemoHolds; bytes?: Buffer }>();
  const stats = { hits: 0, misses: 0 };
  const release = (): void => {
    used.clear();
    stored.clear();
  };
  // A text computed inside another entry's computation is part of that entry: it is not stored twice. A fact
  // is its own (a template compiled while a file renders is the same template for every other file).
  let depth = 0;
  // Counts of the facts: they do not show in `stats`, yet a new one makes the cache worth saving.
  const facts = { hits: 0, misses: 0 };
  const memo: Memo = (kind, input, compute, holds = 'part') => {
    if (depth > 0 && holds !== 'fact') return compute();
    const counts = holds === 'fact' ? facts : stats;
    const hash = memoKey(kind, input);
    const again = used.get(hash);
    if (again !== undefined) {
      counts.hits++;
      return again.text;
    }
    const known = stored.get(hash);
    if (known !== undefined) {
      counts.hits++;
      const text = known.bytes.toString('utf8');
      used.set(hash, { text, holds, bytes: known.bytes });
      return text;
    }
    counts.misses++;
    depth++;
    try {
      const text = compute();
      used.set(hash, { text, holds });
      return text;
    } finally {
      depth--;
    }
  };
  return {
    memo,
    stats,
    identity,
    save(current) {
      // Nothing new: the stored entries are still all there is (their ages are refreshed by the next save).
      if (stats.misses === 0 && facts.misses === 0 && current === identity) return release();
      const next = generation + 1;
      // What this run used, then what an earlier run used recently enough.
      // A text rendered by this run is encoded only when its chunk is written: never all of them at once.
      const kept: [string, Buffer | string, number][] = [...used].map(([hash, { text, holds, bytes }]) => [hash, bytes ?? text, holds === 'file' ? FILE : next]);
      for (const [hash, entry] of stored) if (!used.has(hash) && entry.used !== FILE && entry.used > next - KEEP_RUNS) kept.push([hash, entry.bytes, entry.used]);
      const entries: Record<string, readonly [number, number, number]> = {};
      let offset = 0;
      for (const [hash, data, at] of kept) {
        const length = typeof data === 'string' ? Buffer.byteLength(data, 'utf8') : data.length;
        entries[hash] = [offset, length, at];
        offset += length;
      }
      // A temporary name of its own: two runs saving at once (a watcher and a build) never write into
      // one file; the last rename wins, whole.
      const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        // Written in chunks of about a megabyte: the texts of a large API are never joined into one string, and
        // texts rendered by this run are encoded by the write itself (no buffer per text), those read as bytes
        // are written as they were read.
        const fd = openSync(temp, 'w');
        try {
          writeSync(fd, `${JSON.stringify({ format: FORMAT, key, generation: next, entries, identity: current } satisfies CacheFile)}\n`);
          let texts: string[] = [];
          let size = 0;
          const flush = () => {
            if (texts.length > 0) writeSync(fd, texts.join(''));
            texts = [];
            size = 0;
          };
          for (const [, data] of kept) {
            if (typeof data !== 'string') {
              flush();
              writeSync(fd, data);
              continue;
            }
            texts.push(data);
            size += data.length;
            if (size >= 1 << 20) flush();
          }
          flush();
        } finally {
          closeSync(fd);
        }
        renameSync(temp, file);
      } catch {
        // Read-only node_modules or a full disk: the cache is an optimisation, the run itself succeeded.
        rmSync(temp, { force: true });
      }
      release();
    },
  };
}
