/**
 * @module `npm run bench`: restgen on synthetic APIs of 20, 200 and 1,000 collections, every path a build
 * step runs, as whole processes (wall, CPU, peak RSS; medians), orval on the same API in the same run,
 * then the client-size, server, version-resolution and memory-outbox benchmarks. Prints Markdown for the README and writes
 * `.bench/bench-results.json`.
 *
 * Environment: `BENCH_SIZES` (default `20,200,1000`), `BENCH_RUNS` (default 3), `BENCH_WATCH_EDITS` (default 7,
 * after one warm-up edit), `BENCH_PEERS=0` skips orval, `BENCH_ONLY_GENERATE=1` skips the client-size and server
 * benchmarks.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchDiff } from './diff.ts';
import { measureOrval, orvalVersion } from './orval.ts';
import { buildReport, formatReport, type SizeResult } from './report.ts';
import { benchRestgen } from './restgen-paths.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WORK = path.join(ROOT, '.bench');
const SIZES = (process.env.BENCH_SIZES ?? '20,200,1000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PEERS = process.env.BENCH_PEERS !== '0';

/** Runs another benchmark script in its own process (with `nodeFlags`), its output passed through. */
function runScript(script: string, nodeFlags: readonly string[] = []): void {
  execFileSync(process.execPath, [...nodeFlags, path.join(ROOT, 'node_modules/jiti/lib/jiti-cli.mjs'), path.join(ROOT, 'bench', script)], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

async function main(): Promise<void> {
  const loadAtStart = os.loadavg()[0]!;
  mkdirSync(WORK, { recursive: true });
  const sizes: SizeResult[] = [];
  for (const collections of SIZES) {
    console.error(`bench: ${collections} collections...`);
    const { dir, openapi, ...run } = await benchRestgen(collections, RUNS, WORK);
    const orval = PEERS ? measureOrval(openapi, path.join(dir, 'orval'), RUNS) : undefined;
    const diffMs = benchDiff({ collections }).medianMs;
    sizes.push({ ...run, ...(orval ? { orval } : {}), diffMs });
  }
  const report = buildReport(sizes, RUNS, PEERS ? orvalVersion() : 'not run', loadAtStart);
  writeFileSync(path.join(WORK, 'bench-results.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(formatReport(report));
  console.log(`\n(written to ${path.relative(ROOT, path.join(WORK, 'bench-results.json'))})`);
  if (process.env.BENCH_ONLY_GENERATE === '1') return;
  console.log('');
  runScript('client-size.ts');
  console.log('');
  runScript('server.ts');
  console.log('');
  runScript('versions.ts');
  console.log('');
  runScript('server-serializer.ts');
  console.log('');
  runScript('outbox.ts', ['--expose-gc']);
}

await main();
