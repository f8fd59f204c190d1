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
 * A whole file's text is never kept: once written, the file's header stands for it, and a file rendered again
 * (deleted or edited by hand) is assembled from its parts or rendered from its view, which is all that keeping it
 * would spare; keeping it would write every rendered file a second time (the megabytes of an OpenAPI document on
 * every change to it). A part other files are assembled from (an OpenAPI document's collection, CHANGES.md's
 * comparison of one collection) and a fact (a collection's server summary, a lock verdict, a template's
 * precompiled code) are kept even when a run does not use them: a file whose header proves it up to date is not
 * rendered, yet its parts are what the next change to it needs. An entry no run used for {@link KEEP_RUNS} saves
 * is dropped, so the cache does not grow with history.
 *
 * Stored as a small index (`<name>.json`) and segments of texts (`<name>.<id>.seg`) the index points into: a
 * save appends what this run rendered as one new segment and rewrites only the index, so a change to one
 * field neither rereads nor rewrites the megabytes of parts it did not touch (and frees no disk blocks, which
 * costs on a file system that discards them). When most of the segments' bytes are entries no longer indexed,
 * or there are many segments, the live entries are copied into one new segment and the old ones deleted.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { memoKey } from '../emit/keyed-file.ts';
import type { Memo, MemoHolds } from './memo.ts';
import { stampOf, type Stamp } from './file-stamp.ts';
import { writeAtomic } from '../write/output-folder.ts';
import { removeQuietly, SegmentWriter, Segments, type Appended, type Location } from './render-segments.ts';

/** Bumped whenever the files' shape or the way keys are computed changes. */
const FORMAT = 7;

/** How many saves an entry survives unused. */
export const KEEP_RUNS = 16;

/** More segments than this, or more dead bytes than live ones (beyond {@link SLACK}), and a save compacts them. */
const MAX_SEGMENTS = 12;
const SLACK = 4 << 20;

interface IndexFile {
  readonly format: typeof FORMAT;
  readonly key: string;
  /** How many times the cache was saved: an entry records the save that last used it. */
  readonly generation: number;
  /** The segment files' names, beside the index. */
  readonly segments: readonly string[];
  readonly entries: Readonly<Record<string, Location>>;
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
   * Writes the entries this run rendered and the index (atomically), and lets go of every text; failing to
   * write only costs the next run its shortcut. `identity` is stored with the entries: it belongs to the same key.
   */
  save(identity: string): void;
}

/** A render cache's index as a run left it, held in memory by a resident process with the texts it decoded. */
interface HeldIndex {
  readonly file: string;
  readonly key: string;
  /** The index file's stamp when it was read or written: another value means another process saved since. */
  readonly stamp: Stamp | undefined;
  readonly generation: number;
  readonly segments: readonly string[];
  readonly entries: ReadonlyMap<string, Location>;
  readonly identity: string | undefined;
  /** Decoded texts of indexed entries (never of an entry the index no longer names). */
  readonly texts: ReadonlyMap<string, string>;
}

/**
 * What a render cache keeps between the runs of one process (`--watch`): the index as the last run saved it and
 * the texts runs decoded, so that a run neither reads and parses the index nor reads and decodes a text again.
 * Whatever is held stands only while the index file's stamp is the one held (a save renames a new file into
 * place, so another process's save always changes it); then the cache is loaded from disk again.
 */
export interface ResidentRenderCache {
  /** @internal The index held, if any. */
  held?: HeldIndex;
}

/** An empty {@link ResidentRenderCache}. */
export function createResidentRenderCache(): ResidentRenderCache {
  return {};
}

function readIndex(file: string, key: string): IndexFile | undefined {
  try {
    const index = JSON.parse(readFileSync(file, 'utf8')) as Partial<IndexFile> | null;
    if (index?.format !== FORMAT || index.key !== key || typeof index.generation !== 'number' || !Array.isArray(index.segments)) return undefined;
    if (typeof index.entries !== 'object' || index.entries === null) return undefined;
    const fits = (at: unknown) =>
      Array.isArray(at) && at.length === 5 && at.every((n) => Number.isInteger(n)) && at[0] >= 0 && at[0] < index.segments!.length && at[1] >= 0 && at[2] >= 0;
    if (!Object.values(index.entries).every(fits) || !index.segments.every((s) => typeof s === 'string' && !s.includes('/'))) return undefined;
    return index as IndexFile;
  } catch {
    // No cache yet, or one that cannot be read: everything is rendered.
    return undefined;
  }
}

/**
 * Loads the render cache indexed by `file` for a restgen and templates identified by `key`. With `resident`, what
 * an earlier run of this process held is used instead of the files while they are unchanged, and what this run
 * saves is held for the next one.
 */
export function loadRenderCache(file: string, key: string, resident?: ResidentRenderCache): RenderCache {
  const dir = path.dirname(file);
  const base = path.basename(file, '.json');
  const before = resident?.held;
  const held = before && before.file === file && before.key === key && before.stamp !== undefined && before.stamp === stampOf(file) ? before : undefined;
  if (resident) delete resident.held;
  // Stamped before it is read: a save by another process after that shows in the stamp.
  const indexStamp = resident && !held ? stampOf(file) : undefined;
  const read = held ? undefined : readIndex(file, key);
  const index = held ? { generation: held.generation, segments: held.segments, identity: held.identity } : read;
  const generation = index?.generation ?? 0;
  const stored = new Map<string, Location>(held ? held.entries : read ? Object.entries(read.entries) : []);
  const texts = held?.texts;
  const segments = new Segments(dir, index?.segments ?? []);
  /**
   * What this run used: a stored entry keeps its location; a computed one is appended to this run's segment as it
   * is computed (`fresh`: where it went there), its text kept only where it is needed again cheaply (a fact, or
   * every text in a resident process) or where no segment could be opened (then the save writes it).
   */
  const used = new Map<string, { text?: string; holds: MemoHolds; at?: Location; fresh?: Appended }>();
  const stats = { hits: 0, misses: 0 };
  const next = generation + 1;
  const name = `${base}.${next}-${randomBytes(4).toString('hex')}.seg`;
  // Opened on the first text computed; null when it cannot be (read-only node_modules): texts are then held.
  let writer: SegmentWriter | null | undefined;
  // Writing failed part way (a full disk): this run's segment is incomplete, so the run saves nothing.
  let broken = false;
  const segmentWriter = (): SegmentWriter | null => {
    if (writer !== undefined) return writer;
    try {
      mkdirSync(dir, { recursive: true });
      writer = new SegmentWriter(path.join(dir, name));
    } catch {
      writer = null;
    }
    return writer;
  };
  /** Appends a text to this run's segment; undefined when there is none or writing failed (then `broken`). */
  const stream = (text: string | Buffer): Appended | undefined => {
    const out = broken ? null : segmentWriter();
    if (out === null) return undefined;
    try {
      return out.append(text);
    } catch {
      broken = true;
      return undefined;
    }
  };
  // Counts of the facts: they do not show in `stats`, yet a new one makes the cache worth saving.
  const facts = { hits: 0, misses: 0 };
  /** The text of an entry this run used before and did not keep, from the segment it is in. */
  const readAgain = (entry: { at?: Location; fresh?: Appended }): string | undefined => {
    if (!entry.fresh) return segments.read(entry.at!)?.toString('utf8');
    try {
      return writer!.read(entry.fresh[0], entry.fresh[1]);
    } catch {
      broken = true;
      return undefined;
    }
  };
  const memo: Memo = (kind, input, compute, holds = 'part') => {
    // A whole file's text: rendered, never kept (see the module comment).
    if (holds === 'file') {
      stats.misses++;
      return compute();
    }
    const counts = holds === 'fact' ? facts : stats;
    const hash = memoKey(kind, input);
    const again = used.get(hash);
    if (again !== undefined) {
      counts.hits++;
      const text = again.text ?? readAgain(again);
      if (text !== undefined) return text;
      // Unreadable after all (a concurrent run removed a segment; a full disk): the same key renders the same text.
      const computed = compute();
      used.set(hash, { ...again, text: computed });
      return computed;
    }
    const at = stored.get(hash);
    const kept = at && texts?.get(hash);
    const bytes = at && kept === undefined ? segments.read(at) : undefined;
    if (at && (kept !== undefined || bytes)) {
      counts.hits++;
      const text = kept ?? bytes!.toString('utf8');
      // A stored text read again is read from its segment (a resident process keeps what it decoded).
      used.set(hash, { holds, at, ...(resident || holds === 'fact' ? { text } : {}) });
      return text;
    }
    counts.misses++;
    const text = compute();
    const fresh = holds === 'fact' ? undefined : stream(text);
    used.set(hash, { holds, ...(fresh ? { fresh } : {}), ...(!fresh || resident ? { text } : {}) });
    return text;
  };
  /** Holds the index as `saved` left it (or as it was, when nothing was saved) with every text known of it. */
  const hold = (saved?: Omit<HeldIndex, 'file' | 'key' | 'texts'>): void => {
    if (!resident) return;
    const entries = saved?.entries ?? stored;
    const known = new Map<string, string>();
    for (const hash of entries.keys()) {
      const text = used.get(hash)?.text ?? texts?.get(hash);
      if (text !== undefined) known.set(hash, text);
    }
    const stamp = saved ? saved.stamp : (held?.stamp ?? indexStamp);
    resident.held = {
      file,
      key,
      stamp,
      generation: saved?.generation ?? generation,
      segments: saved?.segments ?? index?.segments ?? [],
      entries,
      identity: saved ? saved.identity : index?.identity,
      texts: known,
    };
  };
  const release = (saved?: Omit<HeldIndex, 'file' | 'key' | 'texts'>): void => {
    segments.close();
    writer?.close();
    hold(saved);
    used.clear();
    stored.clear();
  };
  return {
    memo,
    stats,
    identity: index?.identity,
    save(current) {
      // Nothing new: the stored entries are still all there is (their ages are refreshed by the next save).
      if (stats.misses === 0 && facts.misses === 0 && current === index?.identity) return release();
      // An incomplete segment is never indexed: the next run renders what this one could not store.
      const discard = () => {
        writer?.close();
        if (writer) removeQuietly(writer.file);
        release();
      };
      if (broken) return discard();
      // What this run used, then what an earlier run used recently enough; each with its location when it has one.
      const kept: { hash: string; at?: Location; fresh?: Appended; text?: string; used: number }[] = [];
      for (const [hash, entry] of used) {
        const where = entry.fresh ? { fresh: entry.fresh } : entry.at ? { at: entry.at } : { text: entry.text! };
        kept.push({ hash, ...where, used: next });
      }
      for (const [hash, at] of stored)
        if (!used.has(hash) && at[3] > next - KEEP_RUNS && at[1] + at[2] <= segments.size(at[0])) kept.push({ hash, at, used: at[3] });
      // Compact when the old segments hold mostly dead bytes, or are many: every live text moves to the new segment.
      const live = new Map<number, number>();
      for (const k of kept) if (k.at) live.set(k.at[0], (live.get(k.at[0]) ?? 0) + k.at[2]);
      let total = 0;
      for (const s of live.keys()) total += segments.size(s);
      const liveBytes = [...live.values()].reduce((a, b) => a + b, 0);
      const compact = live.size >= MAX_SEGMENTS || total > 2 * liveBytes + SLACK;
      const names: string[] = [];
      const segmentOf = new Map<number, number>();
      const entries: Record<string, Location> = {};
      // Texts computed by this run are in its segment already; texts held (no segment could be written while the
      // run rendered) and, when compacting, the live texts of old segments are appended now.
      const own: [number, number, number, number, number][] = [];
      for (const k of kept) {
        if (k.at && !compact) {
          let s = segmentOf.get(k.at[0]);
          if (s === undefined) segmentOf.set(k.at[0], (s = names.push(segments.names[k.at[0]]!) - 1));
          entries[k.hash] = [s, k.at[1], k.at[2], k.used, k.at[4]];
          continue;
        }
        let place = k.fresh;
        if (place === undefined) {
          const data = k.text ?? segments.read(k.at!);
          if (data === undefined) continue;
          place = stream(data);
          if (place === undefined) continue;
        }
        const at: [number, number, number, number, number] = [-1, place[0], place[1], k.used, place[2]];
        entries[k.hash] = at;
        own.push(at);
      }
      if (broken) return discard();
      if (own.length > 0) {
        const index = names.push(name) - 1;
        for (const at of own) at[0] = index;
      }
      let saved: Omit<HeldIndex, 'file' | 'key' | 'texts'> | undefined;
      try {
        writer?.flush();
        // The one atomic writer: two runs saving at once (a watcher and a build) never write into one file; the
        // last rename wins, whole.
        writeAtomic(file, JSON.stringify({ format: FORMAT, key, generation: next, segments: names, entries, identity: current } satisfies IndexFile));
        saved = {
          stamp: resident ? stampOf(file) : undefined,
          generation: next,
          segments: names,
          entries: new Map(Object.entries(entries)),
          identity: current,
        };
        // Segments the new index does not name are garbage (another restgen's, compacted ones, a lost race's).
        const keep = new Set(names);
        for (const f of readdirSync(dir))
          if (f.startsWith(`${base}.`) && f.endsWith('.seg') && !keep.has(f)) {
            // Still open elsewhere (Windows refuses to delete an open file): the next save removes it.
            removeQuietly(path.join(dir, f));
          }
      } catch {
        // Read-only node_modules or a full disk: the cache is an optimisation, the run itself succeeded.
        if (writer) removeQuietly(writer.file);
      }
      release(saved);
    },
  };
}
