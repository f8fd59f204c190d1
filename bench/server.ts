/**
 * @module Server benchmark: the generated routes (request validation, migration, and the response guarantee:
 * each resource answered shaped and checked against the version's response schema) against hand-written
 * Fastify routes with the same zod request validation, for the newest version (v3) and the oldest (v1,
 * migrated up and down), under autocannon on loopback: GET of one order, a list page of 20 orders and a
 * POST create; and the generated routes with `validateResponses: false` (shaping only). Each variant runs
 * in its own process, which reports its CPU time and peak memory.
 * On Linux with two or more cores and `taskset`, the server processes run on the last core and this process
 * (autocannon, the load generator) on the first, so the load generator's work never lands on a server's
 * core (`BENCH_PIN=0` turns that off). Prints requests per second, requests per CPU-second, the CPU per
 * request of each variant relative to the hand-written route, and peak RSS.
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
 * the rounds (default 3; medians are reported), `BENCH_SERVER_CASES` the routes measured (default all:
 * `get,list,query,create`; `query` is a list with a two-operator range filter and a sort).
 */
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** One route measured: its request and the status every answer must have. */
interface Case {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly body?: object;
  readonly status: number;
}

/** Sends `c`'s request for `seconds` (10 connections); fails on any answer but the case's status. */
async function measure(target: Target, c: Case, seconds: number): Promise<Sample> {
  const before = await usage(target.base);
  const result = await autocannon({
    url: target.base + c.url,
    method: c.method,
    connections: 10,
    duration: seconds,
    ...(c.body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(c.body) } : {}),
  });
  const after = await usage(target.base);
  const wrong = result.statusCodeStats ? Object.keys(result.statusCodeStats).filter((code) => Number(code) !== c.status) : [];
  if (result.non2xx > 0 || result.errors > 0 || wrong.length > 0)
    throw new Error(`${c.method} ${c.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, statuses ${wrong.join(', ')}`);
  const cpu = (after.user + after.system - before.user - before.system) / 1e6;
  return { rps: result.requests.average, perCpu: result.requests.total / cpu };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (a: Sample, b: Sample): Sample => ({ rps: (a.rps + b.rps) / 2, perCpu: (a.perCpu + b.perCpu) / 2 });

const ORDER = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d01';
/** The routes measured, by kind (`BENCH_SERVER_CASES`). */
const CASES: Readonly<Record<string, readonly Case[]>> = {
  get: [
    { name: 'v3 (newest): GET one', method: 'GET', url: `/v3/orders/${ORDER}`, status: 200 },
    { name: 'v1 (oldest, migrated): GET one', method: 'GET', url: `/v1/orders/${ORDER}`, status: 200 },
  ],
  list: [
    { name: 'v3 (newest): list of 20', method: 'GET', url: '/v3/orders?limit=20', status: 200 },
    { name: 'v1 (oldest, migrated): list of 20', method: 'GET', url: '/v1/orders?limit=20', status: 200 },
  ],
  // A list that queries: a two-operator range filter and a sort, parsed, checked and structured for the handler.
  query: [
    {
      name: 'v3 (newest): list of 20, range and sort',
      method: 'GET',
      url: '/v3/orders?limit=20&quantity[gte]=1&quantity[lt]=1000&sort=-createdAt',
      status: 200,
    },
    {
      name: 'v1 (oldest, migrated): list of 20, range and sort',
      method: 'GET',
      url: '/v1/orders?limit=20&qty[gte]=1&qty[lt]=1000&sort=-createdAt',
      status: 200,
    },
  ],
  create: [
    { name: 'v3 (newest): POST create', method: 'POST', url: '/v3/orders', body: BODIES.v3, status: 201 },
    { name: 'v1 (oldest, migrated): POST create', method: 'POST', url: '/v1/orders', body: BODIES.v1, status: 201 },
  ],
};

async function main(): Promise<void> {
  const generated = await generate({ apiPath: path.join(root, 'bench/server-api.ts'), outDir });
  if (!generated.ok) throw new Error(`generate failed: ${JSON.stringify(generated.diagnostics)}`);
  buildRuntime();
  if (!JITI) {
    rmSync(jsDir, { recursive: true, force: true });
    compileTree(outDir, path.join(jsDir, 'generated'));
    writeFileSync(path.join(jsDir, 'server-target.js'), compileFile(path.join(root, 'bench/server-target.ts')));
    copyFileSync(path.join(root, 'bench/peak-rss.mjs'), path.join(jsDir, 'peak-rss.mjs'));
  }
  const targets = {} as Record<Variant, Target>;
  for (const v of VARIANTS) targets[v] = await startTarget(v);
  try {
    const cases = (process.env['BENCH_SERVER_CASES'] ?? 'get,list,query,create').split(',').flatMap((kind) => {
      const known = CASES[kind];
      if (!known) throw new Error(`BENCH_SERVER_CASES names ${kind}; the cases are ${Object.keys(CASES).join(', ')}`);
      return known;
    });
    // Warm up every route (JIT, zod's compiled parsers, the routes' first-request build) before anything is measured.
    for (const c of cases) await Promise.all(VARIANTS.map((v) => measure(targets[v], c, 2)));
    const rows = cases.map((c) => ({ c, rounds: [] as Record<Variant, Sample>[] }));
    for (let round = 0; round < ROUNDS; round++)
      for (const { c, rounds } of rows) {
        const both = {} as Record<Variant, Sample>;
        if (SEQUENTIAL) {
          // Each variant, then the same in reverse, so load that drifts during a round falls on every side alike.
          const first: Partial<Record<Variant, Sample>> = {};
          for (const v of VARIANTS) first[v] = await measure(targets[v], c, SECONDS);
          for (const v of [...VARIANTS].reverse()) both[v] = mean(first[v]!, await measure(targets[v], c, SECONDS));
        } else {
          // All at once; the order the load starts in turns each round, so no variant always starts first.
          const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]!);
          const samples = await Promise.all(order.map((v) => measure(targets[v], c, SECONDS)));
          order.forEach((v, i) => (both[v] = samples[i]!));
        }
        rounds.push(both);
      }
    const peaks = Object.fromEntries(await Promise.all(VARIANTS.map(async (v) => [v, (await usage(targets[v].base)).maxRssKiB / 1024] as const)));
    const routes = cases.map((c) => `${c.method} ${c.url.replace(ORDER, '{id}')}`).join(', ');
    console.log(
      SEQUENTIAL
        ? `server bench: ${routes}; autocannon 10 connections, ${ROUNDS} rounds of ${VARIANTS.join('/')} and back x ${SECONDS} s per route, one after the other, loopback`
        : `server bench: ${routes}; ${ROUNDS} rounds x ${SECONDS} s per route, all ${VARIANTS.length} variants at the same time (an autocannon of 10 connections each), loopback`,
    );
    console.log(
      `machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}`,
    );
    console.log(
      serverCore === null
        ? 'not pinned: servers and load generator share the cores.'
        : `pinned: every server process on core ${serverCore}, the load generator on core 0.`,
    );
    console.log(JITI ? 'servers run the TypeScript through jiti/register.' : 'servers run the code compiled to JavaScript (oxc-transform), with plain node.');
    console.log('every variant calls the same handlers: a create that stores nothing, a get of one order, a list of the same 20 orders (the newest shape).');
    console.log(
      "the hand-written list routes read their query (limit, cursor, a range on the quantity, the sort) with a zod schema of their own, as strictly as the generated route (decimal digits only), bind cursors to the sort and filters (a SHA-1 of them before the handler's cursor) and hand the handler the generated route's structured query.",
    );
    console.log(
      'hand: zod request validation and the value sent as JSON (no migration, ETag or response check); tagged: the same plus a strong ETag of the text sent (lists carry none);',
    );
    console.log("contract: the generated route's guarantees written by hand with zod and node:crypto (every resource checked, v1 migrated, ETags).");
    console.log('generated: response validated and shaped (the default); novalidate: validateResponses: false (shaped only).');
    console.log(
      "req/CPU-s: requests per second of the server process's own CPU time, which other processes' load does not skew; CPU/request ÷ hand: the median of the rounds' own ratios (1.10x: 10% more CPU per request than hand).\n",
    );
    console.log('| route | variant | req/s | req/CPU-s | CPU/request ÷ hand |\n|---|---|---|---|---|');
    for (const { c, rounds } of rows)
      for (const v of VARIANTS) {
        const m = (pick: (r: Record<Variant, Sample>) => number) => median(rounds.map(pick));
        const perRequest = v === 'hand' ? '1.00x' : `${m((r) => r.hand.perCpu / r[v].perCpu).toFixed(2)}x`;
        console.log(`| ${c.name} | ${v} | ${m((r) => r[v].rps).toFixed(0)} | ${m((r) => r[v].perCpu).toFixed(0)} | ${perRequest} |`);
      }
    console.log('');
    for (const { c, rounds } of rows)
      console.log(
        `${c.name}: generated CPU/request ÷ hand ${median(rounds.map((r) => r.hand.perCpu / r.generated.perCpu)).toFixed(2)}x, ÷ tagged ${median(rounds.map((r) => r.tagged.perCpu / r.generated.perCpu)).toFixed(2)}x, ÷ contract ${median(rounds.map((r) => r.contract.perCpu / r.generated.perCpu)).toFixed(2)}x`,
      );
    console.log(`\npeak RSS of each server process: ${VARIANTS.map((v) => `${v} ${peaks[v]!.toFixed(0)} MiB`).join(', ')}`);
  } finally {
    for (const v of VARIANTS) targets[v]?.stop();
  }
}

await main();
