/**
 * @module Version-resolution benchmark: what choosing the version by the principal's pin costs against
 * naming it in the header. The generated `versionbench` API (header versioning, API keys, a `pinnedVersion`
 * that pins the principal to 2025-01-15) runs in three processes of identical code; autocannon POSTs the same
 * 2025-01-15 create to each at the same time: `header` and `header-again` send `Bench-Version: 2025-01-15`,
 * `pinned` sends no header, so its version comes from the pin (the credential checked once, before the pin
 * is asked). req/CPU-s is requests per second of the server process's own CPU time; `header-again ÷ header`
 * is the same work twice, the noise of the method. Servers are pinned to the last core and the load generator
 * to the first (Linux with `taskset`; `BENCH_PIN=0` turns it off), and run the code compiled to JavaScript.
 * Run: `npx jiti bench/versions.ts`; `BENCH_SECONDS` (default 2) and `BENCH_ROUNDS` (default 5; medians).
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
const outDir = path.join(root, '.bench/versions');
const jsDir = path.join(root, '.bench/versions-js');
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 2);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const VARIANTS = ['header', 'header-again', 'pinned'] as const;
type Variant = (typeof VARIANTS)[number];
const BODY = { customer_id: '0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e', product_id: 7, qty: 2 };
const HEADERS: Readonly<Record<Variant, Record<string, string>>> = {
  header: { 'bench-version': '2025-01-15' },
  'header-again': { 'bench-version': '2025-01-15' },
  pinned: {},
};

/** The core the servers run on when the bench pins processes, else null. */
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

function startTarget(): Promise<Target> {
  const command = [process.execPath, path.join(jsDir, 'versions-target.js'), path.join(jsDir, 'generated'), 'js'];
  const [file, ...args] = serverCore === null ? command : ['taskset', '-c', String(serverCore), ...command];
  const child = spawn(file!, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve({ base: `http://127.0.0.1:${d.toString().trim()}`, stop: () => child.kill() }));
    child.once('exit', (code) => reject(new Error(`bench target exited with ${code}`)));
  });
}

const usage = async (base: string) => (await (await fetch(`${base}/__usage`)).json()) as { user: number; system: number };

/** Requests per second of the server's CPU time for `seconds` of POSTs; fails on any answer but 201 in 2025-01-15. */
async function measure(target: Target, variant: Variant, seconds: number): Promise<number> {
  const before = await usage(target.base);
  const result = await autocannon({
    url: `${target.base}/orders`,
    method: 'POST',
    connections: 10,
    duration: seconds,
    headers: { 'content-type': 'application/json', 'x-api-key': 'bench-key', ...HEADERS[variant] },
    body: JSON.stringify(BODY),
  });
  const after = await usage(target.base);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${variant}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.total / ((after.user + after.system - before.user - before.system) / 1e6);
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const generated = await generate({ apiPath: path.join(root, 'bench/versions-api/api.ts'), outDir });
  if (!generated.ok) throw new Error(`generate failed: ${JSON.stringify(generated.diagnostics)}`);
  buildRuntime();
  rmSync(jsDir, { recursive: true, force: true });
  compileTree(outDir, path.join(jsDir, 'generated'));
  writeFileSync(path.join(jsDir, 'versions-target.js'), compileFile(path.join(root, 'bench/versions-target.ts')));
  copyFileSync(path.join(root, 'bench/peak-rss.mjs'), path.join(jsDir, 'peak-rss.mjs'));
  const targets = {} as Record<Variant, Target>;
  for (const v of VARIANTS) targets[v] = await startTarget();
  try {
    // The pinned variant must really be served 2025-01-15 (the old shape: qty), without a header.
    const check = await fetch(`${targets.pinned.base}/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'bench-key' },
      body: JSON.stringify(BODY),
    });
    if (check.status !== 201 || check.headers.get('bench-version') !== '2025-01-15')
      throw new Error(`pinned create answered ${check.status} in ${check.headers.get('bench-version')}`);
    for (const v of VARIANTS) await measure(targets[v], v, 2);
    const rounds: Record<Variant, number>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // All at once, the start order turned each round: the variants share the core and the same seconds.
      const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]!);
      const samples = await Promise.all(order.map((v) => measure(targets[v], v, SECONDS)));
      rounds.push(Object.fromEntries(order.map((v, i) => [v, samples[i]!])) as Record<Variant, number>);
    }
    const perRequest = (v: Variant) => median(rounds.map((r) => r.header / r[v]));
    console.log(
      `version-resolution bench: POST create in 2025-01-15, ${ROUNDS} rounds x ${SECONDS} s, ${VARIANTS.length} processes at the same time (an autocannon of 10 connections each), loopback`,
    );
    console.log(
      `machine: ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}; ${serverCore === null ? 'not pinned' : `servers on core ${serverCore}, load generator on core 0`}`,
    );
    console.log("CPU per request relative to the explicit header (median of the rounds' own ratios; 1.00x = the same):\n");
    console.log('| variant | req/CPU-s (median) | CPU per request ÷ header |\n|---|---|---|');
    for (const v of VARIANTS)
      console.log(`| ${v} | ${median(rounds.map((r) => r[v])).toFixed(0)} | ${v === 'header' ? '1.00x' : `${perRequest(v).toFixed(3)}x`} |`);
    console.log(
      `\npinned ÷ header: ${perRequest('pinned').toFixed(3)}x (target ≤ 1.05x); header-again ÷ header (noise): ${perRequest('header-again').toFixed(3)}x`,
    );
  } finally {
    for (const v of VARIANTS) targets[v]?.stop();
  }
}

await main();
