/**
 * @module The write stage, the only one that changes the project: the plan's files written atomically and the
 * generated files no longer produced removed (never a file that is not restgen's), the lock rewritten when the run
 * changed it; then the run record, the up-to-date proof of the next run on this machine.
 */
import path from 'node:path';
import { partsText } from '../emit/parts.ts';
import { writeLockFile } from '../lock/lock-file.ts';
import { applyPlan } from '../write/output-folder.ts';
import { stampOf } from './file-stamp.ts';
import type { JudgedModel } from './model-stage.ts';
import type { Plan } from './plan.ts';
import { outputSettingsStamp, outputStamps, recordInputs, saveRecord, type OutputRecord } from './run-cache.ts';
import type { Run } from './run.ts';
import { forgetLock, holdRecord } from './session.ts';

/** Writes the plan (generate only); returns the files written and whether the lock was. */
export async function writeStage(run: Run, plan: Plan, model: JudgedModel): Promise<{ readonly written: readonly string[]; readonly lockChanged: boolean }> {
  const { lock } = model;
  if (run.mode === 'check') return { written: [], lockChanged: lock.changed };
  run.lap('compare');
  await applyPlan(run.outDir, plan.writes, plan.removals);
  const written = plan.writes.map((w) => w.path);
  // Written: their texts need not stay alive while the caches are saved.
  plan.writes.length = 0;
  const lockChanged = lock.changed && writeLockFile(run.lockPath, lock.nextLock);
  if (lock.changed) forgetLock(run.options.session);
  return { written, lockChanged };
}

/**
 * Records the run for the next one's up-to-date proof (see `up-to-date.ts`): every input and output with its hash
 * and stamp. Not while a file is stale, a header or the inputs record is behind, or check found the lock behind:
 * the record would let the next run answer "up to date" and keep it so.
 */
export function recordRun(run: Run, plan: Plan, model: JudgedModel, written: readonly string[], lockChanged: boolean, key: string): void {
  const { apiPath, outDir, lockPath, options, mode } = run;
  if (plan.stale.length > 0 || plan.headersBehind > 0 || plan.recordBehind || (mode === 'check' && model.lock.changed) || !model.files) return;
  // The lock as this run read it, unless the run rewrote it.
  const inputs = { ...plan.apiInputs, ...recordInputs([lockPath], lockChanged ? undefined : new Map([[lockPath, model.lockText.input]])) };
  // Only the files this run wrote have new stamps: the rest were taken before it, and nothing else changed them.
  const stamps = plan.stampsBefore
    ? new Map([...plan.stampsBefore, ...written.map((rel) => [rel, stampOf(path.join(outDir, rel)) ?? ''] as const)])
    : outputStamps(outDir);
  const outputs: Record<string, OutputRecord> = {};
  for (const [rel, o] of Object.entries(plan.outputs)) outputs[rel] = { ...o, stamp: stamps.get(rel) ?? '' };
  const settings = outputSettingsStamp(outDir, Object.keys(outputs))?.stamp ?? null;
  holdRecord(
    options.session,
    apiPath,
    outDir,
    options.templatesDir,
    saveRecord(apiPath, outDir, options.templatesDir, { key, parts: partsText(run.parts), inputs, outputs, settings }),
  );
}
