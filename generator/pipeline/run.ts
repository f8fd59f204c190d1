/**
 * @module What one run of the pipeline carries from stage to stage: its options, resolved once (paths, parts), the
 * formatter and its settings, the stopwatch of the stages (`--debug`), and its result (`GenerateResult`).
 */
import path from 'node:path';
import { PART_NAMES, withNeeds } from '../emit/parts.ts';
import type { Part } from '../dsl/define-config.ts';
import type { Finding, SeverityOverrides } from '../diff/types.ts';
import type { FileLanguage } from '../emit/types.ts';
import { createPrettierFormatter, type Formatter } from '../format/formatter.ts';
import { lockPathFor } from '../lock/lock-file.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { ApiIR } from '../model/ir.ts';
import type { GenerateSession } from './session.ts';

/** Options of {@link generate}. */
export interface GenerateOptions {
  /** The API module. */
  readonly apiPath: string;
  /** The output folder; `generated/` beside the API module by default. */
  readonly outDir?: string;
  /** `write` (generate) or `check` (compare with what is on disk, write nothing). */
  readonly mode?: 'write' | 'check';
  /** A folder of templates overriding restgen's by name. */
  readonly templatesDir?: string;
  /** Reused across runs in `--watch`, so prettier stays warm (default: the session's, else a new one). */
  readonly formatter?: Formatter;
  /**
   * What a resident process (`--watch`) keeps from run to run (see `session.ts`): unchanged collections are not
   * built again. The output is the same.
   */
  readonly session?: GenerateSession;
  /** Record breaking changes to released versions in the lock instead of refusing them. */
  readonly acceptBreaking?: boolean;
  /** Why the breaks accepted with `acceptBreaking` are deliberate; recorded with each in the lock. */
  readonly acceptReason?: string;
  /** Severity overrides for the lock's judgement (the config file's `diff.severity`). */
  readonly severity?: SeverityOverrides;
  /** `YYYY-MM-DD`: judges whether a removed version's sunset has passed (the lock only; output never depends on it). */
  readonly today?: string;
  /** The parts to generate (default: all); the parts they need are added. */
  readonly parts?: readonly Part[];
}

/** Why `check` finds a file stale. */
export type StaleReason = 'missing' | 'edited' | 'outdated' | 'removed';

/** What a run did (or, in check mode, found). */
export interface GenerateResult {
  readonly ok: boolean;
  /** DSL and output-folder problems; when any is an error nothing was written. */
  readonly diagnostics: readonly Diagnostic[];
  readonly outDir: string;
  /** Every file the API generates, relative POSIX paths, sorted. */
  readonly files: readonly string[];
  readonly written: readonly string[];
  readonly removed: readonly string[];
  /** Check mode: files that are missing, edited, out of date, or generated but no longer produced. */
  readonly stale: readonly string[];
  /** Check mode: why each stale file is stale. */
  readonly staleReasons: Readonly<Record<string, StaleReason>>;
  /** How many files were rendered and formatted (the last run did not record them as they are now). */
  readonly formatted: number;
  /** Texts the cache held (`hits`: pieces of files, compiled templates, the lock's verdict) and those computed anew. */
  readonly renders: { readonly hits: number; readonly misses: number };
  /** True when the up-to-date proof answered without loading the API. */
  readonly cached: boolean;
  /** Allowed changes to released versions (and newly released versions) that updated the lock. */
  readonly lockFindings: readonly Finding[];
  /** Write mode: the lock was written. Check mode: the lock is out of date. */
  readonly lockChanged: boolean;
  /** The lock file's path. */
  readonly lockPath: string;
  /** Milliseconds spent per stage (load, lock, emit, format, write), for `--debug`. */
  readonly timings: Readonly<Record<string, number>>;
  /**
   * The model. Built without call sites when the run had nothing to report: its source refs then name the
   * API module, not lines (`loadModel` builds one with them).
   */
  readonly ir?: ApiIR;
}

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
