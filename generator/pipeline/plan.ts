/**
 * @module The plan stage: every file the emitters described, compared with the output folder. A file the last run
 * recorded under the same key (renderer, data, formatter settings) and that nobody touched since is neither rendered
 * nor read; every other file is rendered through the cache, formatted, given its header and compared byte for byte.
 * The plan says what to write and remove (`generate`) or what is stale and why (`check`); it writes nothing, and a
 * file that is not restgen's is a conflict, never a write.
 */
import path from 'node:path';
import { headedBytes, readHeader } from '../format/header.ts';
import { ownFiles, readOutputFile, sameBytes, statOutput } from '../write/output-folder.ts';
import type { Cache, OutputRecord } from './cache.ts';
import { hashOf } from './digest.ts';
import { keyOf, recallThrough, renderThrough, type Emitted } from './emit.ts';
import type { StaleReason } from './generate-types.ts';
import type { Run } from './run.ts';
import { stampFromStats, trusted } from './stamps.ts';

/** What the plan stage found. */
export interface Plan {
  /** Every output, sorted. */
  readonly produced: readonly string[];
  /** Files to write (generate), each as the bytes to write. */
  readonly writes: { readonly path: string; readonly content: Buffer[] }[];
  /** Files of this API no longer produced (generate removes them; check reports them). */
  readonly removals: readonly string[];
  /** Check: files that are missing, edited, outdated or no longer produced, and why. */
  readonly staleReasons: Readonly<Record<string, StaleReason>>;
  /** Files in the way that are not restgen's. */
  readonly conflicts: readonly string[];
  /** How many files were rendered and formatted. */
  readonly formatted: number;
  /** Each output as the record lists it; the stamp of a file to write is taken once written. */
  readonly outputs: Readonly<Record<string, Omit<OutputRecord, 'stamp'> & { readonly stamp?: string }>>;
  /** The formatter settings of each output folder and language (`<folder>\0<language>`). */
  readonly settings: Readonly<Record<string, string>>;
}

/** Compares the emitted files with the output folder of `run` (see the module comment). */
export async function planOutputs(run: Run, { files, template }: Emitted, cache: Cache): Promise<Plan> {
  const { outDir, mode, sourcePath, options } = run;
  const stamps = new Map([...statOutput(outDir)].map(([rel, s]) => [rel, stampFromStats(s)]));
  /** The last run's record of `rel` while its file is provably as that run left it. */
  const recorded = (rel: string): OutputRecord | undefined => {
    const o = cache.record?.outputs[rel];
    return o && trusted(o.stamp, stamps.get(rel), cache.recordedAt) ? o : undefined;
  };
  const settings: Record<string, string> = {};
  const outputs: Record<string, Omit<OutputRecord, 'stamp'> & { stamp?: string }> = {};
  const writes: { path: string; content: Buffer[] }[] = [];
  const staleReasons: Record<string, StaleReason> = {};
  const conflicts: string[] = [];
  let formatted = 0;
  // restgen's own templates lay files out exactly as prettier prints them with its defaults; a user's template
  // override comes with no such promise, so its files are formatted.
  const exact = options.templatesDir === undefined;
  const recall = recallThrough(cache);
  // One file at a time, let go before the next: a large API never holds every rendered file at once.
  for (const file of files) {
    const dir = path.posix.dirname(file.path);
    const settingsKey = (settings[`${dir}\0${file.language}`] ??= await run.settingsOf(path.join(outDir, dir), file.language));
    const key = hashOf(keyOf(file, recall), settingsKey);
    const before = recorded(file.path);
    if (before?.key === key) {
      outputs[file.path] = before;
      continue;
    }
    run.lap('compare');
    // A file generate recorded and nobody touched since is not read: its recorded `out` hash tells whether its bytes
    // change (a key can change and the text not: the client shows no maximum length). Check reads every such file.
    const existing = before && mode === 'write' ? undefined : readOutputFile(outDir, file.path);
    const header = existing && readHeader(existing);
    if (existing && !header) {
      conflicts.push(file.path);
      continue;
    }
    const body = await run.formatter.format(renderThrough(file, template, cache), path.join(outDir, file.path), file.language, file.preformatted || exact);
    run.lap(`format ${file.path.split('/')[0]}`);
    formatted++;
    const { pieces, out } = headedBytes(file.language, body, sourcePath);
    outputs[file.path] = { key, out };
    if (before?.out === out || (existing && sameBytes(existing, pieces))) outputs[file.path] = { key, out, stamp: stamps.get(file.path)! };
    else if (mode === 'write') writes.push({ path: file.path, content: pieces });
    else staleReasons[file.path] = !existing ? 'missing' : header?.intact ? 'outdated' : 'edited';
  }
  const produced = files.map((f) => f.path);
  const wanted = new Set(produced);
  // Files of this API no longer produced: those the record vouches for are not read to be told.
  const removals = [...ownFiles(outDir, sourcePath, (rel) => recorded(rel) !== undefined)].filter((rel) => !wanted.has(rel)).sort();
  if (mode === 'check') for (const rel of removals) staleReasons[rel] = 'removed';
  return { produced, writes, removals, staleReasons, conflicts, formatted, outputs, settings };
}
