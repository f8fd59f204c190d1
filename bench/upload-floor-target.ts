/**
 * The floor of the upload benchmark: plain `node:http` writing each request's body to a file with `pipeline`, and
 * nothing else (no framework, no multipart parsing, no hash, no checks). What an upload costs this process is what
 * Node.js itself costs to take the same bytes off a socket and onto a disk; the generated server's figure is read
 * against it. `GET /__memory` answers as the benchmark's server target does. Prints its port. Args: unused, then the
 * folder the files go to.
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
// Beside this file when it runs compiled (bench/uploads.ts copies it).
import { peakRssKiB } from './peak-rss.mjs';

const dir = process.argv[3]!;
mkdirSync(dir, { recursive: true });
let files = 0;
const server = createServer((request, response) => {
  if (request.url === '/__memory') {
    response.setHeader('content-type', 'application/json');
    return void response.end(JSON.stringify({ peakKiB: peakRssKiB(), rssKiB: Math.round(process.memoryUsage.rss() / 1024) }));
  }
  pipeline(request, createWriteStream(path.join(dir, `file-${files++}`))).then(
    () => {
      response.statusCode = 201;
      response.end();
    },
    () => {
      response.statusCode = 500;
      response.end();
    },
  );
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
