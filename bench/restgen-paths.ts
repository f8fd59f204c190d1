/**
 * @module The ways a build step and a developer run restgen, on a synthetic API of one size: cold generate, one
 * field changed, nothing changed, `check` (up to date), and `check` with no cache (what CI runs right after
 * `npm ci`), each timed as a whole process; and one field changed under `generate --watch`, measured per edit
 * inside one resident process (see `watch-edits.ts`). The API lives in `.bench/n<size>/` with a `node_modules/` folder of
 * its own, so restgen's cache (`node_modules/.cache/restgen`) belongs to that size alone and can be
 * removed for the cold and no-cache paths. The yardsticks are run in turn with what they measure (paired runs): orval's
 * cold run with restgen's cold run and the one-field runs after it, `node -e 0` with nothing changed.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, measureOnce, measurePairs, median, medianSample, type RunSpec, type Sample, type Side } from './measure.ts';
import { breakdownOf, readRunFigures, type Breakdown, type RunFigures } from './stages.ts';
import { syntheticApi } from './synthetic.ts';
import { measureWatch } from './watch-edits.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
// The CLI as users run it; it keeps working when restgen is built into dist/.
const BIN = path.join(ROOT, 'bin/restgen.js');
const FLOOR = path.join(ROOT, 'bench/floor.mjs');

/** The measured paths, in the order they run (each leaves the state the next one starts from). */
export const RESTGEN_PATHS = [
  'cold generate',
  'one field changed',
  'nothing changed',
  'check (up to date)',
  'check, no cache',
  'one field changed, --watch',
] as const;

/** Edits measured on the `--watch` path, after one warm-up edit (`BENCH_WATCH_EDITS`, default 7). */
const WATCH_EDITS = Number(process.env.BENCH_WATCH_EDITS ?? 7);

/** One of {@link RESTGEN_PATHS}. */
export type RestgenPath = (typeof RESTGEN_PATHS)[number];

/** What one size measured. */
export interface SizeRun {
  readonly collections: number;
  readonly dir: string;
  readonly files: number;
  readonly bytes: number;
  readonly paths: { readonly [P in RestgenPath]: Sample };
  /** The physical floor on this machine: a node process that reads the API and writes the same files and bytes. */
  readonly floor: Sample;
  /** Where one field changed spends its time (from `generate --debug` and `node -e 0`). */
  readonly oneField: Breakdown;
  /** orval's cold run (the newest version's client and zod schemas from restgen's document of it), when measured. */
  readonly orval?: Sample;
  /** Node's own start (`node -e 0`), run in turn with nothing changed. */
  readonly nodeStart: Sample;
  /** Medians of the ratios of paired runs (CPU): cold ÷ orval's cold, one field ÷ orval's cold, nothing changed ÷ `node -e 0`. */
  readonly ratios: { readonly coldToOrval?: number; readonly oneFieldToOrval?: number; readonly nothingToNode: number };
}

/**
 * Moves `target` (a folder an earlier run wrote) into `trash` instead of deleting it, when it exists. Deleting
 * thousands of files right before a measured run charges that run for the deletion: ext4 skips inodes freed in
 * the last minutes when it creates files (`recently_deleted`), which makes the creates of a cold generation cost up
 * to ten times the creates of the same files in a quiet folder. A real cold run (a fresh clone, an emptied output
 * folder some time ago) does not follow its own mass deletion; the bench deletes the trash after every
 * measurement ({@link emptyTrash}). Every measured tool is prepared this way.
 */
export function moveAside(target: string, trash: string): void {
  if (!existsSync(target)) return;
  mkdirSync(trash, { recursive: true });
  renameSync(target, path.join(trash, `${path.basename(target)}-${process.pid}-${++moved}`));
}
let moved = 0;

/** The trash folder of the bench under `workRoot` (see {@link moveAside}). */
export const trashOf = (workRoot: string): string => path.join(workRoot, 'trash');

/** Deletes what {@link moveAside} moved into `trash`: only once nothing is being measured any more. */
export function emptyTrash(trash: string): void {
  rmSync(trash, { recursive: true, force: true });
}

/** Writes every file under `from` into one blob (and an index of paths and lengths), for {@link FLOOR}. */
export function packFloor(from: string, blobFile: string, indexFile: string): void {
  const files: [string, number][] = [];
  const chunks: Buffer[] = [];
  const walk = (dir: string, rel: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${rel}${entry.name}/`);
      else {
        const bytes = readFileSync(path.join(dir, entry.name));
        files.push([`${rel}${entry.name}`, bytes.length]);
        chunks.push(bytes);
      }
    }
  };
  walk(from, '');
  writeFileSync(blobFile, Buffer.concat(chunks));
  writeFileSync(indexFile, JSON.stringify(files));
}

/**
 * How many times as often as a cold run the quick paths run (one field changed, nothing changed, `check`, Node's
 * start): they cost well under a second at 200 collections, and three runs left their medians some 10% apart from one
 * bench run to the next on this machine.
 */
export const QUICK_RUNS = 3;

/**
 * Runs every restgen path `runs` times ({@link QUICK_RUNS} times as often for the quick ones) on a fresh synthetic
 * API of `collections` collections; the `--watch` path
 * is one watch process edited {@link WATCH_EDITS} times after a warm-up edit (medians of its edits; peak RSS the
 * highest the process reached). `orvalOf(openapi, dir)`: how to run orval cold on restgen's document, when it is measured.
 */
export async function benchRestgen(collections: number, runs: number, workRoot: string, orvalOf?: (openapi: string, dir: string) => Side): Promise<SizeRun> {
  const dir = path.join(workRoot, `n${collections}`);
  const trash = trashOf(workRoot);
  moveAside(dir, trash);
  mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  const api = path.join(dir, 'api.ts');
  const cache = path.join(dir, 'node_modules/.cache/restgen');
  writeFileSync(api, syntheticApi(collections));
  const restgen = (command: 'generate' | 'check', expectOutput: RegExp): RunSpec => ({ args: [BIN, command, 'api.ts'], cwd: dir, expectOutput });
  const written = /\d+ written/;
  const upToDate = /^up to date/m;
  // One field changed also says where its time goes: `--debug` adds one line, the run's stage times and CPU.
  const oneFieldRuns: RunFigures[] = [];
  const debugged: RunSpec = {
    ...restgen('generate', written),
    args: [BIN, 'generate', '--debug', 'api.ts'],
    onOutput: (out) => oneFieldRuns.push(readRunFigures(out)),
  };
  // Warm-up: jiti's transform cache of restgen's own sources, as every run of a user's build after the first has it.
  measureOnce(restgen('generate', written));
  // orval's input: restgen's document of the newest version, as generated before any edit.
  const openapi = path.join(dir, 'openapi-v3.json');
  copyFileSync(path.join(dir, 'generated/openapi/v3.json'), openapi);
  const orval = orvalOf?.(openapi, path.join(dir, 'orval'));
  const dropCache = () => moveAside(cache, trash);
  let variant = 0;
  const quick = runs * QUICK_RUNS;
  // Each round: a cold run, orval's cold run, then one field changed a few times; each ratio pairs runs of one round.
  const cold: Sample[] = [];
  const orvals: Sample[] = [];
  const fields: Sample[] = [];
  const coldRatios: number[] = [];
  const fieldRatios: number[] = [];
  for (let round = 0; round < runs; round++) {
    dropCache();
    moveAside(path.join(dir, 'generated'), trash);
    const c = measureOnce(restgen('generate', written));
    cold.push(c);
    let o: Sample | undefined;
    if (orval) {
      orval.prepare();
      orvals.push((o = measureOnce(orval.spec)));
      coldRatios.push(c.cpuMs / o.cpuMs);
    }
    for (let i = 0; i < QUICK_RUNS; i++) {
      writeFileSync(api, syntheticApi(collections, ++variant));
      const f = measureOnce(debugged);
      fields.push(f);
      if (o) fieldRatios.push(f.cpuMs / o.cpuMs);
    }
  }
  const still = () => undefined;
  const nothing = measurePairs(quick, { prepare: still, spec: restgen('generate', upToDate) }, { prepare: still, spec: { args: ['-e', '0'], cwd: dir } });
  const paths = {
    'cold generate': medianSample(cold),
    'one field changed': medianSample(fields),
    'nothing changed': nothing.a,
    'check (up to date)': measure(quick, still, restgen('check', upToDate)),
    'check, no cache': measure(quick, dropCache, restgen('check', upToDate)),
  };
  const nodeStart = nothing.b;
  const oneField = breakdownOf(oneFieldRuns, paths['one field changed'].cpuMs, nodeStart.cpuMs);
  const watch = await measureWatch(dir, collections, WATCH_EDITS);
  const watched: Sample = { wallMs: watch.medianWallMs, cpuMs: watch.medianCpuMs, peakRssMiB: watch.peakRssMiB };
  const generated = path.join(dir, 'generated');
  const [blob, index, floorOut] = ['floor.blob', 'floor-index.json', 'floor-out'].map((name) => path.join(dir, name));
  packFloor(generated, blob!, index!);
  const floor = measure(runs, () => moveAside(floorOut!, trash), { args: [FLOOR, api, blob!, index!, floorOut!], cwd: dir });
  moveAside(floorOut!, trash);
  const bytes = Number(execFileSync('du', ['-sb', generated]).toString().split('\t')[0]);
  const files = execFileSync('find', [generated, '-type', 'f']).toString().trim().split('\n').length;
  return {
    collections,
    dir,
    files,
    bytes,
    paths: { ...paths, 'one field changed, --watch': watched },
    floor,
    oneField,
    ...(orval ? { orval: medianSample(orvals) } : {}),
    nodeStart,
    ratios: {
      nothingToNode: nothing.cpuRatio,
      ...(orval ? { coldToOrval: median(coldRatios), oneFieldToOrval: median(fieldRatios) } : {}),
    },
  };
}
