/**
 * @module Upload benchmark: a 64 MiB file, then a 1 GiB file, uploaded to the generated server as
 * `multipart/form-data` creates (the bytes generated as they are sent, never held whole by this process either),
 * then the large one downloaded whole, against a server process of its own (the generated code compiled to
 * JavaScript, files in a disk store under `.bench/`). Then the same bodies sent to the floor: plain `node:http`
 * piping each body to a file, in a process of its own. Reports each transfer's time and throughput, and each
 * server's peak resident memory (its own Linux VmHWM) after start and after each transfer, as two figures: the
 * whole process, and the upload's own cost (the peak above the started server), which must stay within 64 MiB for
 * 1 GiB and be the same for both sizes (nothing is held whole), and is read against the floor's.
 * Run: `npx jiti bench/uploads.ts`; `BENCH_UPLOAD_MIB` sets the large file's size (default 1024).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { generate } from '../generator/pipeline/generate.ts';
import { buildRuntime, compileFile, compileTree } from './compile.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const outDir = path.join(root, '.bench/uploads');
const jsDir = path.join(root, '.bench/uploads-js');
const storeDir = path.join(root, '.bench/uploads-store');
const floorDir = path.join(root, '.bench/uploads-floor');
const MIB = Number(process.env['BENCH_UPLOAD_MIB'] ?? 1024);
/** The small file's size, in MiB: the first upload, which the large one's memory is compared with. */
const SMALL_MIB = 64;
const CHUNK = 64 * 1024;
const BOUNDARY = 'restgen-bench-boundary';
const KEY = { 'x-api-key': 'bench-key' };

/** The bytes of the file, `size` of them, made as they are read: the same block (a PDF's first bytes, then a pattern) again and again. */
function fileBytes(size: number): Readable {
  const block = Buffer.alloc(CHUNK);
  for (let i = 0; i < CHUNK; i++) block[i] = i % 251;
  Buffer.from('%PDF-1.7\n').copy(block);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const n = Math.min(CHUNK, size - sent);
      this.push(block.subarray(0, n));
      sent += n;
    },
  });
}

/** The multipart body around the file: its head (the title field, the file part's headers) and its tail. */
const head = Buffer.from(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nA large scan\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="scan"; filename="scan.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
);
const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

async function* multipart(size: number): AsyncGenerator<Buffer> {
  yield head;
  for await (const chunk of fileBytes(size)) yield chunk as Buffer;
  yield tail;
}

interface Memory {
  readonly peakKiB: number;
  readonly rssKiB: number;
}
const memory = async (base: string): Promise<Memory> => (await (await fetch(`${base}/__memory`)).json()) as Memory;

/** Uploads a file of `size` bytes; the created document's id and its recorded SHA-256 (empty from the floor), and the seconds it took. */
function upload(base: string, size: number, floor = false): Promise<{ id: string; sha256: string; seconds: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(`${base}/${floor ? 'upload' : 'v1/documents'}`, {
      method: 'POST',
      headers: { ...KEY, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': head.length + size + tail.length },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        if (floor) return res.statusCode === 201 ? resolve({ id: '', sha256: '', seconds }) : reject(new Error(`the floor answered ${res.statusCode}`));
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { id: string; scan?: { sha256: string; size: number } };
        if (res.statusCode !== 201 || body.scan?.size !== size)
          return reject(new Error(`upload answered ${res.statusCode}: ${JSON.stringify(body).slice(0, 300)}`));
        resolve({ id: body.id, sha256: body.scan.sha256, seconds });
      });
    });
    req.on('error', reject);
    pipeline(Readable.from(multipart(size)), req).catch(reject);
  });
}

/** Downloads a file of `size` bytes, hashing it as it arrives (nothing kept); the seconds it took. */
async function download(base: string, id: string, sha256: string, size: number): Promise<number> {
  const started = process.hrtime.bigint();
  const response = await fetch(`${base}/v1/documents/${id}/scan`, { headers: KEY });
  if (response.status !== 200 || !response.body) throw new Error(`download answered ${response.status}`);
  const hash = createHash('sha256');
  let received = 0;
  for await (const chunk of response.body) {
    hash.update(chunk);
    received += chunk.length;
  }
  if (received !== size || hash.digest('hex') !== sha256) throw new Error(`downloaded ${size} bytes whose SHA-256 is not the upload's`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Starts `script` (compiled, in `jsDir`) with its arguments; its base URL, once it printed its port, and the process. */
async function startTarget(script: string, args: readonly string[]): Promise<{ base: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(jsDir, script), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (d: Buffer) => resolve(`http://127.0.0.1:${d.toString().trim()}`));
    child.once('exit', (code) => reject(new Error(`bench target ${script} exited with ${code}`)));
  });
  return { base, child };
}

const mib = (kib: number) => `${(kib / 1024).toFixed(1)} MiB`;
const rate = (size: number, seconds: number) => `${(size / seconds).toFixed(0)} MiB/s`;
const sized = (n: number) => `${n.toLocaleString('en')} MiB`;

/** The floor's figures: its started memory, and after each upload of the same bodies. */
async function measureFloor(): Promise<{ started: Memory; small: { seconds: number; m: Memory }; large: { seconds: number; m: Memory } }> {
  const { base, child } = await startTarget('upload-floor-target.js', ['', floorDir]);
  try {
    const started = await memory(base);
    const small = await upload(base, SMALL_MIB * 2 ** 20, true);
    const afterSmall = await memory(base);
    const large = await upload(base, MIB * 2 ** 20, true);
    return { started, small: { seconds: small.seconds, m: afterSmall }, large: { seconds: large.seconds, m: await memory(base) } };
  } finally {
    child.kill();
    rmSync(floorDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const generated = await generate({ apiPath: path.join(root, 'bench/uploads-api/api.ts'), outDir });
  if (!generated.ok) throw new Error(`generate failed: ${JSON.stringify(generated.diagnostics)}`);
  buildRuntime();
  rmSync(jsDir, { recursive: true, force: true });
  compileTree(outDir, path.join(jsDir, 'generated'));
  writeFileSync(path.join(jsDir, 'upload-target.js'), compileFile(path.join(root, 'bench/upload-target.ts')));
  writeFileSync(path.join(jsDir, 'upload-floor-target.js'), compileFile(path.join(root, 'bench/upload-floor-target.ts')));
  copyFileSync(path.join(root, 'bench/peak-rss.mjs'), path.join(jsDir, 'peak-rss.mjs'));
  rmSync(storeDir, { recursive: true, force: true });
  const { base, child } = await startTarget('upload-target.js', [path.join(jsDir, 'generated'), storeDir]);
  try {
    const started = await memory(base);
    const small = await upload(base, SMALL_MIB * 2 ** 20);
    const afterSmall = await memory(base);
    const large = await upload(base, MIB * 2 ** 20);
    const afterLarge = await memory(base);
    const downSeconds = await download(base, large.id, large.sha256, MIB * 2 ** 20);
    const afterDownload = await memory(base);
    child.kill();
    const floor = await measureFloor();
    console.log(
      `upload bench: a ${sized(SMALL_MIB)} file, then a ${sized(MIB)} file (application/pdf), each a multipart create of the generated server (counted, hashed, its leading bytes checked, streamed to a disk store); then the large one downloaded whole; then the same bodies sent to the floor, plain node:http piping each body to a file; loopback, each server in a process of its own\n`,
    );
    console.log(
      "| server | phase | time | throughput | peak RSS of the whole process (VmHWM) | peak above the started server: the upload's own | RSS after |\n|---|---|---|---|---|---|---|",
    );
    const row = (server: string, phase: string, time: string, throughput: string, m: Memory, from: Memory) =>
      console.log(`| ${server} | ${phase} | ${time} | ${throughput} | ${mib(m.peakKiB)} | ${mib(m.peakKiB - from.peakKiB)} | ${mib(m.rssKiB)} |`);
    row('generated', 'started', '–', '–', started, started);
    row('generated', `upload ${sized(SMALL_MIB)}`, `${small.seconds.toFixed(1)} s`, rate(SMALL_MIB, small.seconds), afterSmall, started);
    row('generated', `upload ${sized(MIB)}`, `${large.seconds.toFixed(1)} s`, rate(MIB, large.seconds), afterLarge, started);
    row('generated', `download ${sized(MIB)}`, `${downSeconds.toFixed(1)} s`, rate(MIB, downSeconds), afterDownload, started);
    row('floor (node:http to a file)', 'started', '–', '–', floor.started, floor.started);
    row(
      'floor (node:http to a file)',
      `upload ${sized(SMALL_MIB)}`,
      `${floor.small.seconds.toFixed(1)} s`,
      rate(SMALL_MIB, floor.small.seconds),
      floor.small.m,
      floor.started,
    );
    row(
      'floor (node:http to a file)',
      `upload ${sized(MIB)}`,
      `${floor.large.seconds.toFixed(1)} s`,
      rate(MIB, floor.large.seconds),
      floor.large.m,
      floor.started,
    );
    const own = afterLarge.peakKiB - started.peakKiB;
    const floorOwn = floor.large.m.peakKiB - floor.started.peakKiB;
    console.log(
      `\nthe upload's own memory (the peak above the started server): ${mib(own)} after ${sized(MIB)} (target ≤ 64 MiB: ${own <= 64 * 1024 ? 'met' : 'NOT met'}), ${mib(afterSmall.peakKiB - started.peakKiB)} after ${sized(SMALL_MIB)}: ${MIB / SMALL_MIB} times the bytes, ${mib(afterLarge.peakKiB - afterSmall.peakKiB)} more at the peak. The floor adds ${mib(floorOwn)} for the same ${sized(MIB)}. The whole process peaks at ${mib(afterLarge.peakKiB)}, of which the started server (Node.js, Fastify, zod and the API) is ${mib(started.peakKiB)}; the floor's process peaks at ${mib(floor.large.m.peakKiB)} (${mib(floor.started.peakKiB)} started).`,
    );
  } finally {
    child.kill();
    rmSync(storeDir, { recursive: true, force: true });
  }
}

await main();
