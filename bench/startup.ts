/**
 * @module Start-up benchmark: the generated server of the synthetic 200-collection API (3 versions, 12 fields
 * per collection, bearer and API-key auth, an API-wide rate limit) against the same routes written by hand
 * with plain Fastify and the same generated zod schemas (`startup-target.ts`), each a whole node process from
 * its start to its first answer (a GET of one resource, 200): CPU time (user + system, all threads, from
 * inside the process), wall time (from the spawn to the answer) and peak resident memory. Both run the
 * generated code compiled to JavaScript (oxc-transform) under plain node, with the runtime package built
 * from its sources. Runs are paired and interleaved (each pair's order alternates: generated first, then
 * hand first), after one warm-up run of each; medians are reported, with the median of the pairs' own ratios.
 * Run: `npx jiti bench/startup.ts`; `BENCH_STARTUP_RUNS` (default 7 pairs), `BENCH_STARTUP_COLLECTIONS`
 * (default 200); `BENCH_STARTUP_PROFILE=<dir>` runs each variant once more with `--cpu-prof` into `<dir>`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../generator/pipeline/generate.ts';
import { buildRuntime, compileFile, compileTree } from './compile.ts';
import { measuredEnv, median, type Sample } from './measure.ts';
import { syntheticApi } from './synthetic.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WORK = path.join(ROOT, '.bench/startup');
const JS = path.join(ROOT, '.bench/startup-js');
const PRELOAD = fileURLToPath(new URL('./usage-on-exit.mjs', import.meta.url));
const RUNS = Number(process.env['BENCH_STARTUP_RUNS'] ?? 7);
const COLLECTIONS = Number(process.env['BENCH_STARTUP_COLLECTIONS'] ?? 200);
const PROFILE = process.env['BENCH_STARTUP_PROFILE'];
const VARIANTS = ['generated', 'hand'] as const;
type Variant = (typeof VARIANTS)[number];
/** The first request: one resource of the newest version, with the API key both variants accept. */
const FIRST = { path: '/v3/things0/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11', headers: { 'x-api-key': 'bench-key' } };

/** GETs `FIRST` from the server at `port`: its status. */
const firstAnswer = (port: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: FIRST.path, headers: FIRST.headers }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
    req.end();
  });

/** Starts one variant's process, asks its first answer, ends it: what it cost. */
async function runOnce(variant: Variant, flags: readonly string[] = []): Promise<Sample> {
  const usageFile = path.join(os.tmpdir(), `restgen-bench-startup-${process.pid}.json`);
  rmSync(usageFile, { force: true });
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', PRELOAD, ...flags, path.join(JS, 'startup-target.js'), path.join(JS, 'generated'), variant, String(COLLECTIONS)],
    {
      cwd: ROOT,
      env: { ...measuredEnv(), RESTGEN_BENCH_USAGE: usageFile },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    void exited.then((code) => reject(new Error(`startup target ${variant} exited with ${code} before listening`)));
  });
  const status = await firstAnswer(port);
  const wallMs = performance.now() - started;
  child.stdin.end();
  const code = await exited;
  if (status !== 200 || code !== 0) throw new Error(`startup target ${variant}: first answer ${status}, exit ${code}`);
  const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as { userUs: number; systemUs: number; maxRssKiB: number };
  rmSync(usageFile, { force: true });
  return { wallMs, cpuMs: (usage.userUs + usage.systemUs) / 1000, peakRssMiB: usage.maxRssKiB / 1024 };
}

/** Writes the synthetic API, generates it, compiles it and the target to JavaScript, builds the runtime. */
async function prepare(): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  const api = path.join(WORK, 'api.ts');
  writeFileSync(api, syntheticApi(COLLECTIONS));
  const generated = await generate({ apiPath: api, outDir: path.join(WORK, 'generated') });
  if (!generated.ok) throw new Error(`generate failed: ${JSON.stringify(generated.diagnostics)}`);
  buildRuntime();
  rmSync(JS, { recursive: true, force: true });
  compileTree(path.join(WORK, 'generated'), path.join(JS, 'generated'));
  writeFileSync(path.join(JS, 'startup-target.js'), compileFile(path.join(ROOT, 'bench/startup-target.ts')));
}

const ms = (x: number): string => `${Math.round(x)} ms`;
const ratio = (x: number): string => `${x.toFixed(2)}x`;

async function main(): Promise<void> {
  await prepare();
  // The first run of each reads the compiled files from disk; the page cache then holds them for every run.
  for (const v of VARIANTS) await runOnce(v);
  const pairs: Record<Variant, Sample>[] = [];
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
    const pair = {} as Record<Variant, Sample>;
    for (const v of order) pair[v] = await runOnce(v);
    pairs.push(pair);
    console.error(`startup: pair ${i + 1}/${RUNS}: generated ${ms(pair.generated.cpuMs)} CPU, hand ${ms(pair.hand.cpuMs)} CPU`);
  }
  if (PROFILE) {
    mkdirSync(PROFILE, { recursive: true });
    for (const v of VARIANTS) await runOnce(v, ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`, `--cpu-prof-name=${v}.cpuprofile`]);
    console.error(`startup: profiles written to ${PROFILE}`);
  }
  const of = (v: Variant, key: keyof Sample) => median(pairs.map((p) => p[v][key]));
  const pairRatio = (key: keyof Sample) => median(pairs.map((p) => p.generated[key] / p.hand[key]));
  console.log(
    `start-up bench: synthetic API, ${COLLECTIONS} collections x 3 versions (list, get, create, replace, update, delete each), compiled to JavaScript (oxc-transform), plain node; each a whole process from its start to its first answer (GET one resource, 200).`,
  );
  console.log(`${RUNS} pairs, run one after the other, each pair's order alternating; after one warm-up run of each. Medians.`);
  console.log(
    'generated: `registerBenchApi` of the generated server (route specs over @restgen/runtime; OpenAPI documents served). hand: the same routes written by hand with plain Fastify and the same generated zod modules (request parsed by zod, the value sent as JSON, the API key and the API-wide rate limit checked in one hook; no 405/OPTIONS answers, ETags, migrations or response checks).',
  );
  console.log('CPU: user + system of the whole process; wall: from the spawn to the first answer; RSS: peak resident memory.\n');
  console.log('| variant | CPU | wall | peak RSS |\n|---|---|---|---|');
  for (const v of VARIANTS) console.log(`| ${v} | ${ms(of(v, 'cpuMs'))} | ${ms(of(v, 'wallMs'))} | ${Math.round(of(v, 'peakRssMiB'))} MiB |`);
  console.log(
    `| generated ÷ hand (median of the pairs' ratios) | ${ratio(pairRatio('cpuMs'))} | ${ratio(pairRatio('wallMs'))} | ${ratio(pairRatio('peakRssMiB'))} |`,
  );
  console.log(`\ntarget: ≤ 1.15x CPU, wall and peak RSS. Machine load average ${os.loadavg()[0]!.toFixed(2)} at the end (${os.cpus().length} cores).`);
}

await main();
