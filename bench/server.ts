/**
 * @module Server benchmark: the generated create route (validation and migration included) against a
 * hand-written Fastify route with the same zod validation, for the newest version (v3) and the oldest
 * (v1, migrated up and down), under autocannon on loopback. Prints requests per second and the ratio
 * (target: generated >= 0.9x hand-written), both per wall-clock second and per second of the
 * server's CPU time (the stable measure on a shared machine). Run: `npx jiti bench/server.ts`; `BENCH_SECONDS` sets each
 * run's duration (default 2), `BENCH_ROUNDS` the rounds (default 5; the median ratio is reported).
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../generator/pipeline/generate.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const outDir = path.join(root, '.bench/server');
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 2);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const BODIES = {
  v1: { customer_id: '0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e', product_id: 7, qty: 2, note: 'ring twice' },
  v3: { customer_id: '0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e', product_id: 7, quantity: 2, currency: 'USD', giftMessage: 'Enjoy' },
};

/** Starts the target process and resolves with its port and a way to stop it. */
function startTarget(): Promise<{ port: number; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'jiti/register', path.join(root, 'bench/server-target.ts'), outDir], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve({ port: Number(d.toString().trim()), stop: () => child.kill() }));
    child.once('exit', (code) => reject(new Error(`bench target exited with ${code}`)));
  });
}

interface Sample {
  /** Requests per second (wall clock). */
  readonly rps: number;
  /** Requests per second of the server's CPU time (user + system). */
  readonly perCpu: number;
}

/** POST `url` with `body` for `seconds` (10 connections); fails on any non-201. */
async function measure(base: string, url: string, body: object, seconds: number): Promise<Sample> {
  const cpu = async () => {
    const u = (await (await fetch(`${base}/__cpu`)).json()) as { user: number; system: number };
    return u.user + u.system;
  };
  const before = await cpu();
  const result = await autocannon({ url, method: 'POST', connections: 10, duration: seconds, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const used = (await cpu()) - before;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, perCpu: result.requests.total / (used / 1e6) };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (a: Sample, b: Sample): Sample => ({ rps: (a.rps + b.rps) / 2, perCpu: (a.perCpu + b.perCpu) / 2 });

async function main(): Promise<void> {
  const generated = await generate({ apiPath: path.join(root, 'bench/server-api.ts'), outDir });
  if (!generated.ok) throw new Error(`generate failed: ${JSON.stringify(generated.diagnostics)}`);
  const target = await startTarget();
  const base = `http://127.0.0.1:${target.port}`;
  try {
    const cases = [
      { name: 'v3 (newest)', generated: `${base}/v3/orders`, hand: `${base}/hand/v3/orders`, body: BODIES.v3 },
      { name: 'v1 (oldest, migrated)', generated: `${base}/v1/orders`, hand: `${base}/hand/v1/orders`, body: BODIES.v1 },
    ];
    // Warm up every route (JIT, zod's compiled parsers) before anything is measured.
    for (const c of cases) {
      await measure(base, c.generated, c.body, 2);
      await measure(base, c.hand, c.body, 2);
    }
    // Each round measures hand, generated, generated, hand (ABBA), so load from other processes that
    // drifts during a round falls on both sides alike; the ratio of a round compares adjacent runs.
    const rows = cases.map((c) => {
      const rounds: { hand: Sample; generated: Sample }[] = [];
      return { c, rounds };
    });
    for (let round = 0; round < ROUNDS; round++)
      for (const { c, rounds } of rows) {
        const h1 = await measure(base, c.hand, c.body, SECONDS);
        const g1 = await measure(base, c.generated, c.body, SECONDS);
        const g2 = await measure(base, c.generated, c.body, SECONDS);
        const h2 = await measure(base, c.hand, c.body, SECONDS);
        rounds.push({ hand: mean(h1, h2), generated: mean(g1, g2) });
      }
    console.log(`server bench: POST create, autocannon 10 connections, ${ROUNDS} rounds of hand/generated/generated/hand x ${SECONDS} s per route, loopback`);
    console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}`);
    console.log('req/CPU-s: requests per second of the server process\'s own CPU time, which other processes\' load does not skew.\n');
    console.log('| version | hand req/s | generated req/s | ratio req/s | hand req/CPU-s | generated req/CPU-s | ratio req/CPU-s |\n|---|---|---|---|---|---|---|');
    for (const { c, rounds } of rows) {
      const m = (pick: (r: { hand: Sample; generated: Sample }) => number) => median(rounds.map(pick));
      console.log(
        `| ${c.name} | ${m((r) => r.hand.rps).toFixed(0)} | ${m((r) => r.generated.rps).toFixed(0)} | ${m((r) => r.generated.rps / r.hand.rps).toFixed(2)}x ` +
          `| ${m((r) => r.hand.perCpu).toFixed(0)} | ${m((r) => r.generated.perCpu).toFixed(0)} | ${m((r) => r.generated.perCpu / r.hand.perCpu).toFixed(2)}x |`,
      );
    }
  } finally {
    target.stop();
  }
}

await main();
