/**
 * File fields end to end over HTTP, on a generated API (`documents`: a required scan of three types, at most
 * 1 KiB, an optional and nullable cover, and fields of every kind beside them) whose server keeps files in a disk
 * store of the test's own: multipart uploads with the same validation as JSON, the limits (413 at maxBytes + 1,
 * 415 by declared type and by leading bytes, 400 for a malformed body), a failed or interrupted upload that
 * leaves nothing stored, downloads (headers, HEAD, 304, Range 206 and 416), replaced and removed files deleted,
 * and a 32 MiB upload that reaches the store as it arrives (what the server has read stays a few hundred KiB ahead of
 * what the store has taken: nothing is buffered whole, counted in bytes rather than by a clock).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FileStore } from '@restgen/runtime';
import { TMP, generateInto, importServer, registerOf, start, type Answer, type Running } from './helpers.ts';

const API = `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'archive',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  auth: { bearer: {} },
  collections: {
    documents: collection({
      fields: {
        id: f.id(),
        title: f.string().min(1).max(100),
        pages: f.int().min(1),
        archived: f.boolean().default(false),
        meta: f.object({ source: f.string(), year: f.int() }).optional(),
        labels: f.array(f.string()).max(3).default([]),
        scan: f.file({ maxBytes: 1024, types: ['application/pdf', 'image/png', 'text/csv'] }),
        cover: f.file({ maxBytes: 1024, types: ['image/png'] }).optional().nullable().addedIn('v2'),
        recording: f.file({ maxBytes: 64 * 1024 * 1024, types: ['video/mp4'] }).optional().addedIn('v2'),
      },
      scopes: { read: 'docs:read', write: 'docs:write' },
    }),
    notes: collection({ fields: { id: f.id(), text: f.string() } }),
  },
});
`;

const PDF = (size: number): Buffer => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(Math.max(0, size - 9), 0x41)]).subarray(0, size);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

let server: Running;
const store = path.join(TMP, 'files-e2e-store');
/** The files the store holds (temporary parts included). */
const stored = (): string[] =>
  readdirSync(store, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => d.name);

beforeAll(async () => {
  const dir = path.join(TMP, 'files-api');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'api.ts'), API);
  const mod = await importServer(await generateInto('files', path.join(dir, 'api.ts')));
  const disk = (mod['createDiskFileStore'] as (dir: string) => FileStore)(store);
  // Recordings go to a sink that counts what it takes (the streaming test); everything else to the disk.
  const files: FileStore = {
    put: (key, content, info) => {
      // A store that cannot reach its bucket, whose error speaks of multipart uploads as S3's do.
      if (storeDown) return Promise.reject(new Error('NoSuchUpload: the specified multipart upload does not exist'));
      return key.startsWith('documents/recording/') ? sink(content) : disk.put(key, content, info);
    },
    get: (key, range) => disk.get(key, range),
    delete: (key) => disk.delete(key),
  };
  const scopes = ['docs:read', 'docs:write'];
  server = await start(async (app) => {
    app.addHook('onRequest', (request, _reply, done) => {
      reading = { socket: request.raw.socket, before: request.raw.socket.bytesRead };
      done();
    });
    await registerOf(mod, 'Archive')(app, mod.createMemoryHandlers(), {
      authenticate: ({ token }: { token: string }) => ({ id: token, scopes: token === 'reader' ? ['docs:read'] : scopes }),
      files,
    });
  });
});

/** Whether the store's put fails. */
let storeDown = false;
/** The socket of the latest request and the bytes it had read before the request's body. */
let reading: { readonly socket: Socket; readonly before: number } | undefined;
/** What the sink took, and the most the server had read of the request beyond it. */
const sunk = { bytes: 0, mostAhead: 0 };

/** A store's put that keeps nothing: it takes each chunk on the next turn of the event loop, counting how far the socket's reads ran ahead. */
async function sink(content: Readable): Promise<void> {
  const { socket, before } = reading!;
  for await (const chunk of content) {
    sunk.bytes += (chunk as Buffer).length;
    sunk.mostAhead = Math.max(sunk.mostAhead, socket.bytesRead - before - sunk.bytes);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
afterAll(async () => {
  await server.close();
  rmSync(store, { recursive: true, force: true });
});
beforeEach(() => {
  rmSync(store, { recursive: true, force: true });
  mkdirSync(store, { recursive: true });
});

/** One part of a multipart body: a field (text or JSON) or a file. */
type Part =
  | { readonly name: string; readonly value: string; readonly type?: string }
  | { readonly name: string; readonly file: Buffer; readonly filename?: string; readonly type?: string };

const BOUNDARY = 'test-boundary-7c1d';

/** A multipart/form-data body of `parts`. */
function multipart(parts: readonly Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head = [`--${BOUNDARY}`, `Content-Disposition: form-data; name="${part.name}"${'file' in part ? `; filename="${part.filename ?? 'f'}"` : ''}`];
    if (part.type) head.push(`Content-Type: ${part.type}`);
    chunks.push(Buffer.from(`${head.join('\r\n')}\r\n\r\n`), 'file' in part ? part.file : Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** Sends a request with a raw body; the answer's JSON body parsed (or `{}`), and its bytes. */
async function send(method: string, url: string, body?: Buffer, headers: Record<string, string> = {}): Promise<Answer & { readonly bytes: Buffer }> {
  const response = await fetch(server.url + url, {
    method,
    headers: { authorization: 'Bearer admin', ...(body ? { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } : {}), ...headers },
    ...(body ? { body } : {}),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  const parsed = type.includes('json') && bytes.length > 0 ? (JSON.parse(bytes.toString()) as Answer['body']) : {};
  return { status: response.status, headers: response.headers, body: parsed, bytes };
}

const fields = (extra: readonly Part[] = []): Part[] => [{ name: 'title', value: 'Lease' }, { name: 'pages', value: '3' }, ...extra];
const create = (parts: readonly Part[], headers?: Record<string, string>) => send('POST', '/v2/documents', multipart(parts), headers);

describe('uploads', () => {
  it('creates from a multipart body: fields typed as JSON bodies are, the file stored with its metadata', async () => {
    const scan = PDF(500);
    const created = await create([
      ...fields([
        { name: 'archived', value: 'true' },
        { name: 'meta', value: '{"source":"scanner","year":2026}', type: 'application/json' },
        { name: 'labels', value: '["a","b"]', type: 'application/json' },
      ]),
      { name: 'scan', file: scan, filename: 'C:\\scans\\lease 2026.pdf', type: 'application/pdf' },
    ]);
    expect(created.status).toBe(201);
    const id = created.body['id'] as string;
    expect(created.body).toEqual({
      id,
      title: 'Lease',
      pages: 3,
      archived: true,
      meta: { source: 'scanner', year: 2026 },
      labels: ['a', 'b'],
      scan: { name: 'lease 2026.pdf', type: 'application/pdf', size: 500, sha256: sha256(scan), href: `/v2/documents/${id}/scan` },
    });
    expect(stored()).toHaveLength(1);
    // v1 shows the same file at its own path, and no cover (added in v2).
    const v1 = await send('GET', `/v1/documents/${id}`);
    expect(v1.body['scan']).toMatchObject({ href: `/v1/documents/${id}/scan`, sha256: sha256(scan) });
    expect(v1.body).not.toHaveProperty('cover');
    // The ETag of the resource is one for every version, whatever path its file is shown at.
    expect(v1.headers.get('etag')).toBe((await send('GET', `/v2/documents/${id}`)).headers.get('etag'));
  });

  it('answers 413 at maxBytes + 1, counted while it streams, and keeps nothing; maxBytes itself fits', async () => {
    expect((await create([...fields(), { name: 'scan', file: PDF(1024), type: 'application/pdf' }])).status).toBe(201);
    rmSync(store, { recursive: true, force: true });
    const over = await create([...fields(), { name: 'scan', file: PDF(1025), type: 'application/pdf' }]);
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'payload_too_large', errors: [{ pointer: '#/scan', detail: 'larger than 1024 bytes' }] });
    expect(over.headers.get('connection')).toBe('close');
    expect(stored()).toEqual([]);
  });

  it('answers 415 for a type the field does not declare, and for content whose leading bytes are another type', async () => {
    const undeclared = await create([...fields(), { name: 'scan', file: PNG, type: 'image/gif' }]);
    expect(undeclared.status).toBe(415);
    expect(undeclared.body['detail']).toBe('scan: image/gif is not a type this field takes (application/pdf, image/png, text/csv).');
    const disguised = await create([...fields(), { name: 'scan', file: PNG, type: 'application/pdf' }]);
    expect(disguised.status).toBe(415);
    expect(disguised.body['detail']).toBe('scan: the content does not start as application/pdf does (it looks like image/png).');
    // A type without a signature takes text, but not a PDF renamed .csv.
    expect((await create([...fields(), { name: 'scan', file: Buffer.from('a,b\n1,2\n'), type: 'text/csv' }])).status).toBe(201);
    const renamed = await create([...fields(), { name: 'scan', file: PDF(100), type: 'text/csv' }]);
    expect(renamed.status).toBe(415);
    expect(renamed.body['detail']).toBe('scan: the part says text/csv, but its content looks like application/pdf.');
    expect(stored()).toHaveLength(1);
  });

  it('gives a part sent without a type (or as application/octet-stream) the declared type its leading bytes have', async () => {
    const created = await create([...fields(), { name: 'scan', file: PNG, filename: 'x' }]);
    expect(created.status).toBe(201);
    expect(created.body['scan']).toMatchObject({ type: 'image/png', size: 16 });
    const octets = await create([...fields(), { name: 'scan', file: PDF(40), type: 'application/octet-stream' }]);
    expect(octets.body['scan']).toMatchObject({ type: 'application/pdf' });
    const unknown = await create([...fields(), { name: 'scan', file: Buffer.from('plain words') }]);
    expect(unknown.status).toBe(415);
    expect(unknown.body['detail']).toBe(
      'scan: the part declares no type and its content is none of application/pdf, image/png, text/csv; send the part with its Content-Type.',
    );
  });

  it('answers 400 with every issue, the same as JSON bodies, and deletes what it stored', async () => {
    const bad = await create([
      { name: 'title', value: '' },
      { name: 'pages', value: 'three' },
      { name: 'bogus', value: '1' },
      { name: 'labels', value: '["a","b","c","d"]', type: 'application/json' },
      { name: 'scan', file: PDF(100), type: 'application/pdf' },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors!.map((e) => e.pointer)).toEqual(['#/title', '#/pages', '#/labels', '#/bogus']);
    // The same issues a JSON body gets, in the same words.
    const json = await server.call('POST', '/v2/documents', { body: { title: '', pages: 'three', bogus: '1', labels: ['a', 'b', 'c', 'd'] } });
    expect(json.body.errors!.filter((e) => e.pointer !== '#/scan')).toEqual(bad.body.errors);
    expect(stored()).toEqual([]);
  });

  it('answers 400 for a file where a field is not one, a field where a file belongs, a part sent twice', async () => {
    const fileForText = await create([...fields([{ name: 'pages', file: Buffer.from('3') }]), { name: 'scan', file: PDF(50), type: 'application/pdf' }]);
    expect(fileForText.status).toBe(400);
    expect(fileForText.body.errors).toContainEqual({ pointer: '#/pages', detail: 'sent twice: send each field as one part' });
    const textForFile = await create([...fields(), { name: 'scan', value: 'not a file' }]);
    expect(textForFile.body.errors).toEqual([{ pointer: '#/scan', detail: 'send a file here: a part of a multipart/form-data body' }]);
    const twice = await create([
      ...fields(),
      { name: 'scan', file: PDF(50), type: 'application/pdf' },
      { name: 'scan', file: PDF(60), type: 'application/pdf' },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toContainEqual({ pointer: '#/scan', detail: 'sent twice: send each field as one part' });
    const notAFile = await create([...fields([{ name: 'title', file: Buffer.from('x') }]), { name: 'scan', file: PDF(50), type: 'application/pdf' }]);
    expect(notAFile.body.errors).toContainEqual({ pointer: '#/title', detail: 'sent twice: send each field as one part' });
    expect(stored()).toEqual([]);
  });

  it('answers 400 for a malformed multipart body and 415 for multipart where no file is taken', async () => {
    const truncated = await send('POST', '/v2/documents', multipart([...fields(), { name: 'scan', file: PDF(50), type: 'application/pdf' }]).subarray(0, 120));
    expect(truncated.status).toBe(400);
    expect(truncated.body['code']).toBe('bad_request');
    const noBoundary = await send('POST', '/v2/documents', Buffer.from('x'), { 'content-type': 'multipart/form-data' });
    expect(noBoundary.status).toBe(400);
    const notes = await send('POST', '/v2/notes', multipart([{ name: 'text', value: 'hi' }]));
    expect(notes.status).toBe(415);
    expect(stored()).toEqual([]);
  });

  it('answers 413 for more than 1,000 parts, and for fields past the body limit', async () => {
    const many = await create([...fields(), ...Array.from({ length: 1000 }, (_, i) => ({ name: `x${i}`, value: '1' }))]);
    expect([many.status, many.body['code'], many.body['detail']]).toEqual([413, 'payload_too_large', 'The multipart body has too many parts.']);
    const long = await create([
      { name: 'title', value: 'x'.repeat(1_048_577) },
      { name: 'scan', file: PDF(50), type: 'application/pdf' },
    ]);
    expect([long.status, long.body['code']]).toEqual([413, 'payload_too_large']);
    // Several fields, none too large alone, together past the limit; the file before them is deleted again.
    const spread = await create([
      { name: 'scan', file: PDF(50), type: 'application/pdf' },
      ...['title', 'a', 'b'].map((name) => ({ name, value: 'x'.repeat(400_000) })),
    ]);
    expect([spread.status, spread.body['detail']]).toEqual([413, 'The fields of the multipart body hold more than 1048576 bytes.']);
    expect(stored()).toEqual([]);
  });

  it("answers 500 when the store fails, whatever its error says, and keeps nothing: the store's failure is not the client's", async () => {
    storeDown = true;
    try {
      const failed = await create([...fields(), { name: 'scan', file: PDF(100), type: 'application/pdf' }]);
      expect([failed.status, failed.body['code'], failed.body['detail']]).toEqual([
        500,
        'internal_error',
        'The server failed to answer; the error has been logged.',
      ]);
    } finally {
      storeDown = false;
    }
    expect(stored()).toEqual([]);
  });

  it('takes JSON bodies without the file where none is required, and says where a required one is missing', async () => {
    const json = await server.call('POST', '/v2/documents', { body: { title: 'No scan', pages: 1 } });
    expect(json.status).toBe(400);
    expect(json.body.errors).toEqual([{ pointer: '#/scan', detail: 'send a file here: a part of a multipart/form-data body' }]);
    // A JSON body cannot point a resource at stored content: a look-alike of a stored file is no file.
    const forged = await server.call('POST', '/v2/documents', {
      body: { title: 'x', pages: 1, scan: { name: 'a', type: 'application/pdf', size: 1, sha256: 'a'.repeat(64), key: 'documents/scan/x' } },
    });
    expect(forged.status).toBe(400);
  });

  it('stores nothing of an upload the client abandons halfway', async () => {
    const body = multipart([...fields(), { name: 'scan', file: PDF(1000), type: 'application/pdf' }]);
    const { port } = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /v2/documents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer admin\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        // The fields and the first bytes of the file, then the connection drops.
        socket.write(body.subarray(0, body.length - 400), () => setTimeout(() => (socket.destroy(), resolve()), 50));
      });
      socket.on('error', reject);
    });
    await vi.waitFor(() => expect(stored()).toEqual([]), { timeout: 10_000, interval: 50 });
    // The server is still there, and the next upload goes through.
    expect((await create([...fields(), { name: 'scan', file: PDF(20), type: 'application/pdf' }])).status).toBe(201);
  });

  it('replays an idempotent create without keeping the second upload', async () => {
    const parts = [...fields(), { name: 'scan', file: PDF(300), type: 'application/pdf' }];
    const first = await create(parts, { 'idempotency-key': 'files-k1' });
    const again = await create(parts, { 'idempotency-key': 'files-k1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    await vi.waitFor(() => expect(stored()).toHaveLength(1), { timeout: 10_000, interval: 50 });
    const other = await create([...fields(), { name: 'scan', file: PDF(301), type: 'application/pdf' }], { 'idempotency-key': 'files-k1' });
    expect(other.status).toBe(422);
  });
});

describe('streaming', () => {
  it('takes a 32 MiB upload to the store as it arrives: the server reads at most a few hundred KiB ahead of the store', async () => {
    const size = 32 * 1024 * 1024;
    // An MP4's leading bytes (a ftyp box, brand isom), then a pattern: made as they are sent, never held whole here.
    const block = Buffer.alloc(64 * 1024, 0x5a);
    Buffer.from([0, 0, 0, 0x18, ...Buffer.from('ftypisom')]).copy(block);
    const head = multipart([...fields(), { name: 'scan', file: PDF(100), type: 'application/pdf' }]).subarray(0, -`--${BOUNDARY}--\r\n`.length);
    const fileHead = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="recording"; filename="talk.mp4"\r\nContent-Type: video/mp4\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    async function* body(): AsyncGenerator<Buffer> {
      yield Buffer.concat([head, fileHead]);
      for (let sent = 0; sent < size; sent += block.length) yield block.subarray(0, Math.min(block.length, size - sent));
      yield tail;
    }
    const { port } = new URL(server.url);
    const answer = await new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v2/documents',
        headers: {
          authorization: 'Bearer admin',
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': head.length + fileHead.length + size + tail.length,
        },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown> }));
      });
      req.on('error', reject);
      Readable.from(body()).pipe(req);
    });
    expect(answer.status).toBe(201);
    expect(answer.body['recording']).toMatchObject({ name: 'talk.mp4', type: 'video/mp4', size });
    expect(sunk.bytes).toBe(size);
    // Socket, HTTP parser, busboy, the counting and hashing stream: each holds a chunk or a stream's buffer. A
    // server that buffered the upload would be megabytes ahead.
    expect(sunk.mostAhead).toBeGreaterThan(0);
    expect(sunk.mostAhead).toBeLessThan(2 * 1024 * 1024);
  });
});

describe('replacing and removing files', () => {
  it('deletes the content a write replaces or removes, and all of it with the resource', async () => {
    const created = await create([...fields(), { name: 'scan', file: PDF(100), type: 'application/pdf' }, { name: 'cover', file: PNG, type: 'image/png' }]);
    const id = created.body['id'] as string;
    expect(stored()).toHaveLength(2);
    const replaced = await send('PATCH', `/v2/documents/${id}`, multipart([{ name: 'scan', file: PDF(200), type: 'application/pdf' }]));
    expect(replaced.status).toBe(200);
    expect(replaced.body['scan']).toMatchObject({ size: 200 });
    await vi.waitFor(() => expect(stored()).toHaveLength(2), { timeout: 10_000, interval: 50 });
    // A replace sends every required field, the file too; the cover it leaves out is gone, and its content with it.
    const put = await send('PUT', `/v2/documents/${id}`, multipart([...fields(), { name: 'scan', file: PDF(300), type: 'application/pdf' }]));
    expect(put.status).toBe(200);
    expect(put.body['scan']).toMatchObject({ size: 300 });
    expect(put.body).not.toHaveProperty('cover');
    await vi.waitFor(() => expect(stored()).toHaveLength(1), { timeout: 10_000, interval: 50 });
    await send('PATCH', `/v2/documents/${id}`, multipart([{ name: 'cover', file: PNG, type: 'image/png' }]));
    await vi.waitFor(() => expect(stored()).toHaveLength(2), { timeout: 10_000, interval: 50 });
    // JSON: null removes the cover; the scan stays.
    const removed = await server.call('PATCH', `/v2/documents/${id}`, { body: { cover: null, title: 'Renamed' } });
    expect(removed.body).toMatchObject({ title: 'Renamed', cover: null, scan: { size: 300 } });
    await vi.waitFor(() => expect(stored()).toHaveLength(1), { timeout: 10_000, interval: 50 });
    expect((await send('DELETE', `/v2/documents/${id}`)).status).toBe(204);
    await vi.waitFor(() => expect(stored()).toEqual([]), { timeout: 10_000, interval: 50 });
  });
});

describe('downloads', () => {
  let id = '';
  const scan = PDF(700);
  beforeEach(async () => {
    id = (await create([...fields(), { name: 'scan', file: scan, filename: 'Mietvertrag März; 2026.pdf', type: 'application/pdf' }])).body['id'] as string;
  });

  it('streams the file with its type, length, ETag, name and Accept-Ranges', async () => {
    const got = await send('GET', `/v2/documents/${id}/scan`);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(scan)).toBe(true);
    expect(
      Object.fromEntries(
        ['content-type', 'content-length', 'etag', 'accept-ranges', 'content-disposition', 'x-content-type-options'].map((h) => [h, got.headers.get(h)]),
      ),
    ).toEqual({
      'content-type': 'application/pdf',
      'content-length': '700',
      etag: `"${sha256(scan)}"`,
      'accept-ranges': 'bytes',
      'content-disposition': `attachment; filename="Mietvertrag M_rz; 2026.pdf"; filename*=UTF-8''Mietvertrag%20M%C3%A4rz%3B%202026.pdf`,
      'x-content-type-options': 'nosniff',
    });
    const head = await send('HEAD', `/v2/documents/${id}/scan`);
    expect([head.status, head.headers.get('content-length'), head.bytes.length]).toEqual([200, '700', 0]);
    expect((await send('GET', `/v2/documents/${id}/scan`, undefined, { 'if-none-match': `"${sha256(scan)}"` })).status).toBe(304);
  });

  it('answers one range with 206 and Content-Range, and a range past the end with 416', async () => {
    const part = await send('GET', `/v2/documents/${id}/scan`, undefined, { range: 'bytes=0-4' });
    expect([part.status, part.headers.get('content-range'), part.headers.get('content-length'), part.bytes.toString()]).toEqual([
      206,
      'bytes 0-4/700',
      '5',
      '%PDF-',
    ]);
    const tail = await send('GET', `/v2/documents/${id}/scan`, undefined, { range: 'bytes=-10' });
    expect([tail.status, tail.headers.get('content-range'), tail.bytes.equals(scan.subarray(690))]).toEqual([206, 'bytes 690-699/700', true]);
    const several = await send('GET', `/v2/documents/${id}/scan`, undefined, { range: 'bytes=0-1,5-6' });
    expect([several.status, several.bytes.length]).toEqual([200, 700]);
    const past = await send('GET', `/v2/documents/${id}/scan`, undefined, { range: 'bytes=700-' });
    expect([past.status, past.headers.get('content-range'), past.body['code']]).toEqual([416, 'bytes */700', 'range_not_satisfiable']);
    // If-Range with a stale ETag: the whole file, since the client's part is of another one.
    const stale = await send('GET', `/v2/documents/${id}/scan`, undefined, { range: 'bytes=0-4', 'if-range': '"other"' });
    expect([stale.status, stale.bytes.length]).toEqual([200, 700]);
  });

  it('answers 404 for no resource, no file, or an id that is no id; and needs the read scope', async () => {
    expect((await send('GET', `/v2/documents/${crypto.randomUUID()}/scan`)).status).toBe(404);
    const none = await send('GET', `/v2/documents/${id}/cover`);
    expect([none.status, none.body['detail']]).toEqual([404, 'This documents resource has no cover.']);
    expect((await send('GET', '/v2/documents/not-an-id/scan')).status).toBe(404);
    // cover does not exist in v1: no such path there.
    expect((await send('GET', `/v1/documents/${id}/cover`)).status).toBe(404);
    expect((await send('GET', `/v2/documents/${id}/scan`, undefined, { authorization: 'Bearer reader' })).status).toBe(200);
    expect((await send('GET', `/v2/documents/${id}/scan`, undefined, { authorization: '' })).status).toBe(401);
    const post = await send('POST', `/v2/documents/${id}/scan`);
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
  });
});
