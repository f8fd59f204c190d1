/**
 * @module The plan stage: every output the emit stage described, compared with the output folder. A file whose
 * header proves it up to date (same key, intact, and the inputs record names this restgen) is neither rendered nor
 * read; the others are rendered through the cache, formatted and compared byte for byte. The plan says what to
 * write and remove (`generate`) or what is stale (`check`); it writes nothing, and a file that is not restgen's is
 * a conflict, never a write.
 */
import path from 'node:path';
import { copiedFile } from '../emit/keyed-file.ts';
import { partsText } from '../emit/parts.ts';
import type { OutputFile } from '../emit/types.ts';
import { bodyMatches, hashOf, headedBytes, readHeader } from '../format/header.ts';
import { serializeLock } from '../lock/lock-file.ts';
import { readOutputFile, sameBytes, scanOutput } from '../write/output-folder.ts';
import type { Stamp } from './file-stamp.ts';
import type { StaleReason } from './generate-types.ts';
import {
  hashInputs,
  INPUTS_FILE,
  inputsRecordText,
  outputsDigest,
  readRecordedInputs,
  recordEqualsBut,
  settingsEntries,
  type InputsRecord,
} from './inputs-record.ts';
import type { Memo } from './memo.ts';
import type { JudgedModel } from './model-stage.ts';
import { contentHash, outputStamps, recordInputs, unchangedOutputs, type OutputRecord, type RunRecord, type SavedRecord } from './run-cache.ts';
import type { Run } from './run.ts';
import { keyThrough, renderFile } from './stages.ts';

/** What the plan stage found. */
export interface Plan {
  /** Every output, the inputs record included. */
  readonly produced: ReadonlySet<string>;
  /** Files to write (generate), each as the bytes to write. */
  readonly writes: { path: string; content: Buffer[] }[];
  /** Generated files no longer produced (generate removes them; check reports them). */
  readonly removals: readonly string[];
  /** Check: files that are missing, edited, outdated or no longer produced, and why. */
  readonly stale: string[];
  readonly staleReasons: Record<string, StaleReason>;
  /** Files in the way that are not restgen's. */
  readonly conflicts: readonly string[];
  /** How many files were rendered and formatted. */
  readonly formatted: number;
  /** Check: files whose text is right but whose header is not what generate would write now. */
  readonly headersBehind: number;
  /** Check: the inputs record is behind its inputs (not stale: generate refreshes it). */
  readonly recordBehind: boolean;
  /** Each output's header `in` hash, language and formatter settings, for the run record. */
  readonly outputs: Readonly<Record<string, Omit<OutputRecord, 'stamp'>>>;
  /** The stamps of the outputs before the run, when the last run's record is this restgen's. */
  readonly stampsBefore: ReadonlyMap<string, Stamp> | undefined;
  /** The API's files, hashed and stamped, for the run record. */
  readonly apiInputs: RunRecord['inputs'];
}

/** Compares `files` with the output folder of `run` (see the module comment). */
export async function planOutputs(
  run: Run,
  files: readonly OutputFile[],
  model: JudgedModel,
  memo: Memo,
  identity: string,
  last: { readonly saved: SavedRecord | undefined; readonly key: string },
): Promise<Plan> {
  const { outDir, mode, apiPath, lockPath, options } = run;
  const sourcePath = path.relative(outDir, apiPath).split(path.sep).join('/');
  // Outputs the previous run recorded and nobody touched since need not be read to be compared.
  // Only a record of this very restgen: another one may write other headers for the same input.
  const sameRestgen = last.saved !== undefined && last.saved.record.key === last.key;
  const stampsBefore = sameRestgen ? outputStamps(outDir) : undefined;
  const unchanged = unchangedOutputs(sameRestgen ? last.saved : undefined, stampsBefore ?? new Map());
  const produced = new Set(files.map((f) => f.path));
  // A file at a path this run produces is read whole below (and told restgen's or the user's there): the scan
  // reads the first bytes of the other files only, to find generated files no longer produced.
  const state = await scanOutput(outDir, (rel) => unchanged.has(rel) || produced.has(rel));
  const conflicts: string[] = [];
  const writes: { path: string; content: Buffer[] }[] = [];
  const stale: string[] = [];
  const staleReasons: Record<string, StaleReason> = {};
  let formatted = 0;
  const outputs: Record<string, Omit<OutputRecord, 'stamp'>> = {};
  // Settings are resolved per folder and language; the comparison itself is synchronous on purpose
  // (thousands of small reads, where promise overhead would dominate).
  const settingsByFolder = new Map<string, string>();
  for (const file of [...files, { path: INPUTS_FILE, language: 'json' } as const]) {
    const key = `${path.posix.dirname(file.path)}\0${file.language}`;
    if (!settingsByFolder.has(key)) settingsByFolder.set(key, await run.settingsOf(path.join(outDir, file.path), file.language));
  }
  const exact = options.templatesDir === undefined;
  // Header `in` hashes name what a file was rendered from, not by which restgen: they prove a file up to date
  // only while the inputs record names this restgen. Under another one every file is rendered and compared.
  const recorded = readRecordedInputs(outDir);
  const keysTrusted = recorded?.record.identity === identity;
  let headersBehind = 0;
  let recordBehind = false;
  /** Compares one output with the folder: written (or, in check mode, found stale) unless it is up to date. */
  const compare = async (file: OutputFile): Promise<void> => {
    const abs = path.join(outDir, file.path);
    const settings = settingsByFolder.get(`${path.posix.dirname(file.path)}\0${file.language}`)!;
    // A file is known by what it is rendered from: it is not rendered to be compared.
    const input = hashOf('key', keyThrough(file, memo), settings);
    outputs[file.path] = { input, language: file.language, settings };
    const earlier = unchanged.get(file.path);
    if (earlier === input) return;
    // Written by this restgen and untouched since, under another key: `generate` rewrites it without reading it
    // (its header will differ); `check` reads it, as the same text may stand under another key.
    const existing = earlier !== undefined && mode === 'write' ? undefined : readOutputFile(outDir, file.path);
    const header = existing === undefined ? undefined : readHeader(existing);
    if (existing !== undefined && header === undefined) {
      conflicts.push(file.path);
      return;
    }
    if (header?.intact && !header.earlier && header.hashes.input === input && keysTrusted) return;
    // The inputs record only ever speeds a run up (it is checked against the inputs before it is trusted): one
    // that is behind (an input changed in a way no output shows, such as a comment) is not a stale output.
    if (mode === 'check' && file.path === INPUTS_FILE) {
      recordBehind = true;
      return;
    }
    run.lap('compare');
    // restgen's own templates lay files out exactly as prettier prints them with its defaults; a user's
    // template override comes with no such promise, so its files are formatted.
    const body = await run.formatter.format(renderFile(file, memo), abs, file.language, file.preformatted === true || exact);
    run.lap(`format ${file.path.split('/')[0]}`);
    formatted++;
    // The bytes generate writes, header included; a file is rewritten even when only its header changes, so the bytes
    // restgen writes never depend on the history of runs.
    const content = headedBytes(file.language, body, sourcePath, input);
    if (mode === 'check') {
      // Byte for byte what generate would write (compared because another restgen wrote the keys): up to date.
      if (existing !== undefined && sameBytes(existing, content)) return;
      // The same text under another key (its inputs changed in ways that do not show in it): what the file says is
      // right; only its header would change, so it is not stale.
      if (header?.intact && bodyMatches([body], header.hashes.output)) {
        headersBehind++;
        return;
      }
      stale.push(file.path);
      staleReasons[file.path] = existing === undefined ? 'missing' : header && !header.intact ? 'edited' : 'outdated';
      return;
    }
    if (existing === undefined || !sameBytes(existing, content)) writes.push({ path: file.path, content });
  };
  // The API's files, hashed once for the inputs record and the run record; the lock as it stands after this
  // run (it may rewrite it) goes with them.
  const apiInputs = recordInputs([...new Set([...(model.files ?? []), apiPath])].sort());
  const { lock, lockText } = model;
  const lockHash = mode === 'write' && lock.changed ? contentHash(serializeLock(lock.nextLock)) : (lockText.hash ?? 'missing');
  // Each file is compared and let go before the next, so that a large API never holds every rendered file at once.
  for (const file of files) await compare(file);
  // Last: the record lists every other output's key.
  const record: InputsRecord = {
    identity,
    parts: partsText(run.parts),
    inputs: hashInputs(outDir, [...Object.entries(apiInputs).map(([file, i]) => [file, i.hash] as const), [lockPath, lockHash]]),
    settings: settingsEntries(settingsByFolder),
    outputs: outputsDigest(Object.entries(outputs).map(([rel, o]) => [rel, o.input] as const)),
  };
  produced.add(INPUTS_FILE);
  // Another restgen whose output is byte-identical rewrites nothing, not even the record: the record keeps naming
  // the restgen that wrote it (so header keys are not trusted under this one, and files are compared instead).
  const onlyRestgenDiffers =
    writes.length === 0 &&
    stale.length === 0 &&
    [...state.generated].every((p) => produced.has(p)) &&
    recorded !== undefined &&
    recordEqualsBut(recorded.record, record);
  if (!onlyRestgenDiffers) await compare(copiedFile(INPUTS_FILE, inputsRecordText(record), 'json'));
  // Kept as the other restgen wrote it, yet compared like every other output: the run record lists it under the key
  // its header holds, or the next run's up-to-date proof would find a generated file it does not know, and every
  // run after an upgrade that changes no output would load the API again.
  else outputs[INPUTS_FILE] = { input: recorded.input, language: 'json', settings: settingsByFolder.get(`.\0json`)! };
  const removals = [...state.generated].filter((p) => !produced.has(p)).sort();
  // Check reports a generated file no longer produced as stale (generate removes it).
  if (mode === 'check')
    for (const r of removals) {
      stale.push(r);
      staleReasons[r] = 'removed';
    }
  return { produced, writes, removals, stale, staleReasons, conflicts, formatted, headersBehind, recordBehind, outputs, stampsBefore, apiInputs };
}
