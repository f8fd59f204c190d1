/**
 * @module The up-to-date cache: after a complete run, restgen records every input (the API module and every
 * file it loaded, restgen itself, template overrides, formatter settings) and every output, each with its
 * content hash and its file stamp (size, times, inode; see `file-stamp.ts`). When none of that changed and
 * every output file is still intact, a run can answer "up to date" without loading the API, rendering or
 * formatting anything, and, because a file whose stamp is unchanged is not read at all, without reading the
 * outputs either: the answer costs one `stat` per file.
 *
 * The cache lives in `node_modules/.cache/restgen/` beside the project (never in the output folder, so it
 * adds nothing to review). A missing or unreadable cache only means a full run.
 */
import { hash as oneShot } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FileLanguage } from '../emit/types.ts';
import { readHeader } from '../format/header.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { isOwnFile, readOutputFile, readOutputHead, statOutput, writeAtomic } from '../write/output-folder.ts';
import { stampFromStats, stampOf, treeStamp, trusted, type Stamp } from './file-stamp.ts';
import { settingsStamp, type SettingsStamp } from './settings-stamp.ts';

/** Bumped whenever the record's shape changes; a record of another format is ignored. */
const FORMAT = 3;

/** One output file as recorded. */
export interface OutputRecord {
  /** Its header's `in` hash: the unformatted content with the formatter settings. */
  readonly input: string;
  readonly language: FileLanguage;
  readonly settings: string;
  readonly stamp: Stamp;
}

/** What a complete run records. */
export interface RunRecord {
  readonly format: typeof FORMAT;
  /** restgen itself and the template overrides (see {@link runKey}). */
  readonly key: string;
  /** The parts generated (`partsText`): a run for other parts is never answered from this record. */
  readonly parts: string;
  /** Input file (absolute path) to its content hash and stamp. */
  readonly inputs: Readonly<Record<string, { readonly hash: string; readonly stamp: Stamp | null }>>;
  /** Output file (relative POSIX path) to what it was generated from, and its stamp. */
  readonly outputs: Readonly<Record<string, OutputRecord>>;
  /** The stamp of the prettier configuration over the output folders, when it is plain data (see `settings-stamp.ts`). */
  readonly settings: string | null;
}

/** A record and the time it was written (its file's modification time), against which stamps are trusted. */
export interface SavedRecord {
  readonly record: RunRecord;
  readonly recordedAt: bigint;
}

/**
 * The hash an input's content is recorded with (also the lock's, for the lock's facts, and the inputs
 * record's): SHA-1, which only has to tell changed bytes (no one gains by matching it) and hashes the
 * megabytes of a large lock at twice SHA-256's speed in software.
 */
export const contentHash = (data: string | Buffer): string => oneShot('sha1', data, 'hex').slice(0, 16);

function hashFile(file: string): string | undefined {
  try {
    return contentHash(readFileSync(file));
  } catch {
    // A file that vanished is simply "changed".
    return undefined;
  }
}

/** The folders of restgen that can change what it generates, in either layout: sources or a packed install. */
const RESTGEN_PARTS = ['dist', 'generator', 'templates', 'runtime'] as const;

/**
 * A stamp of restgen's own code and templates below `root`, and the newest file time among them. It works
 * from the sources (`generator/`, `templates/`) and from a packed install (`dist/`, `templates/`,
 * `runtime/`): whichever folders exist are stamped, file by file, without reading them. Any change to
 * restgen, even a reinstall of the same version, invalidates every cache (which only costs one full run).
 */
export function restgenStamp(root: string = PACKAGE_ROOT): { readonly stamp: string; readonly newest: bigint } {
  let newest = 0n;
  const parts: string[] = [];
  for (const part of RESTGEN_PARTS) {
    const tree = treeStamp(path.join(root, part));
    parts.push(`${part}\0${tree?.stamp ?? 'none'}`);
    if (tree && tree.newest > newest) newest = tree.newest;
  }
  parts.push(`package.json\0${stampOf(path.join(root, 'package.json')) ?? 'none'}`);
  return { stamp: parts.join('\n'), newest };
}

/** The cache file for one (API module, output folder, template folder) triple; `kind` names a companion file. */
export function cacheFile(apiPath: string, outDir: string, templatesDir: string | undefined, kind = ''): string {
  let dir = path.dirname(apiPath);
  let base = path.join(os.tmpdir(), 'restgen-cache');
  for (;;) {
    if (existsSync(path.join(dir, 'node_modules'))) {
      base = path.join(dir, 'node_modules', '.cache', 'restgen');
      break;
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // Named as before contentHash was SHA-1, so that no cache of an earlier run is left behind under another name.
  const name = oneShot('sha256', [apiPath, outDir, templatesDir ?? ''].join('\0'), 'hex').slice(0, 16);
  return path.join(base, `${name}${kind}.json`);
}

/**
 * The part of the cache key that is not a file of the API: restgen itself and the template overrides,
 * by their stamps, and the newest file time among them (a file changed after the record was written, in
 * the same clock tick, must not pass for unchanged). `own` is restgen's stamp, when the caller has it.
 */
export function runKey(
  templatesDir: string | undefined,
  own: ReturnType<typeof restgenStamp> = restgenStamp(),
): { readonly key: string; readonly newest: bigint } {
  const overrides = templatesDir ? treeStamp(templatesDir) : undefined;
  const newest = overrides && overrides.newest > own.newest ? overrides.newest : own.newest;
  return { key: contentHash([own.stamp, templatesDir ? (overrides?.stamp ?? 'none') : 'builtin'].join('\0')), newest };
}

/**
 * Hashes and stamps the given input files for a record; `known` holds inputs this run already read, stamped
 * before it read them (a change after that shows in the stamp).
 */
export function recordInputs(files: readonly string[], known: ReadonlyMap<string, RunRecord['inputs'][string]> = new Map()): RunRecord['inputs'] {
  return Object.fromEntries(files.map((f) => [f, known.get(f) ?? { stamp: stampOf(f) ?? null, hash: hashFile(f) ?? 'missing' }]));
}

/** The stamps of every file in the output folder now. */
export function outputStamps(outDir: string): ReadonlyMap<string, Stamp> {
  return new Map([...statOutput(outDir)].map(([rel, s]) => [rel, stampFromStats(s)]));
}

/**
 * Saves a record after a complete, successful run, and returns it as {@link readRecord} would read it back, with
 * its file's stamp. Failing to save only costs the next run its shortcut (undefined).
 */
export function saveRecord(
  apiPath: string,
  outDir: string,
  templatesDir: string | undefined,
  record: Omit<RunRecord, 'format'>,
): (SavedRecord & { readonly stamp: Stamp }) | undefined {
  const file = cacheFile(apiPath, outDir, templatesDir);
  const full: RunRecord = { format: FORMAT, ...record };
  try {
    // The one atomic writer: a temporary file of its own, renamed into place (two runs never share one).
    writeAtomic(file, JSON.stringify(full));
    const stats = statSync(file, { bigint: true });
    return { record: full, recordedAt: stats.mtimeNs, stamp: stampFromStats(stats) };
  } catch {
    // Read-only node_modules or a full disk: the cache is an optimisation, the run itself succeeded.
    return undefined;
  }
}

/** The previous complete run's record, if there is one of this format. */
export function readRecord(apiPath: string, outDir: string, templatesDir: string | undefined): SavedRecord | undefined {
  const file = cacheFile(apiPath, outDir, templatesDir);
  try {
    const recordedAt = statSync(file, { bigint: true }).mtimeNs;
    const record = JSON.parse(readFileSync(file, 'utf8')) as RunRecord;
    return record.format === FORMAT ? { record, recordedAt } : undefined;
  } catch {
    // No record yet (or a corrupt one): do a full run.
    return undefined;
  }
}

/**
 * True when output `rel`, recorded as `recorded`, is provably still what was generated: its stamp is
 * unchanged since the record (no read at all), or else its content is intact and carries the recorded
 * input hash (one read). `checked` is called when the second answer was needed.
 */
function outputIntact(outDir: string, rel: string, recorded: OutputRecord, current: Stamp | undefined, recordedAt: bigint, checked: () => void): boolean {
  if (current === undefined) return false;
  if (trusted(recorded.stamp, current, recordedAt)) return true;
  checked();
  const text = readOutputFile(outDir, rel);
  const header = text === undefined ? undefined : readHeader(text);
  return header?.intact === true && !header.earlier && header.hashes.input === recorded.input;
}

/**
 * The outputs whose stamps prove them unchanged since `saved` was recorded, with their recorded input
 * hashes: each is restgen's, intact, and generated from that input, without reading it.
 */
export function unchangedOutputs(saved: SavedRecord | undefined, stamps: ReadonlyMap<string, Stamp>): ReadonlyMap<string, string> {
  const unchanged = new Map<string, string>();
  for (const [rel, o] of Object.entries(saved?.record.outputs ?? {})) if (trusted(o.stamp, stamps.get(rel), saved!.recordedAt)) unchanged.set(rel, o.input);
  return unchanged;
}

/** Asks the formatter for the settings key of one output file (see `Formatter.settingsKey`). */
export type SettingsOf = (absPath: string, language: FileLanguage) => Promise<string>;

/** The stamp of the formatter configuration over the folders that hold `outputs` inside `outDir`. */
export function outputSettingsStamp(outDir: string, outputs: Iterable<string>): SettingsStamp | undefined {
  const dirs = new Set<string>([outDir]);
  for (const rel of outputs) dirs.add(path.join(outDir, path.posix.dirname(rel)));
  return settingsStamp(dirs);
}

/**
 * True when every output's recorded formatter settings still hold: by the stamp of the configuration files
 * when it is unchanged (no formatter needed), or else by asking the formatter once per folder and language.
 */
async function settingsHold(outDir: string, record: RunRecord, recordedAt: bigint, settingsOf: SettingsOf): Promise<{ holds: boolean; stamp: string | null }> {
  const current = outputSettingsStamp(outDir, Object.keys(record.outputs));
  if (current && record.settings === current.stamp && current.newest < recordedAt) return { holds: true, stamp: current.stamp };
  const asked = new Map<string, string>();
  for (const [rel, o] of Object.entries(record.outputs)) {
    const key = `${path.posix.dirname(rel)}\0${o.language}`;
    if (!asked.has(key)) asked.set(key, await settingsOf(path.join(outDir, rel), o.language));
    if (asked.get(key) !== o.settings) return { holds: false, stamp: null };
  }
  return { holds: true, stamp: current?.stamp ?? null };
}

/**
 * True when the previous complete run's record still holds: same inputs, same restgen, same formatter
 * settings, and every output file present, generated, unedited and with the recorded content. Returns
 * the sorted list of output files when so (`saved` is the record, see {@link readRecord}). Files are judged by their stamps and read only when a stamp
 * changed; when such a file proves unchanged, the record is saved again with the new stamps, so that the
 * next run need not read it. The formatter is asked only when its configuration files changed.
 */
export async function upToDate(
  saved: SavedRecord,
  apiPath: string,
  outDir: string,
  templatesDir: string | undefined,
  settingsOf: SettingsOf,
  own: ReturnType<typeof runKey> = runKey(templatesDir),
): Promise<readonly string[] | undefined> {
  const { record, recordedAt } = saved;
  if (record.key !== own.key || own.newest >= recordedAt) return undefined;
  let refreshed = false;
  const refresh = () => void (refreshed = true);
  const inputs: Record<string, { hash: string; stamp: Stamp | null }> = {};
  for (const [file, recorded] of Object.entries(record.inputs)) {
    const stamp = stampOf(file) ?? null;
    const stillMissing = stamp === null && recorded.stamp === null;
    if (!stillMissing && !trusted(recorded.stamp ?? undefined, stamp ?? undefined, recordedAt)) {
      if ((hashFile(file) ?? 'missing') !== recorded.hash) return undefined;
      refresh();
    }
    inputs[file] = { hash: recorded.hash, stamp };
  }
  const settings = await settingsHold(outDir, record, recordedAt, settingsOf);
  if (!settings.holds) return undefined;
  if (settings.stamp !== record.settings) refresh();
  const stamps = outputStamps(outDir);
  // A file the record does not know is fine when it is the user's, and stale when restgen generated it.
  for (const rel of stamps.keys()) if (!record.outputs[rel] && isOwnFile(rel, readOutputHead(outDir, rel), path.join(outDir, rel))) return undefined;
  const outputs: Record<string, OutputRecord> = {};
  for (const [rel, o] of Object.entries(record.outputs)) {
    const current = stamps.get(rel);
    if (!outputIntact(outDir, rel, o, current, recordedAt, refresh)) return undefined;
    outputs[rel] = { ...o, stamp: current! };
  }
  if (refreshed) saveRecord(apiPath, outDir, templatesDir, { key: record.key, parts: record.parts, inputs, outputs, settings: settings.stamp });
  return Object.keys(outputs).sort();
}
