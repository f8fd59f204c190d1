/**
 * @module The stages that read the API: load the module, build the IR and check it (`loadModel`), then judge it
 * against the lock of released versions (`judgeLock`). Call sites (the line of every builder call) only ever show in
 * diagnostics, and capturing one per call is a large part of loading an API: the module is loaded without them, and
 * once more with them when there is something to report (a DSL error, or a refused change to a released version).
 */
import type { ApiIR } from '../model/ir.ts';
import type { LockComparison } from '../lock/compare-lock.ts';
import { judgeLock, readLockText, type LockText } from './lock-verdict.ts';
import type { Memo } from './memo.ts';
import type { SavedRecord } from './run-cache.ts';
import type { GenerateResult } from './generate-types.ts';
import type { Run } from './run.ts';
import { sessionLockText } from './session.ts';
import { loadModel } from './stages.ts';

/** The model of the API as judged by the lock: what the emit stage renders and the write stage records. */
export interface JudgedModel {
  readonly ir: ApiIR;
  /** Every file the API module loaded (its own imports), for the inputs record. */
  readonly files: readonly string[] | undefined;
  /** Warnings of the model (errors stop the run). */
  readonly diagnostics: GenerateResult['diagnostics'];
  readonly lock: LockComparison;
  readonly lockText: LockText;
}

/**
 * Loads, builds, checks and judges the API of `run`; `memo` keeps the lock's verdict between runs, and `saved` (the
 * last run's record) vouches for the lock's hash while its file is unchanged.
 */
export async function modelStage(run: Run, memo: Memo, saved: SavedRecord | undefined, key: string): Promise<JudgedModel | GenerateResult> {
  const { apiPath, lockPath, options } = run;
  const { session } = options;
  let model = await loadModel(apiPath, { callSites: false, ...(session ? { reuse: session.collections } : {}) });
  let callSites = model.diagnostics.length > 0;
  if (callSites) model = await loadModel(apiPath);
  run.lap('load, build, check');
  if (!model.ir) return run.failed(model.diagnostics);
  // A released version is frozen: judge it against its locked contract before anything is written. The lock is
  // known by the hash the last run of this restgen recorded while its stamp stands (the same hash function).
  const lockInput = saved?.record.key === key ? saved.record.inputs[lockPath] : undefined;
  const lockText = sessionLockText(session, lockPath, (file) => readLockText(file, lockInput && saved && { input: lockInput, recordedAt: saved.recordedAt }));
  const judge = async (ir: ApiIR): Promise<LockComparison | GenerateResult> => {
    const verdict = await judgeLock(ir, lockText, memo, options);
    if (!('problem' in verdict)) return verdict;
    return run.failed([{ code: 'RG181', severity: 'error', message: verdict.problem, loc: { file: lockPath, line: verdict.line, member: '' } }]);
  };
  let lock = await judge(model.ir);
  if ('ok' in lock) return lock;
  if (lock.diagnostics.length > 0 && !callSites) {
    // Refusals name the lines of the changes they refuse.
    model = await loadModel(apiPath);
    callSites = true;
    if (!model.ir) return run.failed(model.diagnostics);
    lock = await judge(model.ir);
    if ('ok' in lock) return lock;
  }
  if (lock.diagnostics.length > 0) return run.failed([...model.diagnostics, ...lock.diagnostics]);
  run.lap('lock');
  return { ir: model.ir, files: model.files, diagnostics: model.diagnostics, lock, lockText };
}
