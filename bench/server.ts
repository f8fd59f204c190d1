/**
 * @module Server benchmark: the generated create route (validation and migration included) against a
 * hand-written Fastify route with the same zod validation, for the newest version (v3) and the oldest
 * (v1, migrated up and down), under autocannon on loopback. Prints requests per second and the ratio
 * (target: generated >= 0.9x hand-written). Run: `npx jiti bench/server.ts`; `BENCH_SECONDS` sets each
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

/** Requests per second of POST `url` with `body` (10 connections, `seconds` long); fails on any non-201. */
async function measure(url: string, body: object, seconds: number): Promise<number> {
  const result = await autocannon({ url, method: 'POST', connections: 10, duration: seconds, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

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
      await measure(c.generated, c.body, 2);
      await measure(c.hand, c.body, 2);
    }
    // Each round measures hand, generated, generated, hand (ABBA), so load from other processes that
    // drifts during a round falls on both sides alike; the ratio of a round compares adjacent runs.
    const rows = cases.map((c) => {
      const rounds: { hand: number; generated: number }[] = [];
      return { c, rounds };
    });
    for (let round = 0; round < ROUNDS; round++)
      for (const { c, rounds } of rows) {
        const h1 = await measure(c.hand, c.body, SECONDS);
        const g1 = await measure(c.generated, c.body, SECONDS);
        const g2 = await measure(c.generated, c.body, SECONDS);
        const h2 = await measure(c.hand, c.body, SECONDS);
        rounds.push({ hand: (h1 + h2) / 2, generated: (g1 + g2) / 2 });
      }
    console.log(`server bench: POST create, autocannon 10 connections, ${ROUNDS} rounds of hand/generated/generated/hand x ${SECONDS} s per route, loopback`);
    console.log(`machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}\n`);
    console.log('| version | hand-written req/s | generated req/s | ratio (median of rounds) | ratios per round |\n|---|---|---|---|---|');
    for (const { c, rounds } of rows) {
      const ratios = rounds.map((r) => r.generated / r.hand);
      console.log(
        `| ${c.name} | ${median(rounds.map((r) => r.hand)).toFixed(0)} | ${median(rounds.map((r) => r.generated)).toFixed(0)} | ${median(ratios).toFixed(2)}x | ${ratios.map((r) => r.toFixed(2)).join(', ')} |`,
      );
    }
  } finally {
    target.stop();
  }
}

await main();
