/**
 * @module The stages that read the API: load the module, build the IR and check it (`loadModel`), then judge it
 * against the lock of released versions (`modelStage`). Call sites (the line of every builder call) only ever show
 * in diagnostics, and capturing one per call is a large part of loading an API: the module is loaded without them,
 * and once more with them when there is something to report (a DSL error, or a refused change to a released version).
 */
import type { ApiDef } from '../dsl/defs.ts';
import { compareWithLock, type LockComparison } from '../lock/compare-lock.ts';
import { parseLockBytes, type LockFile, type LockProblem } from '../lock/lock-file.ts';
import type { CollectionReuse } from '../model/collection-reuse.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { ApiIR } from '../model/ir.ts';
import { project } from '../model/project.ts';
import { bytesIfPresent } from '../write/output-folder.ts';
import type { Cache, InputRecord } from './cache.ts';
import { contentHash, digest, hashOf } from './digest.ts';
import { recallThrough } from './emit.ts';
import type { GenerateResult } from './generate-types.ts';
import type { Run } from './run.ts';
import { stampOf } from './stamps.ts';

/**
 * Loads, builds and checks an API module. With `callSites: false` builders record no call sites: the model's
 * source refs then name the API module, not the lines (for a run that reports nothing; see `generate`).
 */
export async function loadModel(
  apiPath: string,
  { callSites = true, reuse }: { readonly callSites?: boolean; readonly reuse?: CollectionReuse } = {},
): Promise<{ ir?: ApiIR; def?: ApiDef; files?: readonly string[]; diagnostics: Diagnostic[] }> {
  // Imported on demand: `diff` and `serve` load this module too, and only some of their runs load an API.
  const [{ loadApi }, { buildApi }, { checkApi }, { DiagnosticBag }, { withoutCallSites }] = await Promise.all([
    import('../load/load-api.ts'),
    import('../model/build.ts'),
    import('../model/check.ts'),
    import('../model/diagnostics.ts'),
    import('../dsl/call-site.ts'),
  ]);
  const loaded = callSites ? await loadApi(apiPath) : await withoutCallSites(() => loadApi(apiPath));
  if (!loaded.ok) return { diagnostics: [...loaded.diagnostics] };
  const bag = new DiagnosticBag();
  // Kept collections only serve a build without call sites: one with them is for reporting, and a kept
  // collection's refs would name no line.
  const ir = buildApi(loaded.def, loaded.source, bag, callSites ? undefined : reuse);
  // Whole-API rules run even after build errors, so one run reports every mistake.
  checkApi(ir, bag);
  return bag.hasErrors ? { diagnostics: bag.items } : { ir, def: loaded.def, files: loaded.files, diagnostics: bag.items };
}

/** The model of the API as judged by the lock: what the emit stage renders and the write stage records. */
export interface JudgedModel {
  /** The model, built without call sites: what files are generated from (its source refs name no line). */
  readonly ir: ApiIR;
  /** The same model with call sites when the run had something to report, else `ir`. */
  readonly located: ApiIR;
  /** The API module and every file it loaded, and the lock as read, for the run's record. */
  readonly inputs: Readonly<Record<string, InputRecord>>;
  /** Warnings of the model (errors stop the run). */
  readonly diagnostics: readonly Diagnostic[];
  readonly lock: LockComparison;
}

/** A file's content hash and stamp for the record (stamped before it is read: a later change shows in the stamp). */
export function inputOf(file: string): InputRecord & { readonly bytes: Buffer | undefined } {
  const stamp = stampOf(file) ?? null;
  const bytes = bytesIfPresent(file);
  return { stamp, hash: bytes === undefined ? 'missing' : contentHash(bytes), bytes };
}

/** Loads, builds, checks and judges the API of `run`; the cache keeps the lock's quiet verdicts. */
export async function modelStage(run: Run, cache: Cache): Promise<JudgedModel | GenerateResult> {
  const { apiPath, lockPath, options } = run;
  const first = await loadModel(apiPath, { callSites: false, ...(options.session ? { reuse: options.session.collections } : {}) });
  let model = first.diagnostics.length > 0 ? await loadModel(apiPath) : first;
  run.lap('load, build, check');
  if (!model.ir || !first.ir) return run.failed(model.diagnostics);
  const { bytes, ...lockInput } = inputOf(lockPath);
  let parsed: { ok: true; lock: LockFile | undefined } | LockProblem | undefined;
  const judge = (ir: ApiIR): LockComparison | GenerateResult => {
    parsed ??= bytes === undefined ? { ok: true, lock: undefined } : parseLockBytes(lockPath, bytes);
    if (!parsed.ok) return run.failed([{ code: 'RG181', severity: 'error', message: parsed.message, loc: { file: lockPath, line: parsed.line, member: '' } }]);
    const { acceptBreaking, acceptReason, severity, today } = options;
    return compareWithLock(ir, parsed.lock, { acceptBreaking, acceptReason, severity, today });
  };
  let lock = judgeQuietly(first.ir, lockInput.hash, run, cache, () => judge(first.ir!));
  if ('ok' in lock) return lock;
  if (lock.diagnostics.length > 0 && model === first) {
    // Refusals name the lines of the changes they refuse.
    model = await loadModel(apiPath);
    if (!model.ir) return run.failed(model.diagnostics);
    lock = judge(model.ir);
    if ('ok' in lock) return lock;
  }
  if (lock.diagnostics.length > 0) return run.failed([...model.diagnostics, ...lock.diagnostics]);
  run.lap('lock');
  const inputs: Record<string, InputRecord> = { [lockPath]: lockInput };
  for (const file of new Set([...(first.files ?? []), apiPath])) {
    const { bytes: _, ...input } = inputOf(file);
    inputs[file] = input;
  }
  return { ir: first.ir, located: model.ir, inputs, diagnostics: model.diagnostics, lock };
}

/**
 * The lock's judgement of `ir`, or, when the cache knows that this very lock text found nothing to say about the
 * same API name, versions, released projections and options, that quiet verdict without parsing the lock (a large
 * API's lock is megabytes). An edit of an unreleased version leaves all of these alone.
 */
function judgeQuietly(ir: ApiIR, lockHash: string, run: Run, cache: Cache, judge: () => LockComparison | GenerateResult): LockComparison | GenerateResult {
  const { acceptBreaking, acceptReason, severity, today } = run.options;
  const versions = ir.versions.map((v) => ({ version: v, at: v.released ? project(ir, v.name) : null }));
  const key = hashOf(
    'lock verdict',
    digest({ lockHash, name: ir.name, versions, options: { acceptBreaking, acceptReason, severity, today } }, recallThrough(cache)),
  );
  let outcome: LockComparison | GenerateResult | undefined;
  const verdict = cache.memo(key, () => {
    outcome = judge();
    return 'ok' in outcome || outcome.diagnostics.length > 0 || outcome.findings.length > 0 || outcome.changed ? 'other' : 'quiet';
  });
  if (outcome) return outcome;
  if (verdict !== 'quiet') return judge();
  return {
    diagnostics: [],
    findings: [],
    changed: false,
    get nextLock(): LockFile {
      throw new Error('internal error: the next lock of a quiet verdict was asked for (nothing is written)');
    },
  };
}
