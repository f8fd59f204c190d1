/**
 * One process of the upload benchmark: the generated `uploadbench` API on its memory handlers, files in a disk
 * store in the folder given. Besides the API, `GET /__memory` answers this process's peak resident memory so far
 * (Linux VmHWM) and its resident memory now, in KiB, so that the benchmark reads the server's own figure. Prints
 * its port. Args: the generated folder (compiled to JavaScript) and the store's folder.
 */
import Fastify from 'fastify';
import path from 'node:path';
// Beside this file when it runs compiled (bench/uploads.ts copies it).
import { peakRssKiB } from './peak-rss.mjs';

const outDir = process.argv[2]!;
const storeDir = process.argv[3]!;
const server = (await import(path.join(outDir, 'server/index.js'))) as {
  registerUploadbenchApi: (app: ReturnType<typeof Fastify>, handlers: object, options: object) => Promise<void>;
  createMemoryHandlers: () => object;
  createDiskFileStore: (dir: string) => object;
};

const app = Fastify({ logger: false });
await server.registerUploadbenchApi(app, server.createMemoryHandlers(), {
  apiKeys: { 'bench-key': { id: 'bench', scopes: [] } },
  files: server.createDiskFileStore(storeDir),
  rateLimit: false,
});
app.get('/__memory', async () => ({ peakKiB: peakRssKiB(), rssKiB: Math.round(process.memoryUsage.rss() / 1024) }));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
