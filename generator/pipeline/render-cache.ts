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
 * the cache (the same key always renders the same text), so output stays deterministic. Only the entries
 * a run used are saved, so the cache does not grow with history.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { memoKey } from '../emit/keyed-file.ts';
import type { Memo } from '../emit/types.ts';

/** Bumped whenever the file's shape or the way keys are computed changes. */
const FORMAT = 3;

interface CacheFile {
  readonly format: typeof FORMAT;
  readonly key: string;
  /** Entry hash to the offset and length of its text after the index line. */
  readonly entries: Readonly<Record<string, readonly [number, number]>>;
  /** The content identity of the restgen the key's stamps stand for, so a run with a cache need not compute it. */
  readonly identity: string;
}

/** A render cache loaded for one run. */
export interface RenderCache {
  /** Renders through the cache. */
  readonly memo: Memo;
  /** Entries found in the cache and rendered anew, so far. */
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
 * The stored entries. The file is the JSON of {@link CacheFile} (each entry an offset and a length), a
 * newline, then every text one after the other: reading it parses only the small index, and a text is
 * sliced out when it is used.
 */
function readCache(file: string, key: string): { found: Map<string, string>; identity?: string } {
  const found = new Map<string, string>();
  let identity: string | undefined;
  try {
    const all = readFileSync(file, 'utf8');
    const newline = all.indexOf('\n');
    const head = JSON.parse(all.slice(0, newline)) as Partial<CacheFile> | null;
    if (head?.format !== FORMAT || head.key !== key || typeof head.entries !== 'object' || head.entries === null) return { found };
    const body = newline + 1;
    let total = 0;
    for (const [hash, at] of Object.entries(head.entries)) {
      if (!Array.isArray(at) || typeof at[0] !== 'number' || typeof at[1] !== 'number' || body + at[0] + at[1] > all.length) return { found: new Map() };
      found.set(hash, all.slice(body + at[0], body + at[0] + at[1]));
      total += at[1];
    }
    // The texts fill the rest of the file exactly: a truncated or appended-to file is not trusted.
    if (body + total !== all.length) return { found: new Map() };
    if (typeof head.identity === 'string') identity = head.identity;
  } catch {
    // No cache yet, or one that cannot be read: everything is rendered.
    return { found: new Map() };
  }
  return identity === undefined ? { found } : { found, identity };
}

/** Loads the render cache stored in `file` for a restgen and templates identified by `key`. */
export function loadRenderCache(file: string, key: string): RenderCache {
  const { found: stored, identity } = readCache(file, key);
  const used = new Map<string, string>();
  const stats = { hits: 0, misses: 0 };
  const release = (): void => {
    used.clear();
    stored.clear();
  };
  // A text computed inside another entry's computation is part of that entry: it is not stored twice.
  let depth = 0;
  const memo: Memo = (kind, input, compute) => {
    if (depth > 0) return compute();
    const hash = memoKey(kind, input);
    const known = used.get(hash) ?? stored.get(hash);
    if (known !== undefined) {
      stats.hits++;
      used.set(hash, known);
      return known;
    }
    stats.misses++;
    depth++;
    try {
      const text = compute();
      used.set(hash, text);
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
      if (stats.misses === 0 && used.size === stored.size && current === identity) return release();
      const entries: Record<string, readonly [number, number]> = {};
      let offset = 0;
      for (const [hash, text] of used) {
        entries[hash] = [offset, text.length];
        offset += text.length;
      }
      // A temporary name of its own: two runs saving at once (a watcher and a build) never write into
      // one file; the last rename wins, whole.
      const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        mkdirSync(path.dirname(file), { recursive: true });
        // Written in chunks of about a megabyte: the texts of a large API are never joined into one string.
        const fd = openSync(temp, 'w');
        try {
          let chunk: string[] = [`${JSON.stringify({ format: FORMAT, key, entries, identity: current } satisfies CacheFile)}\n`];
          let size = 0;
          for (const text of used.values()) {
            chunk.push(text);
            size += text.length;
            if (size < 1 << 20) continue;
            writeSync(fd, chunk.join(''));
            chunk = [];
            size = 0;
          }
          writeSync(fd, chunk.join(''));
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
