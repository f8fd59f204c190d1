/**
 * @module `npm run bench`: times restgen on a synthetic 200-collection API as whole processes, the way a
 * user's build step runs it (median of several runs), and prints a Markdown table for the README.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchDiff } from '../generator/diff/index.ts';
import { syntheticApi } from './synthetic.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const BIN = path.join(ROOT, 'bin/restgen.js');
const WORK = path.join(ROOT, '.bench');
const COLLECTIONS = Number(process.env.BENCH_COLLECTIONS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

function timeRestgen(args: string[], expectCode = 0): number {
  const started = performance.now();
  try {
    execFileSync(process.execPath, [BIN, ...args], { cwd: WORK, stdio: 'pipe' });
    if (expectCode !== 0) throw new Error(`restgen ${args.join(' ')} exited 0, expected ${expectCode}`);
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status !== expectCode) throw error;
  }
  return performance.now() - started;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function scenario(name: string, prepare: () => void, args: string[], expectCode = 0): { name: string; ms: number } {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    prepare();
    times.push(timeRestgen(args, expectCode));
  }
  return { name, ms: median(times) };
}

/** Runs another benchmark script in its own process, its output passed through. */
function runScript(script: string): void {
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/jiti/lib/jiti-cli.mjs'), path.join(ROOT, 'bench', script)], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

function main(): void {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const api = path.join(WORK, 'api.ts');
  writeFileSync(api, syntheticApi(COLLECTIONS));
  // Warm jiti's transform cache once, as any second run of a user's build has it.
  timeRestgen(['check', 'api.ts'], 1);
  let variant = 0;
  const results = [
    scenario('cold generate (empty output folder)', () => rmSync(path.join(WORK, 'generated'), { recursive: true, force: true }), ['generate', 'api.ts']),
    scenario('generate, nothing changed', () => undefined, ['generate', 'api.ts']),
    scenario('generate, one field changed', () => writeFileSync(api, syntheticApi(COLLECTIONS, ++variant)), ['generate', 'api.ts']),
    scenario('check (up to date)', () => undefined, ['check', 'api.ts']),
  ];
  const out = execFileSync('du', ['-sb', path.join(WORK, 'generated')]).toString().split('\t')[0];
  const files = execFileSync('find', [path.join(WORK, 'generated'), '-type', 'f']).toString().trim().split('\n').length;
  console.log(`restgen bench: ${COLLECTIONS} collections x 12 fields x 3 versions; ${files} files, ${(Number(out) / 1e6).toFixed(2)} MB generated`);
  console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; median of ${RUNS} whole-process runs\n`);
  console.log('| scenario | time |\n|---|---|');
  for (const r of results) console.log(`| ${r.name} | ${(r.ms / 1000).toFixed(2)} s |`);

  const diff = benchDiff({ collections: COLLECTIONS });
  console.log(`\n${diff.name}, in process, projection included: ${diff.medianMs} ms median of ${diff.runs} (${diff.findings} findings)\n`);
  if (process.env.BENCH_ONLY_GENERATE === '1') return;
  runScript('client-size.ts');
  console.log('');
  runScript('server.ts');
  console.log('');
  runScript('server-serializer.ts');
}

main();
