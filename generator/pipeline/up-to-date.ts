/**
 * @module The up-to-date proof, the stage before any other: the outputs were generated from exactly these inputs
 * (the API module and every file it loaded, the lock, restgen and its templates, the options, the formatter's
 * settings), and no output was touched since. It is the record of the last complete run (`cache.ts`): a file whose
 * stamp is unchanged is not even read, one whose stamp moved is read and compared by content. Without a record (a
 * fresh clone, CI after `npm ci`) there is no proof: the run generates in memory and compares.
 */
import path from 'node:path';
import type { FileLanguage } from '../emit/types.ts';
import type { Formatter } from '../format/formatter.ts';
import { headerOf, readHeader } from '../format/header.ts';
import { bytesIfPresent, isOwnFile, readOutputFile, readOutputHead, statOutput } from '../write/output-folder.ts';
import type { Cache, InputRecord, OutputRecord, RunRecord } from './cache.ts';
import { contentHash } from './digest.ts';
import type { Run } from './run.ts';
import { stampFromStats, stampOf, trusted } from './stamps.ts';

const LANGUAGES: Readonly<Record<string, FileLanguage>> = { '.ts': 'typescript', '.json': 'json', '.md': 'markdown' };

/**
 * The configuration files the formatter reads for the output folders `dirs` (relative to `outDir`), sorted, when
 * they are plain data (then they are inputs like the API's files); undefined when only prettier can tell.
 */
export function configFiles(formatter: Formatter, outDir: string, dirs: Iterable<string>): string[] | undefined {
  const files = new Set<string>();
  for (const dir of dirs) {
    const found = formatter.configFiles(path.join(outDir, dir));
    if (!found) return undefined;
    for (const f of found) files.add(f);
  }
  return [...files].sort();
}

/** True when every recorded formatter setting still holds: by the configuration files, else by asking prettier. */
async function settingsHold(run: Run, record: RunRecord): Promise<boolean> {
  const keys = Object.entries(record.settings).map(([key, value]) => [...key.split('\0'), value] as [string, FileLanguage, string]);
  const files = configFiles(run.formatter, run.outDir, new Set(keys.map(([dir]) => dir)));
  if (files && record.configs && files.join('\0') === record.configs.join('\0')) return true;
  for (const [dir, language, value] of keys) if ((await run.settingsOf(path.join(run.outDir, dir), language)) !== value) return false;
  return true;
}

/** True when output `rel`, its stamp moved, still holds what the run recorded wrote: its header and body, intact. */
function sameOutput(run: Run, rel: string, o: OutputRecord): boolean {
  const bytes = readOutputFile(run.outDir, rel);
  const language = LANGUAGES[path.posix.extname(rel)];
  if (!bytes || !language || readHeader(bytes)?.intact !== true) return false;
  const header = headerOf(language, run.sourcePath, o.out);
  return bytes.subarray(0, header.length).equals(header);
}

/**
 * The outputs (sorted) when the last run's record proves them up to date, else undefined. Files are judged by their
 * stamps and read only when a stamp moved; when such a file proves unchanged, the record is kept with its new stamp.
 */
export async function proveUpToDate(run: Run, cache: Cache): Promise<readonly string[] | undefined> {
  const { record, recordedAt } = cache;
  if (!record) return undefined;
  let moved = false;
  const inputs: Record<string, InputRecord> = {};
  for (const [file, recorded] of Object.entries(record.inputs)) {
    const stamp = stampOf(file) ?? null;
    if (!(stamp === null && recorded.stamp === null) && !trusted(recorded.stamp, stamp ?? undefined, recordedAt)) {
      const bytes = bytesIfPresent(file);
      if ((bytes === undefined ? 'missing' : contentHash(bytes)) !== recorded.hash) return undefined;
      moved = true;
    }
    inputs[file] = { hash: recorded.hash, stamp };
  }
  if (!(await settingsHold(run, record))) return undefined;
  const stats = statOutput(run.outDir);
  const outputs: Record<string, OutputRecord> = {};
  for (const [rel, o] of Object.entries(record.outputs)) {
    const s = stats.get(rel);
    const stamp = s && stampFromStats(s);
    if (!stamp) return undefined;
    if (!trusted(o.stamp, stamp, recordedAt)) {
      if (!sameOutput(run, rel, o)) return undefined;
      moved = true;
    }
    outputs[rel] = { ...o, stamp };
  }
  // A file the record does not know is fine when it is not this API's (the user's, another output folder's).
  for (const rel of stats.keys())
    if (!(rel in record.outputs) && isOwnFile(rel, readOutputHead(run.outDir, rel), path.join(run.outDir, rel), run.sourcePath)) return undefined;
  if (moved) cache.save({ ...record, inputs, outputs });
  return Object.keys(outputs).sort();
}
