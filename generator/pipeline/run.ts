/**
 * @module What one run of the pipeline carries from stage to stage: its options, resolved once (paths, parts), the
 * formatter and its settings, the stopwatch of the stages (`--debug`), and the result of a run that stopped early.
 */
import path from 'node:path';
import { PART_NAMES, withNeeds } from '../emit/parts.ts';
import type { Part } from '../dsl/define-config.ts';
import type { FileLanguage } from '../emit/types.ts';
import { createPrettierFormatter, type Formatter } from '../format/formatter.ts';
import { lockPathFor } from '../lock/lock-file.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { GenerateOptions, GenerateResult } from './generate-types.ts';

const EXTENSIONS: { readonly [L in FileLanguage]: string } = { typescript: '.ts', json: '.json', markdown: '.md' };

/** One run: its inputs, resolved once, and what every stage shares. */
export interface Run {
  readonly options: GenerateOptions;
  readonly apiPath: string;
  readonly outDir: string;
  readonly mode: 'write' | 'check';
  readonly lockPath: string;
  /** The API module's path relative to the output folder, POSIX (`../api.ts`): what headers name. */
  readonly sourcePath: string;
  /** The parts to generate, the parts they need added. */
  readonly parts: readonly Part[];
  readonly formatter: Formatter;
  /** The formatter settings of the files of one output folder (prettier's configuration is loaded only when first asked). */
  settingsOf(dir: string, language: FileLanguage): Promise<string>;
  /** Milliseconds spent per stage, for `--debug`. */
  readonly timings: Record<string, number>;
  /** Adds the time since the last lap to `stage`. */
  lap(stage: string): void;
  /** The result of a run that ends with `diagnostics` and no output (`extra`: what it found so far). */
  failed(diagnostics: readonly Diagnostic[], extra?: Partial<GenerateResult>): GenerateResult;
  /** The result of a run the up-to-date proof answered: nothing loaded, rendered or written. */
  upToDate(files: readonly string[]): GenerateResult;
}

/** Starts a run of `options`. */
export function startRun(options: GenerateOptions): Run {
  const apiPath = path.resolve(options.apiPath);
  const outDir = path.resolve(options.outDir ?? path.join(path.dirname(apiPath), 'generated'));
  const lockPath = lockPathFor(apiPath);
  const sourcePath = path.relative(outDir, apiPath).split(path.sep).join('/');
  const timings: Record<string, number> = {};
  let lapStart = performance.now();
  const formatter = options.formatter ?? options.session?.formatter ?? createPrettierFormatter();
  // Forget configuration a warm formatter (--watch) resolved before, but only once it is needed: an
  // up-to-date run whose formatter configuration files are unchanged never loads prettier.
  let refreshed: Promise<void> | undefined;
  const empty = (): GenerateResult => ({
    ok: true,
    diagnostics: [],
    outDir,
    files: [],
    written: [],
    removed: [],
    stale: [],
    staleReasons: {},
    formatted: 0,
    renders: { hits: 0, misses: 0 },
    cached: false,
    lockFindings: [],
    lockChanged: false,
    lockPath,
    timings,
  });
  return {
    options,
    apiPath,
    outDir,
    mode: options.mode ?? 'write',
    lockPath,
    sourcePath,
    parts: withNeeds(options.parts ?? PART_NAMES),
    formatter,
    settingsOf: async (dir, language) => {
      await (refreshed ??= formatter.refresh());
      // prettier resolves settings per file (overrides match names): a file of the language stands for the folder's.
      return formatter.settingsKey(path.join(dir, `restgen${EXTENSIONS[language]}`), language);
    },
    timings,
    lap(stage) {
      const now = performance.now();
      timings[stage] = Math.round((timings[stage] ?? 0) + now - lapStart);
      lapStart = now;
    },
    failed: (diagnostics, extra = {}) => ({ ...empty(), ...extra, ok: false, diagnostics }),
    upToDate: (files) => ({ ...empty(), files, cached: true }),
  };
}
