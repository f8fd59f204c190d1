/**
 * @module `npm run bench`: restgen on synthetic APIs of 20, 200 and 1,000 collections, every path a build
 * step runs, as whole processes (wall, CPU, peak RSS; medians), orval on the same API in the same run,
 * then the OpenAPI document size, client-size, server, start-up, version-resolution, memory-outbox, several-instances, fair-delivery, upload and event-stream fan-out benchmarks. Prints each benchmark's Markdown table, writes it
 * into the docs' performance page (`docs/performance.md`, each table between its markers, replacing the last run's)
 * and writes `.bench/bench-results.json`.
 *
 * Environment: `BENCH_SIZES` (default `20,200,1000`), `BENCH_RUNS` (default 3), `BENCH_WATCH_EDITS` (default 7,
 * after one warm-up edit), `BENCH_PEERS=0` skips orval, `BENCH_ONLY_GENERATE=1` skips the client-size and server
 * benchmarks, `BENCH_ONLY=server,versions` runs only the benchmarks named (not generation), each replacing its
 * own table on the page.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDiff } from './diff.ts';
import { orvalCold, orvalVersion } from './orval.ts';
import { buildReport, formatReport, machineLine, withBenchmark, type BenchmarkId, type SizeResult } from './report.ts';
import { benchRestgen, emptyTrash, trashOf } from './restgen-paths.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WORK = path.join(ROOT, '.bench');
const SIZES = (process.env.BENCH_SIZES ?? '20,200,1000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PEERS = process.env.BENCH_PEERS !== '0';

const PAGE = path.join(ROOT, 'docs/performance.md');

/** Writes one benchmark's table into the performance page (its section only; the others keep their last run). */
function record(id: BenchmarkId, markdown: string, machine: string): void {
  const page = existsSync(PAGE) ? readFileSync(PAGE, 'utf8') : '';
  writeFileSync(PAGE, withBenchmark(page, id, markdown, machine));
  console.error(`bench: ${id} written to ${path.relative(ROOT, PAGE)}`);
}

/**
 * Runs another benchmark script in its own process (with `nodeFlags`): its progress (stderr) passed through, its
 * Markdown (stdout) printed and recorded in the performance page.
 */
function runScript(id: BenchmarkId, script: string, nodeFlags: readonly string[] = []): void {
  const load = os.loadavg()[0]!;
  const out = execFileSync(process.execPath, [...nodeFlags, path.join(ROOT, 'node_modules/jiti/lib/jiti-cli.mjs'), path.join(ROOT, script)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  console.log(out);
  record(id, out, machineLine(load));
}

async function main(): Promise<void> {
  const loadAtStart = os.loadavg()[0]!;
  mkdirSync(WORK, { recursive: true });
  const sizes: SizeResult[] = [];
  for (const collections of SIZES) {
    console.error(`bench: ${collections} collections...`);
    const { dir: _, ...run } = await benchRestgen(collections, RUNS, WORK, PEERS ? (openapi, dir) => orvalCold(openapi, dir, trashOf(WORK)) : undefined);
    const diffMs = benchDiff({ collections }).medianMs;
    sizes.push({ ...run, diffMs });
  }
  emptyTrash(trashOf(WORK));
  const report = buildReport(sizes, RUNS, PEERS ? orvalVersion() : 'not run', loadAtStart);
  writeFileSync(path.join(WORK, 'bench-results.json'), `${JSON.stringify(report, null, 2)}\n`);
  const generation = formatReport(report);
  console.log(generation);
  console.log(`\n(written to ${path.relative(ROOT, path.join(WORK, 'bench-results.json'))})`);
  // The generation report names its machine and load itself.
  record('generation', generation, '');
  if (process.env.BENCH_ONLY_GENERATE === '1') return;
  runScripts(SCRIPTS);
}

/** The benchmarks that run as scripts of their own (paths from the repository's root), in page order, with the node flags they need. */
const SCRIPTS: readonly [BenchmarkId, string, readonly string[]][] = [
  ['documents', 'bench/documents.ts', []],
  ['client-size', 'bench/client-size.ts', []],
  ['server', 'bench/server.ts', []],
  ['startup', 'bench/startup.ts', []],
  ['versions', 'bench/versions.ts', []],
  ['serializer', 'bench/server-serializer.ts', []],
  // A building block of @restgen/runtime measured alone: it lives with the package's sources.
  ['outbox', 'packages/runtime/bench/outbox.ts', ['--expose-gc']],
  ['instances', 'bench/instances.ts', []],
  ['fairness', 'packages/runtime/bench/fairness.ts', []],
  ['uploads', 'bench/uploads.ts', []],
  ['stream', 'bench/stream.ts', ['--expose-gc']],
];

function runScripts(scripts: typeof SCRIPTS): void {
  for (const [id, script, flags] of scripts) runScript(id, script, flags);
}

const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
if (only) {
  const unknown = only.filter((id) => !SCRIPTS.some(([known]) => known === id));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY names ${unknown.join(', ')}; the benchmarks are ${SCRIPTS.map(([id]) => id).join(', ')}`);
  runScripts(SCRIPTS.filter(([id]) => only.includes(id)));
} else await main();
