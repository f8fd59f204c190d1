/**
 * @module The inputs record: `restgen-inputs.json` in the output folder says what the outputs were generated
 * from, by content: restgen's code identity (its code, templates and template overrides), the parts, the
 * content hash of every file the API module loaded (and of the lock), the formatter settings of every output
 * folder, and one digest of every output's path and header `in` hash. It is committed with the outputs, so a
 * fresh clone (CI right after `npm ci`, with no run cache) can tell "up to date" without loading the API:
 * when restgen and every input are byte-identical to the recorded ones, generating again would render the
 * very files recorded, so each output only has to be present, intact (its body matches its `out` hash) and
 * recorded. Anything else (an input changed, another restgen, another part list, an edited, missing or extra
 * file) makes the run a full one, which also rewrites (or, in `check`, reports) the record.
 *
 * Paths are relative to the output folder and restgen's own files are left out (its identity covers them),
 * so the record is the same on every machine and in every checkout.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Part } from '../dsl/define-config.ts';
import { partsText } from '../emit/parts.ts';
import { hashOf, readHeader } from '../format/header.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { isOwnFile, outputReader, readOutputFile, statOutput } from '../write/output-folder.ts';
import { codeIdentity } from './code-identity.ts';
import { stampFromStats, stampOf, type Stamp } from './file-stamp.ts';
import { contentHash, outputSettingsStamp, runKey, saveRecord, type OutputRecord, type SettingsOf } from './run-cache.ts';
import type { FileLanguage } from '../emit/types.ts';

/** What a record that holds proves, for the run cache to keep (so that the next run need not read the outputs). */
export interface HeldRecord {
  /** Every output, sorted. */
  readonly files: readonly string[];
  /** Each input (absolute path) with its hash and the stamp it had before it was read. */
  readonly inputs: ReadonlyMap<string, { readonly hash: string; readonly stamp: Stamp | null }>;
  /** Each output's header `in` hash and the stamp it had before it was read. */
  readonly outputs: ReadonlyMap<string, { readonly input: string; readonly stamp: Stamp }>;
  /** The record's formatter settings, by `<folder>:<language>`. */
  readonly settings: Readonly<Record<string, string>>;
  /** The parts, as the record lists them. */
  readonly parts: string;
}

/** The record's path in the output folder. */
export const INPUTS_FILE = 'restgen-inputs.json';

/** What the record holds (its JSON body, below the `x-restgen` header member). */
export interface InputsRecord {
  readonly identity: string;
  /** The parts generated, space-separated, in restgen's order. */
  readonly parts: string;
  /** Input file (relative POSIX path from the output folder) to its content hash. */
  readonly inputs: Readonly<Record<string, string>>;
  /** `<folder>:<language>` (folders relative to the output folder) to the formatter settings key. */
  readonly settings: Readonly<Record<string, string>>;
  /** {@link outputsDigest} of every output but the record. */
  readonly outputs: string;
}

const posix = (rel: string): string => rel.split(path.sep).join('/');

/** One digest of the outputs' paths and `in` hashes, in path order. */
export function outputsDigest(outputs: Iterable<readonly [string, string]>): string {
  const lines = [...outputs].filter(([rel]) => rel !== INPUTS_FILE).map(([rel, input]) => `${rel}\0${input}`);
  return hashOf(...lines.sort());
}

/** restgen's own code, which its identity covers (in either layout: a clone or an installed package). */
const OWN = ['dist', 'generator', 'templates', 'runtime'].map((part) => path.join(PACKAGE_ROOT, part) + path.sep);

/** The input files (absolute path, content hash) as the record lists them; restgen's own are its identity's. */
export function hashInputs(outDir: string, hashes: Iterable<readonly [string, string]>): Record<string, string> {
  const entries = [...hashes]
    .filter(([file]) => !OWN.some((own) => file.startsWith(own)))
    .map(([file, hash]) => [posix(path.relative(outDir, file)), hash] as const);
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function hashFile(file: string): string {
  try {
    return contentHash(readFileSync(file));
  } catch {
    return 'missing';
  }
}

/** The settings key of each output folder and language, as the record lists them. */
export function settingsEntries(settings: ReadonlyMap<string, string>): Record<string, string> {
  const entries = [...settings].map(([key, value]) => {
    const [dir, language] = key.split('\0') as [string, string];
    return [`${dir}:${language}`, value] as const;
  });
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The inputs record in `outDir` as it stands (intact, restgen's), or undefined; `input` is its header's `in` hash
 * (what a run record lists for it).
 */
export function readRecordedInputs(outDir: string): { readonly record: InputsRecord; readonly input: string } | undefined {
  const bytes = readOutputFile(outDir, INPUTS_FILE);
  const header = bytes === undefined ? undefined : readHeader(bytes);
  if (!header?.intact) return undefined;
  try {
    const parsed = JSON.parse(bytes!.toString('utf8')) as (Partial<InputsRecord> & { 'x-restgen'?: unknown }) | null;
    if (typeof parsed?.identity !== 'string') return undefined;
    const { 'x-restgen': _header, ...record } = parsed;
    return { record: record as InputsRecord, input: header.hashes.input };
  } catch {
    return undefined;
  }
}

/** True when two records say the same but for the restgen that wrote them. */
export function recordEqualsBut(a: InputsRecord, b: InputsRecord): boolean {
  return inputsRecordText({ ...a, identity: '' }) === inputsRecordText({ ...b, identity: '' });
}

/** The record's JSON body (without its header member), as written. */
export function inputsRecordText(record: InputsRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

/**
 * The sorted list of output files when the record in `outDir` proves them up to date for `parts` (see the
 * module comment), else undefined. Reads every output once, and no file of the API is loaded.
 */
export async function recordHolds(
  outDir: string,
  apiPath: string,
  lockPath: string,
  templatesDir: string | undefined,
  parts: readonly Part[],
  settingsOf: SettingsOf,
): Promise<HeldRecord | undefined> {
  // Stamped before they are read: a change after that shows in the stamps the run cache keeps.
  const recordStamp = stampOf(path.join(outDir, INPUTS_FILE));
  const bytes = readOutputFile(outDir, INPUTS_FILE);
  const header = bytes === undefined ? undefined : readHeader(bytes);
  if (!header?.intact || header.earlier) return undefined;
  let record: InputsRecord;
  try {
    record = JSON.parse(bytes!.toString('utf8')) as InputsRecord;
  } catch {
    return undefined;
  }
  if (record.parts !== partsText(parts)) return undefined;
  if (typeof record.inputs !== 'object' || typeof record.settings !== 'object' || record.inputs === null || record.settings === null) return undefined;
  // The record is this API's and this lock's.
  for (const file of [apiPath, lockPath]) if (!(posix(path.relative(outDir, file)) in record.inputs)) return undefined;
  // The inputs first: after an edit of the API they differ, and restgen's identity (a hash of its code) is not needed.
  const inputs = new Map<string, { hash: string; stamp: Stamp | null }>();
  for (const [rel, hash] of Object.entries(record.inputs)) {
    const file = path.resolve(outDir, rel);
    const stamp = stampOf(file) ?? null;
    if (hashFile(file) !== hash) return undefined;
    inputs.set(file, { hash, stamp });
  }
  if (record.identity !== codeIdentity(templatesDir)) return undefined;
  for (const [key, value] of Object.entries(record.settings)) {
    const at = key.lastIndexOf(':');
    const dir = key.slice(0, at);
    if ((await settingsOf(path.join(outDir, dir, INPUTS_FILE), key.slice(at + 1) as FileLanguage)) !== value) return undefined;
  }
  const outputs: [string, string][] = [];
  const stamps = new Map<string, Stamp>();
  const read = outputReader(outDir);
  for (const [rel, stats] of statOutput(outDir)) {
    if (rel === INPUTS_FILE) continue;
    const data = read(rel);
    const found = data === undefined ? undefined : readHeader(data);
    // Not restgen's: the user's file, which the outputs may sit beside; or a killed run's empty temporary file.
    if (found === undefined) {
      if (data?.length === 0 && isOwnFile(rel, '', path.join(outDir, rel))) return undefined;
      continue;
    }
    if (!found.intact || found.earlier) return undefined;
    outputs.push([rel, found.hashes.input]);
    stamps.set(rel, stampFromStats(stats));
  }
  if (outputsDigest(outputs) !== record.outputs || recordStamp === undefined) return undefined;
  outputs.push([INPUTS_FILE, header.hashes.input]);
  stamps.set(INPUTS_FILE, recordStamp);
  return {
    files: outputs.map(([rel]) => rel).sort(),
    inputs,
    outputs: new Map(outputs.map(([rel, input]) => [rel, { input, stamp: stamps.get(rel)! }])),
    settings: record.settings,
    parts: record.parts,
  };
}

const LANGUAGES: Readonly<Record<string, FileLanguage>> = {
  '.ts': 'typescript',
  '.json': 'json',
  '.md': 'markdown',
};

/** Keeps what a committed inputs record proved as the run cache's record, so that the next run reads no output. */
export function keepHeldRecord(apiPath: string, outDir: string, templatesDir: string | undefined, held: HeldRecord): void {
  const outputs: Record<string, OutputRecord> = {};
  for (const [rel, { input, stamp }] of held.outputs) {
    const language = LANGUAGES[path.posix.extname(rel)];
    const settings = language && held.settings[`${path.posix.dirname(rel)}:${language}`];
    // A file the record's settings do not cover (not one restgen writes): no run record, only a slower next run.
    if (!language || settings === undefined) return;
    outputs[rel] = { input, language, settings, stamp };
  }
  const inputs = Object.fromEntries(held.inputs);
  const settings = outputSettingsStamp(outDir, Object.keys(outputs))?.stamp ?? null;
  saveRecord(apiPath, outDir, templatesDir, {
    key: runKey(templatesDir).key,
    parts: held.parts,
    inputs,
    outputs,
    settings,
  });
}
