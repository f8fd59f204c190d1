/**
 * @module What `generate` and `check` are given and answer, apart from the stages that compose them, so the stages
 * can name these types without importing `generate.ts` (which imports them).
 */
import type { Part } from '../dsl/define-config.ts';
import type { Finding, SeverityOverrides } from '../diff/types.ts';
import type { Formatter } from '../format/formatter.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { ApiIR } from '../model/ir.ts';
import type { GenerateSession } from './session.ts';

/** Options of `generate` and `check`. */
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
