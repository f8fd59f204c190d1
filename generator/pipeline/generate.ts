/**
 * @module `generate` and `check`: the pipeline's stages composed, each a plain function of its own module:
 *
 *   prove up to date -> load, build, check -> judge the lock -> emit -> plan (render, format, compare) -> write
 *
 * The up-to-date proof (`up-to-date.ts`) answers an unchanged project from the last run's record, without loading
 * anything. Otherwise the API is loaded and judged (`model.ts`), the emitters describe every file (`emit.ts`), the plan
 * compares them with the output folder, rendering through the one cache only what changed (`plan.ts`), and the write
 * stage changes the project and records the run (`write.ts`). `check` runs the same stages and writes nothing. Nothing
 * is written unless every stage before the write succeeded, so a failed run leaves the previous output untouched.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../package-root.ts';
import { unusableOutput } from '../write/output-folder.ts';
import { cacheFile, openCache, type Cache, type RunRecord } from './cache.ts';
import { hashOf } from './digest.ts';
import type { GenerateOptions, GenerateResult } from './generate-types.ts';
import { startRun, type Run } from './run.ts';
import { stampOf, treeStamp } from './stamps.ts';
import { proveUpToDate } from './up-to-date.ts';

export type { GenerateOptions, GenerateResult, StaleReason } from './generate-types.ts';

/** `emitAll` of `emit.ts`, loaded on demand (a run the proof answers loads neither it nor the emitters). */
export const emitAll: typeof import('./emit.ts').emitAll = async (...args) => (await import('./emit.ts')).emitAll(...args);
/** `loadModel` of `model.ts`, loaded on demand. */
export const loadModel: typeof import('./model.ts').loadModel = async (...args) => (await import('./model.ts')).loadModel(...args);

/**
 * restgen's own folders that decide what it generates: the code that runs (`dist/` when built, as installed or run by
 * `bin/restgen.js`, which bundles what it takes of the runtime package; else the sources, as tests and scripts run
 * them), the templates and the runtime copied into the output.
 */
const OWN = fileURLToPath(import.meta.url).includes(`${path.sep}dist${path.sep}`)
  ? ['dist', 'templates', 'runtime']
  : ['generator', 'packages/runtime/src', 'templates', 'runtime'];

/**
 * The cache's key: restgen itself and the template overrides (their files' stamps, and the newest time among them:
 * a file changed in the same clock tick as a record must not pass for unchanged), and the options that decide what
 * is written besides the API's files.
 */
function cacheKey(run: Run): { readonly key: string; readonly newest: bigint } {
  const own = treeStamp(OWN.map((part) => path.join(PACKAGE_ROOT, part)));
  const overrides = run.options.templatesDir === undefined ? undefined : treeStamp([path.resolve(run.options.templatesDir)]);
  const options = JSON.stringify([run.parts, run.sourcePath, run.options.severity ?? null, run.options.templatesDir ?? null]);
  const newest = overrides && overrides.newest > own.newest ? overrides.newest : own.newest;
  return { key: hashOf(own.stamp, stampOf(path.join(PACKAGE_ROOT, 'package.json')) ?? '', overrides?.stamp ?? '', options), newest };
}

/** Generates (or checks) the output of one API module. */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const run = startRun(options);
  const unusable = unusableOutput(run.outDir);
  if (unusable)
    return run.failed([
      {
        code: 'RG202',
        severity: 'error',
        message: `${unusable}; restgen reads every file there and writes and removes the files it generates: choose a folder in your project (--out, or out in the config file; the default is generated/ beside the API module).`,
      },
    ]);
  const { key, newest } = cacheKey(run);
  const cache = openCache(cacheFile(run.apiPath, run.outDir, options.templatesDir), key, newest);
  const proof = await proveUpToDate(run, cache);
  if (proof) return run.upToDate(proof);
  run.lap('up-to-date check');
  let record: RunRecord | undefined;
  try {
    const done = await stages(run, cache);
    record = done.record;
    return done.result;
  } finally {
    // What was computed stays computed, a failed run's too; the record changes only after a complete run.
    cache.save(record);
  }
}

/** The stages after the proof: load, build, check and judge, emit, plan, write. */
async function stages(run: Run, cache: Cache): Promise<{ readonly result: GenerateResult; readonly record?: RunRecord | undefined }> {
  // Imported here: a run the proof answers never loads them.
  const [{ modelStage }, { emitWith }, { planOutputs }, { recordOf, writeStage }] = await Promise.all([
    import('./model.ts'),
    import('./emit.ts'),
    import('./plan.ts'),
    import('./write.ts'),
  ]);
  const { outDir, mode, options } = run;
  const model = await modelStage(run, cache);
  if ('ok' in model) return { result: model };
  let plan: Awaited<ReturnType<typeof planOutputs>>;
  try {
    const emitted = await emitWith(model.ir, run.sourcePath, options.templatesDir, run.parts, cache);
    run.lap('emit');
    // Files render when the plan needs their text: a template override can fail there too.
    plan = await planOutputs(run, emitted, cache);
  } catch (error) {
    // A template override that fails to compile or render is the user's error (RG201); anything else is restgen's.
    if (!options.templatesDir || !(error instanceof Error) || !error.message.startsWith('template override')) throw error;
    return { result: run.failed([{ code: 'RG201', severity: 'error', message: error.message }]) };
  }
  if (plan.conflicts.length > 0) {
    const message = (rel: string) =>
      `${path.join(outDir, rel)} exists and was not generated by restgen; restgen will not overwrite it. Move it away or choose another --out.`;
    return {
      result: run.failed(
        plan.conflicts.map((rel) => ({ code: 'RG200', severity: 'error', message: message(rel) })),
        { files: plan.produced },
      ),
    };
  }
  const { written, lockChanged } = await writeStage(run, plan, model);
  const record = recordOf(run, plan, model, lockChanged);
  run.lap('write');
  const stale = Object.keys(plan.staleReasons).sort();
  const result: GenerateResult = {
    ok: mode === 'write' || (stale.length === 0 && !model.lock.changed),
    diagnostics: model.diagnostics,
    outDir,
    files: plan.produced,
    written,
    removed: mode === 'write' ? plan.removals : [],
    stale,
    staleReasons: plan.staleReasons,
    formatted: plan.formatted,
    renders: { ...cache.stats },
    cached: false,
    lockFindings: model.lock.findings,
    lockChanged,
    lockPath: run.lockPath,
    timings: run.timings,
    ir: model.located,
  };
  return { result, record };
}
