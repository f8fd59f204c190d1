/**
 * @module Event stream fan-out: the generated shop server (compiled to JavaScript, on the built runtime) with 1,000
 * readers of `GET /v3/events` open on one instance, each its own principal on its own connection; 1,000 events
 * (orders created, in batches of 50 written to the memory log) stream to every reader. Reported: the time from the
 * first event written until every reader has every event, the events delivered per second (events x readers), the
 * latency of an event (written to read by the last reader: median and p99 over the events), and the heap the open
 * streams hold. Readers and server share the process (readers only count frames), so the figures are an upper bound
 * on the server's cost. Run: `npx jiti bench/stream.ts`; `BENCH_STREAM_READERS` (default 1000),
 * `BENCH_STREAM_EVENTS` (default 1000).
 */
import Fastify from 'fastify';
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildRuntime, compileTree } from './compile.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const JS = path.join(ROOT, '.bench/stream-js');
const READERS = Number(process.env['BENCH_STREAM_READERS'] ?? 1000);
const EVENTS = Number(process.env['BENCH_STREAM_EVENTS'] ?? 1000);
const BATCH = 50;

const gc = (globalThis as { gc?: () => void }).gc;
const heap = (): number => (gc?.(), process.memoryUsage().heapUsed);

interface Log {
  append(events: readonly { type: string; time: number; data: string }[]): Promise<void>;
}
interface Runtime {
  createMemoryEventLog(retention?: object): Log;
}
interface Server {
  registerShopApi(app: ReturnType<typeof Fastify>, handlers: unknown, options: object): Promise<void>;
  createMemoryHandlers(): unknown;
}

const order = (n: number): { type: string; time: number; data: string } => ({
  type: 'order.created',
  time: Date.now(),
  data: JSON.stringify({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    customer_id: '00000000-0000-4000-8000-000000000001',
    product_id: 7,
    quantity: 1 + (n % 100),
    currency: 'EUR',
    reference: `RF-${String(n % 10_000).padStart(4, '0')}`,
    status: 'open',
    createdAt: '2026-01-01T00:00:00.000Z',
  }),
});

/** Opens one reader (its own principal and connection); resolves once the stream answered 200. */
function openReader(port: number, i: number, seen: (count: number) => void): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/v3/events', agent: false, headers: { authorization: `Bearer reader-${i}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`reader ${i}: ${res.statusCode}`));
        let count = 0;
        res.setEncoding('utf8');
        res.on('data', (text: string) => {
          for (let at = text.indexOf('\nevent: '); at >= 0; at = text.indexOf('\nevent: ', at + 1)) count++;
          seen(count);
        });
        resolve(res);
      },
    );
    req.once('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  buildRuntime();
  compileTree(path.join(ROOT, 'examples/shop/generated'), path.join(JS, 'generated'));
  const runtime = (await import(pathToFileURL(path.join(ROOT, 'packages/runtime/dist/index.js')).href)) as Runtime;
  const server = (await import(pathToFileURL(path.join(JS, 'generated/server/index.js')).href)) as Server;
  const log = runtime.createMemoryEventLog({ events: EVENTS * 2 });
  const app = Fastify({ forceCloseConnections: true });
  await server.registerShopApi(app, server.createMemoryHandlers(), {
    authenticate: ({ token }: { token: string }) => ({ id: token, scopes: ['orders:read'] }),
    rateLimit: false,
    migrations: {
      v2: { orders: { note: { value: () => undefined } } },
      v3: {
        customers: { name: { whenMissing: () => 'guest' } },
        orders: { reference: { up: (n: number) => `RF-${n}`, down: (s: string) => Number(s.slice(3)) } },
      },
    },
    stream: { log, pollInterval: 5 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const before = heap();
  // The time each event was written, and when the last reader read it.
  const written: number[] = [];
  const lastRead: number[] = new Array(EVENTS).fill(0);
  let complete = 0;
  let done: () => void = () => undefined;
  const finished = new Promise<void>((r) => (done = r));
  const readers: IncomingMessage[] = [];
  for (let i = 0; i < READERS; i++) {
    let had = 0;
    readers.push(
      await openReader(port, i, (count) => {
        const now = performance.now();
        for (let e = had; e < count && e < EVENTS; e++) lastRead[e] = Math.max(lastRead[e]!, now);
        if (had < EVENTS && count >= EVENTS && ++complete === READERS) done();
        had = count;
      }),
    );
  }
  const held = heap() - before;
  const started = performance.now();
  for (let n = 0; n < EVENTS; n += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, EVENTS - n) }, (_, i) => order(n + i));
    for (let i = 0; i < batch.length; i++) written.push(performance.now());
    await log.append(batch);
    await new Promise((r) => setImmediate(r));
  }
  await finished;
  const wall = performance.now() - started;
  const latencies = lastRead.map((t, i) => t - written[i]!).sort((a, b) => a - b);
  const pct = (p: number): string => `${latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(0)} ms`;
  for (const r of readers) r.destroy();
  await app.close();
  console.log(
    `event stream fan-out: ${READERS.toLocaleString('en')} readers of GET /v3/events on one instance, ${EVENTS.toLocaleString('en')} events (memory log, batches of ${BATCH})\n`,
  );
  console.log('| readers | events | all delivered in | events delivered per second | latency, median | latency, p99 | heap per open stream |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(
    `| ${READERS.toLocaleString('en')} | ${EVENTS.toLocaleString('en')} | ${(wall / 1000).toFixed(2)} s | ${Math.round((READERS * EVENTS) / (wall / 1000)).toLocaleString('en')} | ${pct(0.5)} | ${pct(0.99)} | ${gc ? `${Math.round(held / READERS).toLocaleString('en')} B` : 'run with --expose-gc'} |`,
  );
}

await main();
