/**
 * @module The up-to-date cache: after a complete run, restgen records the hash of every input (the API
 * module and every file it loaded, restgen's own sources and templates, template overrides, formatter
 * settings) and of every output. When none of that changed and every output file is still intact, a run
 * can answer "up to date" without loading the API, rendering or formatting anything.
 *
 * The cache lives in `node_modules/.cache/restgen/` beside the project (never in the output folder, so it
 * adds nothing to review). A missing or unreadable cache only means a full run.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FileLanguage } from '../emit/types.ts';
import type { Formatter } from '../format/formatter.ts';
import { readHeader } from '../format/header.ts';
import { scanOutput } from '../write/output-folder.ts';
import { PACKAGE_ROOT } from '../package-root.ts';

const RESTGEN_ROOT = PACKAGE_ROOT;

/** What a complete run records. */
export interface RunRecord {
  readonly key: string;
  /** Input file (absolute path) to content hash. */
  readonly inputs: Readonly<Record<string, string>>;
  /** Output file (relative path) to its header's `in` hash, language and formatter settings. */
  readonly outputs: Readonly<Record<string, { readonly input: string; readonly language: FileLanguage; readonly settings: string }>>;
}

const hash = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex').slice(0, 16);

function hashFile(file: string): string | undefined {
  try {
    return hash(readFileSync(file));
  } catch {
    // A file that vanished is simply "changed".
    return undefined;
  }
}

function hashTree(dir: string, filter: (name: string) => boolean): string {
  if (!existsSync(dir)) return 'none';
  const h = createHash('sha256');
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && filter(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  for (const file of entries) h.update(path.relative(dir, file)).update('\0').update(readFileSync(file)).update('\0');
  return h.digest('hex').slice(0, 16);
}

let restgenHash: string | undefined;
/** A hash of restgen's own code and templates: any change to restgen invalidates every cache. */
function restgenFingerprint(): string {
  restgenHash ??= hash(
    [
      hashTree(path.join(RESTGEN_ROOT, 'generator'), (n) => n.endsWith('.ts')),
      hashTree(path.join(RESTGEN_ROOT, 'templates'), (n) => n.endsWith('.hbs')),
      hashTree(path.join(RESTGEN_ROOT, 'runtime'), (n) => n.endsWith('.ts')),
      hashFile(path.join(RESTGEN_ROOT, 'package.json')) ?? '',
    ].join(),
  );
  return restgenHash;
}

/** The cache file for one (API module, output folder, template folder) triple. */
function cacheFile(apiPath: string, outDir: string, templatesDir: string | undefined): string {
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
  return path.join(base, `${hash([apiPath, outDir, templatesDir ?? ''].join('\0'))}.json`);
}

/** The part of the cache key that is not a file of the API: restgen itself and the template overrides. */
export function runKey(templatesDir: string | undefined): string {
  return hash([restgenFingerprint(), templatesDir ? hashTree(templatesDir, (n) => n.endsWith('.hbs')) : 'builtin'].join());
}

/** Hashes the given input files for a record. */
export function hashInputs(files: readonly string[]): Record<string, string> {
  return Object.fromEntries(files.map((f) => [f, hashFile(f) ?? 'missing']));
}

/** Saves a record after a complete, successful run. Failing to save only costs the next run its shortcut. */
export function saveRecord(apiPath: string, outDir: string, templatesDir: string | undefined, record: RunRecord): void {
  const file = cacheFile(apiPath, outDir, templatesDir);
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(record));
    renameSync(`${file}.tmp`, file);
  } catch {
    // Read-only node_modules or a full disk: the cache is an optimisation, the run itself succeeded.
  }
}

/**
 * True when the previous complete run's record still holds: same inputs, same restgen, same formatter
 * settings, and every output file present, generated, unedited and with the recorded content.
 * Returns the list of output files when so.
 */
export async function upToDate(
  apiPath: string,
  outDir: string,
  templatesDir: string | undefined,
  formatter: Formatter,
): Promise<readonly string[] | undefined> {
  let record: RunRecord;
  try {
    record = JSON.parse(readFileSync(cacheFile(apiPath, outDir, templatesDir), 'utf8')) as RunRecord;
  } catch {
    // No record yet (or a corrupt one): do a full run.
    return undefined;
  }
  if (record.key !== runKey(templatesDir)) return undefined;
  for (const [file, recorded] of Object.entries(record.inputs)) if ((hashFile(file) ?? 'missing') !== recorded) return undefined;
  const outputs = Object.entries(record.outputs);
  for (const [rel, o] of outputs)
    if ((await formatter.settingsKey(path.join(outDir, rel), o.language)) !== o.settings) return undefined;
  const state = await scanOutput(outDir);
  if (state.generated.size !== outputs.length) return undefined;
  for (const [rel, o] of outputs) {
    if (!state.generated.has(rel)) return undefined;
    const header = readHeader(readFileSync(path.join(outDir, rel), 'utf8'));
    if (!header || !header.intact || header.hashes.input !== o.input) return undefined;
  }
  return outputs.map(([rel]) => rel).sort();
}
