/**
 * @module Server benchmark: the generated create route (request validation, migration, and the response
 * guarantee: the answer shaped and checked against the version's response schema) against a hand-written
 * Fastify route with the same zod request validation, for the newest version (v3) and the oldest (v1,
 * migrated up and down), under autocannon on loopback; and the generated route with `validateResponses:
 * false` (shaping only). Each variant runs in its own process, which reports its CPU time and peak memory.
 * On Linux with two or more cores and `taskset`, the server processes run on the last core and this process
 * (autocannon, the load generator) on the first, so the load generator's work never lands on a server's
 * core (`BENCH_PIN=0` turns that off). Prints requests per second, requests per CPU-second, the ratios to
 * the hand-written route, and peak RSS.
 * By default every variant is measured at the same time (one autocannon per variant, all started together,
 * the variants' order rotated each round): the servers share the one core and the same moment, so a
 * neighbour's load or a change of the machine's speed falls on all of them alike, and each ratio compares
 * CPU time spent in the same seconds. `BENCH_SERVER_MODE=sequential` measures one variant after the other
 * instead (each round forward, then in reverse), as this bench did before 2026-11-23 (night).
 * The generated TypeScript and the hand-written target are compiled to JavaScript first (oxc-transform, types
 * stripped), and the servers run that with plain `node`, as a deployment runs `tsc` output: no loader hook
 * or module interop between the routes and the runtime (`BENCH_SERVER_LOADER=jiti` runs the TypeScript
 * through jiti's loader instead, as this bench did before 2026-11-23).
 * Run: `npx jiti bench/server.ts`; `BENCH_SECONDS` sets each run's duration (default 2), `BENCH_ROUNDS`
 * the rounds (default 3; medians are reported).
 */
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../generator/pipeline/generate.ts';
import { buildRuntime, compileFile, compileTree } from './compile.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const outDir = path.join(root, '.bench/server');
/** The same files compiled to JavaScript, and the compiled target (see the module comment). */
const jsDir = path.join(root, '.bench/server-js');
const JITI = process.env['BENCH_SERVER_LOADER'] === 'jiti';
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 2);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const BODIES = {
  v1: { customer_id: '0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e', product_id: 7, qty: 2, note: 'ring twice' },
  v3: { customer_id: '0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e', product_id: 7, quantity: 2, currency: 'USD', giftMessage: 'Enjoy' },
};
const VARIANTS = ['hand', 'tagged', 'contract', 'generated', 'novalidate'] as const;
const SEQUENTIAL = process.env['BENCH_SERVER_MODE'] === 'sequential';
type Variant = (typeof VARIANTS)[number];

/** The core the servers run on when the bench pins processes (see the module comment), else null. */
const serverCore = ((): number | null => {
  const cores = os.availableParallelism();
  if (process.env['BENCH_PIN'] === '0' || process.platform !== 'linux' || cores < 2) return null;
  if (spawnSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' }).status !== 0) return null;
  return cores - 1;
})();

interface Target {
  readonly base: string;
  stop(): void;
}


/** Starts one variant's process and resolves with its URL. */
function startTarget(variant: Variant): Promise<Target> {
  const command = JITI
    ? [process.execPath, '--import', 'jiti/register', path.join(root, 'bench/server-target.ts'), outDir, variant, 'ts']
    : [process.execPath, path.join(jsDir, 'server-target.js'), path.join(jsDir, 'generated'), variant, 'js'];
  const [file, ...args] = serverCore === null ? command : ['taskset', '-c', String(serverCore), ...command];
  const child = spawn(file!, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve({ base: `http://127.0.0.1:${d.toString().trim()}`, stop: () => child.kill() }));
    child.once('exit', (code) => reject(new Error(`bench target ${variant} exited with ${code}`)));
  });
}

interface Sample {
  /** Requests per second (wall clock). */
  readonly rps: number;
  /** Requests per second of the server's CPU time (user + system). */
  readonly perCpu: number;
}

const usage = async (base: string) => (await (await fetch(`${base}/__usage`)).json()) as { user: number; system: number; maxRssKiB: number };

/** POST `path` with `body` for `seconds` (10 connections); fails on any non-201. */
async function measure(target: Target, url: string, body: object, seconds: number): Promise<Sample> {
  const before = await usage(target.base);
  const result = await autocannon({ url: target.base + url, method: 'POST', connections: 10, duration: seconds, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const after = await usage(target.base);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const cpu = (after.user + after.system - before.user - before.system) / 1e6;
  return { rps: result.requests.average, perCpu: result.requests.total / cpu };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (a: Sample, b: Sample): Sample => ({ rps: (a.rps + b.rps) / 2, perCpu: (a.perCpu + b.perCpu) / 2 });

async function main(): Promise<void> {
  const generated = await generate({ apiPath: path.join(root, 'bench/server-api.ts'), outDir });
  if (!generated.ok) throw new Error(`generate failed: ${JSON.stringify(generated.diagnostics)}`);
  buildRuntime();
  if (!JITI) {
    rmSync(jsDir, { recursive: true, force: true });
    compileTree(outDir, path.join(jsDir, 'generated'));
    writeFileSync(path.join(jsDir, 'server-target.js'), compileFile(path.join(root, 'bench/server-target.ts')));
  }
  const targets = {} as Record<Variant, Target>;
  for (const v of VARIANTS) targets[v] = await startTarget(v);
  try {
    const cases = [
      { name: 'v3 (newest)', url: '/v3/orders', body: BODIES.v3 },
      { name: 'v1 (oldest, migrated)', url: '/v1/orders', body: BODIES.v1 },
    ];
    // Warm up every route (JIT, zod's compiled parsers) before anything is measured.
    for (const c of cases) for (const v of VARIANTS) await measure(targets[v], c.url, c.body, 2);
    const rows = cases.map((c) => ({ c, rounds: [] as Record<Variant, Sample>[] }));
    for (let round = 0; round < ROUNDS; round++)
      for (const { c, rounds } of rows) {
        const both = {} as Record<Variant, Sample>;
        if (SEQUENTIAL) {
          // Each variant, then the same in reverse, so load that drifts during a round falls on every side alike.
          const first: Partial<Record<Variant, Sample>> = {};
          for (const v of VARIANTS) first[v] = await measure(targets[v], c.url, c.body, SECONDS);
          for (const v of [...VARIANTS].reverse()) both[v] = mean(first[v]!, await measure(targets[v], c.url, c.body, SECONDS));
        } else {
          // All at once; the order the load starts in turns each round, so no variant always starts first.
          const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]!);
          const samples = await Promise.all(order.map((v) => measure(targets[v], c.url, c.body, SECONDS)));
          order.forEach((v, i) => (both[v] = samples[i]!));
        }
        rounds.push(both);
      }
    const peaks = Object.fromEntries(await Promise.all(VARIANTS.map(async (v) => [v, (await usage(targets[v].base)).maxRssKiB / 1024] as const)));
    console.log(
      SEQUENTIAL
        ? `server bench: POST create, autocannon 10 connections, ${ROUNDS} rounds of ${VARIANTS.join('/')} and back x ${SECONDS} s per route, one after the other, loopback`
        : `server bench: POST create, ${ROUNDS} rounds x ${SECONDS} s per route, all ${VARIANTS.length} variants at the same time (an autocannon of 10 connections each), loopback`,
    );
    console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}`);
    console.log(serverCore === null ? 'not pinned: servers and load generator share the cores.' : `pinned: every server process on core ${serverCore}, the load generator on core 0.`);
    console.log(JITI ? 'servers run the TypeScript through jiti/register.' : 'servers run the code compiled to JavaScript (oxc-transform), with plain node.');
    console.log('hand: zod request validation and the object sent (no migration, ETag or response check); tagged: the same plus a strong ETag of the text sent;');
    console.log("contract: the generated route's guarantees written by hand with zod and node:crypto.");
    console.log("generated: response validated and shaped (the default); novalidate: validateResponses: false (shaped only).");
    console.log("req/CPU-s: requests per second of the server process's own CPU time, which other processes' load does not skew.\n");
    console.log('| version | route | req/s | ratio req/s | req/CPU-s | ratio req/CPU-s |\n|---|---|---|---|---|---|');
    for (const { c, rounds } of rows)
      for (const v of VARIANTS) {
        const m = (pick: (r: Record<Variant, Sample>) => number) => median(rounds.map(pick));
        const ratio = (key: keyof Sample) => (v === 'hand' ? '1.00x' : `${m((r) => r[v][key] / r.hand[key]).toFixed(2)}x`);
        console.log(`| ${c.name} | ${v} | ${m((r) => r[v].rps).toFixed(0)} | ${ratio('rps')} | ${m((r) => r[v].perCpu).toFixed(0)} | ${ratio('perCpu')} |`);
      }
    for (const { c, rounds } of rows)
      for (const base of ['tagged', 'contract'] as const)
        console.log(`${c.name}: generated ÷ ${base}, req/CPU-s: ${median(rounds.map((r) => r.generated.perCpu / r[base].perCpu)).toFixed(2)}x`);
    console.log(`\npeak RSS of each server process: ${VARIANTS.map((v) => `${v} ${peaks[v]!.toFixed(0)} MiB`).join(', ')}`);
  } finally {
    for (const v of VARIANTS) targets[v]?.stop();
  }
}

await main();
