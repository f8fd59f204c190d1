/**
 * @module `generate` and `check`: the pipeline's stages composed, each a plain function of its own module:
 *
 *   prove up to date -> load, build, check -> judge the lock -> emit -> plan -> write -> record
 *
 * The up-to-date proof (`up-to-date.ts`) answers an unchanged project without loading anything. Otherwise the API is
 * loaded and judged (`model-stage.ts`), the emitters describe every file (`stages.ts`), the plan compares them with
 * the output folder, rendering through the one cache only what changed (`plan.ts`), and the write stage changes the
 * project (`write-stage.ts`). `check` runs the same stages and writes nothing. Nothing is written unless every stage
 * before the write succeeded, so a failed run leaves the previous output untouched.
 */
import path from 'node:path';
import type { Part } from '../dsl/define-config.ts';
import type { Finding, SeverityOverrides } from '../diff/types.ts';
import type { Formatter } from '../format/formatter.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { ApiIR } from '../model/ir.ts';
import { unusableOutput } from '../write/output-folder.ts';
import { codeIdentity } from './code-identity.ts';
import { modelStage } from './model-stage.ts';
import { planOutputs } from './plan.ts';
import { loadRenderCache } from './render-cache.ts';
import { cacheFile } from './run-cache.ts';
import { startRun } from './run.ts';
import type { GenerateSession } from './session.ts';
import { emitAll } from './stages.ts';
import { proveUpToDate } from './up-to-date.ts';
import { recordRun, writeStage } from './write-stage.ts';

export { emitAll, loadModel } from './stages.ts';

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
   * built again, and caches are not read from disk again while their files are unchanged. The output is the same.
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
  /** How many files were rendered and formatted (their recorded render key or text did not match). */
  readonly formatted: number;
  /** Rendered texts the render cache held (`hits`) and those rendered anew (`misses`). */
  readonly renders: { readonly hits: number; readonly misses: number };
  /** True when the up-to-date cache answered without loading the API. */
  readonly cached: boolean;
  /** Check mode: the inputs record is behind its inputs (not stale: `generate` refreshes it). */
  readonly recordBehind?: boolean;
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

/** Generates (or checks) the output of one API module. */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const run = startRun(options);
  const { apiPath, outDir, mode, parts } = run;
  const unusable = unusableOutput(outDir);
  if (unusable)
    return run.failed([
      {
        code: 'RG202',
        severity: 'error',
        message: `${unusable}; restgen reads every file there and writes and removes the files it generates: choose a folder in your project (--out, or out in the config file; the default is generated/ beside the API module).`,
      },
    ]);
  const proof = await proveUpToDate(run);
  if (proof.holds) return run.upToDate(proof.files);
  run.lap('up-to-date check');
  const cache = loadRenderCache(cacheFile(apiPath, outDir, options.templatesDir, '.render'), proof.key, options.session?.renderCache);
  const model = await modelStage(run, cache.memo, proof.saved, proof.key);
  if ('ok' in model) return model;
  /** A template override that fails to compile or render is the user's error (RG201); anything else is restgen's. */
  const overrideFailed = (error: unknown): GenerateResult => {
    if (!options.templatesDir || !(error instanceof Error) || !error.message.startsWith('template override')) throw error;
    return run.failed([{ code: 'RG201', severity: 'error', message: error.message }]);
  };
  const sourcePath = pathFrom(outDir, apiPath);
  const identity = cache.identity ?? codeIdentity(options.templatesDir);
  let plan: Awaited<ReturnType<typeof planOutputs>>;
  try {
    const files = await emitAll(model.ir, sourcePath, options.templatesDir, parts, cache.memo);
    run.lap('emit');
    // Files render when the plan needs their text: a template override can fail there too.
    plan = await planOutputs(run, files, model, cache.memo, identity, proof);
  } catch (error) {
    return overrideFailed(error);
  }
  if (plan.conflicts.length > 0)
    return run.failed(
      plan.conflicts.map((rel) => ({
        code: 'RG200',
        severity: 'error',
        message: `${path.join(outDir, rel)} exists and was not generated by restgen; restgen will not overwrite it. Move it away or choose another --out.`,
      })),
      { files: [...plan.produced] },
    );
  const { written, lockChanged } = await writeStage(run, plan, model);
  cache.save(identity);
  recordRun(run, plan, model, written, lockChanged, proof.key);
  run.lap('write');
  return {
    ok: mode === 'write' || (plan.stale.length === 0 && !model.lock.changed),
    diagnostics: model.diagnostics,
    outDir,
    files: [...plan.produced],
    written,
    removed: mode === 'write' ? plan.removals : [],
    stale: plan.stale.sort(),
    staleReasons: plan.staleReasons,
    formatted: plan.formatted,
    renders: { ...cache.stats },
    cached: false,
    ...(plan.recordBehind ? { recordBehind: true } : {}),
    lockFindings: model.lock.findings,
    lockChanged,
    lockPath: run.lockPath,
    timings: run.timings,
    ir: model.ir,
  };
}

/** The API module's path relative to the output folder, POSIX (`../api.ts`): for headers and comments. */
function pathFrom(outDir: string, apiPath: string): string {
  return path.relative(outDir, apiPath).split(path.sep).join('/');
}
