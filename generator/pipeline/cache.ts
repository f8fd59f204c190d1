/**
 * @module The one cache around the stages, in `node_modules/.cache/restgen/` (never in the output folder). It keeps
 * two things for one (API module, output folder, templates) triple:
 * - the record of the last complete run: every input with its hash and stamp, the formatter settings, and every
 *   output with its key (renderer and data), `out` hash and stamp. It is the one up-to-date proof (`up-to-date.ts`),
 *   and tells which outputs a changed run need not render;
 * - texts renderers computed (the pieces files are composed of), by the hash of renderer and data, so a changed run
 *   renders only the pieces a change reaches. Whole files are not kept: the record vouches for them on disk.
 * Both belong to one key: restgen itself (its files' stamps), the template overrides and the options. Another key
 * starts empty. A missing, foreign, truncated or corrupt cache only costs speed: nothing read from it is used
 * unless it checks out, and what is rendered never depends on it.
 *
 * The record is `<name>.json`, all an up-to-date run reads. Texts are stored in pack files indexed by
 * `<name>.texts.json`: each run appends what it computed to one new pack, so a one-field change neither reads nor
 * rewrites the megabytes it did not touch. An entry no run used for {@link KEEP_RUNS} saves is dropped; when packs are
 * many or mostly dead, the live texts move into the new one.
 */
import { hash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeAtomic } from '../write/output-folder.ts';
import type { Stamp } from './stamps.ts';

/** Bumped whenever the files' shape or the way keys are computed changes (3 and 4 were earlier shapes of the record). */
const FORMAT = 5;
/** How many saves an unused text survives. */
const KEEP_RUNS = 16;
/** More packs than this, or more dead bytes than live ones (beyond 4 MiB), and a save compacts them. */
const MAX_PACKS = 8;

/** An input file as recorded: its content hash and stamp (`missing` and null when it did not exist). */
export interface InputRecord {
  readonly hash: string;
  readonly stamp: Stamp | null;
}

/** An output as recorded: its key (renderer, data, settings), the `out` hash of its header, and its stamp. */
export interface OutputRecord {
  readonly key: string;
  readonly out: string;
  readonly stamp: Stamp;
}

/** What a complete run records. */
export interface RunRecord {
  /** The API module, every file it loaded, the lock and the formatter's configuration files, by absolute path. */
  readonly inputs: Readonly<Record<string, InputRecord>>;
  /** The formatter settings of each output folder and language (`<folder>\0<language>`, folders relative). */
  readonly settings: Readonly<Record<string, string>>;
  /** The formatter's configuration files (inputs too) when they are plain data; null when only prettier can tell. */
  readonly configs: readonly string[] | null;
  /** Every output, by relative POSIX path. */
  readonly outputs: Readonly<Record<string, OutputRecord>>;
}

/** Where a text is: pack (index into `packs`), byte offset, byte length, CRC-32 of the bytes, last save that used it. */
type Entry = [number, number, number, number, number];

interface RecordFile {
  readonly format: typeof FORMAT;
  readonly key: string;
  readonly record: RunRecord;
}

interface TextsFile {
  readonly format: typeof FORMAT;
  readonly key: string;
  readonly generation: number;
  readonly packs: readonly string[];
  readonly entries: Readonly<Record<string, Entry>>;
}

/** The cache as one run sees it. */
export interface Cache {
  /** The last complete run's record, when it was made under this key. */
  readonly record: RunRecord | undefined;
  /** When the record was written (ns): stamps older than this vouch for their files. */
  readonly recordedAt: bigint;
  /** The text `compute()` returns, or returned before for the same key (a hash of everything the text depends on). */
  memo(key: string, compute: () => string): string;
  /** Texts found and computed so far. */
  readonly stats: { hits: number; misses: number };
  /** Keeps this run's texts, with `record` (else the last one) for the next run; failing only costs speed. */
  save(record: RunRecord | undefined): void;
}

let zlibCrc32: ((data: string | Uint8Array) => number) | undefined;
/** zlib's CRC-32 (of a string: of its UTF-8 bytes), loaded on first use: an up-to-date run never needs it. */
const crc32 = (data: string | Uint8Array): number => (zlibCrc32 ??= process.getBuiltinModule('node:zlib').crc32)(data);

/** The file `file` holds for `key` (and when it was written), if it is of this format and key; else undefined. */
function readOf<T extends { readonly format: number; readonly key: string }>(
  file: string,
  key: string,
  fits: (data: T) => boolean,
): (T & { at: bigint }) | undefined {
  try {
    const at = statSync(file, { bigint: true }).mtimeNs;
    const data = JSON.parse(readFileSync(file, 'utf8')) as T;
    return data.format === FORMAT && data.key === key && fits(data) ? { ...data, at } : undefined;
  } catch {
    // No cache yet, or one that cannot be read: everything is rendered.
    return undefined;
  }
}

/** Whether a texts index names packs and entries that point into them. */
function texts(index: TextsFile): boolean {
  const fits = (e: unknown) => Array.isArray(e) && e.length === 5 && e.every(Number.isInteger) && e[0] >= 0 && e[0] < index.packs.length;
  // Pack names are files beside the index, never a path elsewhere.
  const named = (p: unknown) => typeof p === 'string' && p.endsWith('.pack') && !/[\\/]/.test(p);
  return Array.isArray(index.packs) && index.packs.every(named) && Number.isInteger(index.generation) && Object.values(index.entries).every(fits);
}

/**
 * The cache's index for one (API module, output folder, template folder) triple: in the `node_modules/.cache/restgen/`
 * nearest the module (where build tools keep caches, and where `git clean` and a fresh clone have none), else in the
 * system's temporary folder.
 */
export function cacheFile(apiPath: string, outDir: string, templatesDir: string | undefined): string {
  let base = path.join(os.tmpdir(), 'restgen-cache');
  for (let dir = path.dirname(apiPath); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'node_modules'))) {
      base = path.join(dir, 'node_modules', '.cache', 'restgen');
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  return path.join(base, `${hash('sha256', [apiPath, outDir, templatesDir ?? ''].join('\0'), 'hex').slice(0, 16)}.json`);
}

/** Removes a file of the cache if it can; one that cannot be removed (open elsewhere) goes with a later save. */
function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // EACCES, EBUSY: nothing to be done about it now.
  }
}

/** The cache at `file` for `key`; `newest`: the newest time of restgen's own files (a cache older than it is not used). */
export function openCache(file: string, key: string, newest: bigint): Cache {
  const dir = path.dirname(file);
  const base = path.basename(file, '.json');
  const indexFile = path.join(dir, `${base}.texts.json`);
  const saved = readOf<RecordFile>(file, key, (r) => typeof r.record === 'object' && r.record !== null);
  const last = saved && saved.at > newest ? saved : undefined;
  // Read when a text is first asked for: an up-to-date run reads the record alone.
  let index: TextsFile | undefined;
  let stored: Map<string, Entry> | undefined;
  const storedTexts = (): Map<string, Entry> => {
    if (stored) return stored;
    const read = readOf<TextsFile>(indexFile, key, texts);
    index = read && read.at > newest ? read : undefined;
    return (stored = new Map(Object.entries(index?.entries ?? {})));
  };
  const fds = new Map<number, number | null>();
  /** What this run used: stored entries keep their place, new texts are in this run's pack (`at`: offset, length, CRC). */
  const used = new Map<string, { entry?: Entry; at?: [number, number, number] }>();
  let pack: { name: string; fd: number; size: number; pending: string[]; written: number } | null | undefined;
  const stats = { hits: 0, misses: 0 };

  /** The text at `offset` in the file `fd` holds, if its bytes are still what was written there. */
  const readAt = (fd: number | null, offset: number, length: number, crc: number): string | undefined => {
    if (fd === null) return undefined;
    const bytes = Buffer.allocUnsafe(length);
    return readSync(fd, bytes, 0, length, offset) === length && crc32(bytes) === crc ? bytes.toString('utf8') : undefined;
  };
  const packFd = (p: number): number | null => {
    let fd = fds.get(p);
    if (fd === undefined) {
      try {
        fd = openSync(path.join(dir, index!.packs[p]!), 'r');
      } catch {
        // Removed by a concurrent save: its texts are rendered again.
        fd = null;
      }
      fds.set(p, fd);
    }
    return fd;
  };
  const flush = (): void => {
    if (!pack || pack.pending.length === 0) return;
    const bytes = Buffer.from(pack.pending.join(''), 'utf8');
    pack.pending = [];
    pack.written += writeSync(pack.fd, bytes, 0, bytes.length, pack.written);
  };
  /** Appends a text to this run's pack; undefined when no pack can be written (read-only node_modules). */
  const append = (text: string): [number, number, number] | undefined => {
    if (pack === undefined)
      try {
        mkdirSync(dir, { recursive: true });
        const name = `${base}.${(index?.generation ?? 0) + 1}-${randomBytes(4).toString('hex')}.pack`;
        pack = { name, fd: openSync(path.join(dir, name), 'w+'), size: 0, pending: [], written: 0 };
      } catch {
        pack = null;
      }
    if (pack === null) return undefined;
    const at: [number, number, number] = [pack.size, Buffer.byteLength(text), crc32(text)];
    pack.pending.push(text);
    pack.size += at[1];
    if (pack.size - pack.written > 1 << 20) flush();
    return at;
  };
  const textOf = (u: { entry?: Entry; at?: [number, number, number] }): string | undefined => {
    if (u.entry) return readAt(packFd(u.entry[0]), u.entry[1], u.entry[2], u.entry[3]);
    if (!pack || !u.at) return undefined;
    flush();
    return readAt(pack.fd, ...u.at);
  };
  const close = (): void => {
    for (const fd of fds.values()) if (fd !== null) closeSync(fd);
    if (pack) closeSync(pack.fd);
  };

  /** Writes the texts index for what this run used and kept (see the module comment). */
  const saveTexts = (): void => {
    const packs = index?.packs ?? [];
    const generation = (index?.generation ?? 0) + 1;
    flush();
    // Used now, or recently enough; their texts stay where they are unless the packs are compacted.
    const kept: [string, { entry?: Entry; at?: [number, number, number] }][] = [...used].filter(([, u]) => u.entry || u.at);
    for (const [k, entry] of storedTexts()) if (!used.has(k) && entry[4] > generation - KEEP_RUNS) kept.push([k, { entry }]);
    const live = kept.reduce((n, [, u]) => n + (u.entry?.[2] ?? 0), 0);
    const total = new Set(kept.flatMap(([, u]) => (u.entry ? [u.entry[0]] : []))).size;
    const deadBytes = packs.reduce((n, p) => n + (statSync(path.join(dir, p), { throwIfNoEntry: false })?.size ?? 0), 0) - live;
    const compact = total >= MAX_PACKS || deadBytes > live + (4 << 20);
    const names: string[] = [];
    const entries: Record<string, Entry> = {};
    const packOf = new Map<number, number>();
    for (const [k, u] of kept) {
      const last = used.has(k) ? generation : u.entry![4];
      if (u.entry && !compact) {
        if (!packOf.has(u.entry[0])) packOf.set(u.entry[0], names.push(packs[u.entry[0]]!) - 1);
        entries[k] = [packOf.get(u.entry[0])!, u.entry[1], u.entry[2], u.entry[3], last];
        continue;
      }
      const text = u.entry ? textOf(u) : undefined;
      const at = u.at ?? (text === undefined ? undefined : append(text));
      if (at) entries[k] = [-1, ...at, last];
    }
    flush();
    if (pack) {
      const own = names.push(pack.name) - 1;
      for (const e of Object.values(entries)) if (e[0] === -1) e[0] = own;
    }
    // Atomic: two runs saving at once never write into one file; the last rename wins, whole.
    writeAtomic(indexFile, JSON.stringify({ format: FORMAT, key, generation, packs: names, entries } satisfies TextsFile));
    // Packs the new index does not name are garbage (compacted, another key's, a lost race's), and so are an
    // earlier restgen's render cache files.
    for (const f of readdirSync(dir))
      if (f.startsWith(`${base}.`) && /\.(?:pack|seg|render\.json)$/.test(f) && !names.includes(f)) removeQuietly(path.join(dir, f));
  };

  return {
    record: last?.record,
    recordedAt: last?.at ?? 0n,
    stats,
    memo(k, compute) {
      const known = used.get(k) ?? (storedTexts().has(k) ? { entry: stored!.get(k)! } : undefined);
      const text = known && textOf(known);
      if (text !== undefined) {
        stats.hits++;
        used.set(k, known!);
        return text;
      }
      stats.misses++;
      const computed = compute();
      const at = append(computed);
      used.set(k, at ? { at } : {});
      return computed;
    },
    save(record) {
      try {
        if (used.size > 0) saveTexts();
        if (record) writeAtomic(file, JSON.stringify({ format: FORMAT, key, record } satisfies RecordFile));
      } catch {
        // Read-only node_modules or a full disk: the cache is an optimisation, the run itself succeeded.
        if (pack) removeQuietly(path.join(dir, pack.name));
      } finally {
        close();
      }
    },
  };
}
