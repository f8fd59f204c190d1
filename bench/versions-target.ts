/**
 * One process of the version-resolution benchmark: the generated `versionbench` API with API keys and a
 * `pinnedVersion` that pins every principal to 2025-01-15, on a trivial create. Every process runs the same
 * code; only the load differs (with or without the version header). Prints its port. Args: the generated
 * folder and the extension of its modules (`ts` through a loader, `js` compiled).
 */
import Fastify from 'fastify';
import path from 'node:path';
// Beside this file when it runs compiled, too (bench/server.ts and bench/versions.ts copy it).
import { peakRssKiB } from './peak-rss.mjs';

const outDir = process.argv[2]!;
const ext = process.argv[3] ?? 'js';
const server = (await import(path.join(outDir, `server/index.${ext}`))) as {
  registerVersionbenchApi: (app: ReturnType<typeof Fastify>, handlers: object, options: object) => Promise<void>;
};

const ID = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11';
const CREATED = '2026-03-01T00:00:00.000Z';
const create = (body: object) => ({ id: ID, ...body, status: 'open', createdAt: CREATED });
const PINS: Readonly<Record<string, string>> = { 'acct-1': '2025-01-15' };

const app = Fastify({ logger: false });
await server.registerVersionbenchApi(
  app,
  { orders: { create, get: () => create({}), list: () => ({ data: [], next_cursor: null }) } },
  {
    apiKeys: { 'bench-key': { id: 'acct-1', scopes: ['orders:read', 'orders:write'] } },
    pinnedVersion: (principal: { id: string } | null) => (principal === null ? null : (PINS[principal.id] ?? null)),
    rateLimit: false,
    authFailures: false,
  },
);
// The process's own CPU time: the benchmark reads it before and after each run.
app.get('/__usage', async () => ({ ...process.cpuUsage(), maxRssKiB: peakRssKiB() }));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
