/**
 * @module Several instances, one contract: what running more than one instance costs and gives on this machine.
 * - Throughput of 1, 2 and 4 instances of the shop on PostgreSQL (`test/postgres/fixtures/shop-child.ts`, child
 *   processes sharing one database) behind the round-robin proxy (`test/instances/proxy.ts`): autocannon on
 *   `GET /v3/orders/{id}` through the proxy, requests per second and latency.
 * - The cost per request of a Redis Cluster against a single Redis: one instance of the shop's generated server
 *   (in-memory handlers) whose idempotent answers, webhook endpoints and outbox live in Redis, under creates that
 *   each carry a new Idempotency-Key and send an event; requests per second, latency, and the server process's CPU
 *   time per request, single Redis and cluster measured in alternating rounds.
 * Prints Markdown. Run: `npx jiti bench/instances.ts`; `BENCH_SECONDS` (default 5) and `BENCH_ROUNDS` (default 3).
 */
import autocannon, { type Request as LoadRequest } from 'autocannon';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSchema } from '../examples/shop-postgres/schema.ts';
import { bundleForNode } from '../test/helpers/bundle-node.ts';
import { redisTargets } from '../test/helpers/redis-targets.ts';
import { startInstances } from '../test/instances/harness.ts';
import { createTestDatabase, postgresUrl } from '../test/postgres/database.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const JSON_HEADERS = { authorization: 'Bearer bench', 'content-type': 'application/json' };

/** autocannon against `url` for SECONDS; fails on any answer but a 2xx. */
async function load(url: string, requests: LoadRequest[], connections: number) {
  const result = await autocannon({ url, connections, duration: SECONDS, requests });
  const wrong = result.non2xx + result.errors + result.timeouts;
  if (wrong > 0) throw new Error(`${url}: ${wrong} of ${result.requests.total} answers were no 2xx`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total };
}

/** Requests per second of 1, 2 and 4 instances on PostgreSQL behind the proxy. */
async function throughput(): Promise<string[]> {
  const url = postgresUrl();
  if (url === null) throw new Error('the instances bench needs PostgreSQL (scripts/ensure-postgres.sh)');
  const db = await createTestDatabase(url);
  await createSchema(db.pool);
  const rows: string[] = ['| instances | requests/s (median of rounds) | p50 latency | p99 latency |', '|---|---|---|---|'];
  try {
    for (const n of [1, 2, 4]) {
      console.error(`instances bench: ${n} instance${n === 1 ? '' : 's'}...`);
      const instances = await startInstances(n, { DATABASE_URL: db.url, DISPATCH: '0', RATE_LIMIT: '0' });
      try {
        const created = await fetch(`${instances.proxy.url}/v3/orders`, {
          method: 'POST',
          headers: JSON_HEADERS,
          body: JSON.stringify({ customer_id: randomUUID(), product_id: 1, quantity: 1 }),
        });
        const { id } = (await created.json()) as { id: string };
        const samples = [];
        for (let round = 0; round < ROUNDS; round++)
          samples.push(await load(`${instances.proxy.url}/v3/orders/${id}`, [{ method: 'GET', headers: JSON_HEADERS }], 8 * n));
        rows.push(
          `| ${n} | ${Math.round(median(samples.map((s) => s.rps)))} | ${median(samples.map((s) => s.p50))} ms | ${median(samples.map((s) => s.p99))} ms |`,
        );
      } finally {
        await instances.stop();
      }
    }
  } finally {
    await db.drop();
  }
  return rows;
}

/** The Redis cost target, bundled once. */
let target: Promise<string> | undefined;

/** One run of the Redis cost target against `env`'s Redis: its load figures and the CPU it spent per request. */
async function redisRun(env: Record<string, string>) {
  const script = await (target ??= bundleForNode(path.join(ROOT, 'bench/redis-target.ts'), 'bench-redis-target'));
  const child = spawn(process.execPath, [script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    for (const line of d.split('\n').filter(Boolean)) (waiters.shift() ?? ((l: string) => lines.push(l)))(line);
  });
  const nextLine = () => new Promise<string>((resolve) => (lines.length > 0 ? resolve(lines.shift()!) : waiters.push(resolve)));
  /** The target's CPU time so far, in µs. */
  const cpu = async () => {
    child.kill('SIGUSR2');
    return (JSON.parse(await nextLine()) as { cpuUs: number }).cpuUs;
  };
  try {
    const port = await nextLine();
    const body = JSON.stringify({ customer_id: randomUUID(), product_id: 1, quantity: 1 });
    const requests: LoadRequest[] = [
      { method: 'POST', headers: JSON_HEADERS, body, setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() } }) },
    ];
    const before = await cpu();
    const result = await load(`http://127.0.0.1:${port}/v3/orders`, requests, 10);
    return { ...result, cpuUs: ((await cpu()) - before) / result.total };
  } finally {
    child.kill('SIGKILL');
  }
}

/** Single Redis against the cluster, in alternating rounds. */
async function redisCost(): Promise<string[]> {
  const targets = redisTargets();
  const single = targets.find((t) => t.name === 'single');
  const cluster = targets.find((t) => t.name === 'cluster');
  if (!single || !cluster) throw new Error('the instances bench needs a single Redis and a cluster (scripts/ensure-redis.sh, scripts/ensure-redis-cluster.sh)');
  const runs = { single: [] as Awaited<ReturnType<typeof redisRun>>[], cluster: [] as Awaited<ReturnType<typeof redisRun>>[] };
  for (let round = 0; round < ROUNDS; round++) {
    console.error(`instances bench: single Redis and cluster, round ${round + 1}...`);
    runs.single.push(await redisRun({ REDIS_URL: single.address }));
    runs.cluster.push(await redisRun({ REDIS_NODES: cluster.address }));
  }
  const row = (name: string, xs: (typeof runs)['single']) =>
    `| ${name} | ${Math.round(median(xs.map((x) => x.rps)))} | ${median(xs.map((x) => x.p50))} ms | ${median(xs.map((x) => x.p99))} ms | ${Math.round(median(xs.map((x) => x.cpuUs)))} µs |`;
  const ratio = median(runs.cluster.map((x) => x.cpuUs)) / median(runs.single.map((x) => x.cpuUs));
  return [
    '| Redis | creates/s | p50 latency | p99 latency | server CPU per create |',
    '|---|---|---|---|---|',
    row('single redis-server', runs.single),
    row('cluster, 3 primaries (+3 replicas)', runs.cluster),
    '',
    `Server CPU per create, cluster ÷ single: ${ratio.toFixed(2)}x.`,
  ];
}

const lines = [
  `instances bench: autocannon on loopback, ${ROUNDS} rounds x ${SECONDS} s, medians; every process on this machine's ${os.availableParallelism()} cores (the instances, PostgreSQL, Redis, the proxy and the load generator share them).`,
  '',
  'Throughput of the shop on PostgreSQL behind the round-robin proxy (`GET /v3/orders/{id}`, 8 connections per instance):',
  '',
  ...(await throughput()),
  '',
  'Cost of a Redis Cluster: creates with a new Idempotency-Key each, every one sending an event (answer marker, answer, endpoints read and outbox write in Redis), 10 connections:',
  '',
  ...(await redisCost()),
];
console.log(lines.join('\n'));
