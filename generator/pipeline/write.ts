/**
 * @module The write stage, the only one that changes the project: the plan's files written atomically and the files
 * of this API no longer produced removed (never a file that is not restgen's), the lock rewritten when the run
 * changed it; then the record of the run, the up-to-date proof of the next one.
 */
import path from 'node:path';
import { writeLockFile } from '../lock/lock-file.ts';
import { applyPlan } from '../write/output-folder.ts';
import type { InputRecord, OutputRecord, RunRecord } from './cache.ts';
import { inputOf, type JudgedModel } from './model.ts';
import type { Plan } from './plan.ts';
import type { Run } from './run.ts';
import { stampOf } from './stamps.ts';
import { configFiles } from './up-to-date.ts';

/** Writes the plan (generate only); returns the files written and whether the lock was. */
export async function writeStage(run: Run, plan: Plan, model: JudgedModel): Promise<{ readonly written: readonly string[]; readonly lockChanged: boolean }> {
  const { lock } = model;
  if (run.mode === 'check') return { written: [], lockChanged: lock.changed };
  run.lap('compare');
  await applyPlan(run.outDir, plan.writes, plan.removals);
  const written = plan.writes.map((w) => w.path);
  // Written: their bytes need not stay alive while the cache is saved.
  plan.writes.length = 0;
  return { written, lockChanged: lock.changed && writeLockFile(run.lockPath, lock.nextLock) };
}

/**
 * What the run proved for the next one: every input and output with its hash and stamp. Nothing while an output
 * is stale or check found the lock behind: a record would let the next run answer "up to date" and keep it so.
 */
export function recordOf(run: Run, plan: Plan, model: JudgedModel, lockChanged: boolean): RunRecord | undefined {
  const { outDir, lockPath } = run;
  if (Object.keys(plan.staleReasons).length > 0 || (run.mode === 'check' && model.lock.changed)) return undefined;
  const outputs: Record<string, OutputRecord> = {};
  for (const [rel, o] of Object.entries(plan.outputs)) {
    const stamp = o.stamp ?? stampOf(path.join(outDir, rel));
    if (stamp === undefined) return undefined;
    outputs[rel] = { ...o, stamp };
  }
  const inputs: Record<string, InputRecord> = { ...model.inputs };
  const configs = configFiles(run.formatter, outDir, new Set(Object.keys(plan.settings).map((key) => key.split('\0')[0]!)));
  for (const file of [...(configs ?? []), ...(lockChanged ? [lockPath] : [])]) {
    const { bytes: _, ...input } = inputOf(file);
    inputs[file] = input;
  }
  return { inputs, settings: plan.settings, configs: configs ?? null, outputs };
}
