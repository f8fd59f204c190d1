/**
 * A refused body does not keep its connection: a hostile client that declares a large body, sends part of it and
 * then holds the connection open (a slow sender) gets its refusal (413 past a file's `maxBytes`, 415 for a file's
 * type, 415 for a multipart body where no file is taken, 413 for a JSON body past the body limit, 401 for a POST
 * without a credential) with
 * `Connection: close`, and the server ends the connection after the answer, so `app.close()` resolves with every
 * such client still connected. Told by events (the client's socket ending), never by a clock.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TMP, generateInto, importServer, registerOf, start, type Running } from './helpers.ts';

const API = `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'inbox',
  versions: { v1: {} },
  auth: { bearer: {} },
  collections: {
    documents: collection({
      fields: { id: f.id(), title: f.string().max(100), scan: f.file({ maxBytes: 1024, types: ['application/pdf'] }) },
    }),
    notes: collection({ fields: { id: f.id(), text: f.string() } }),
  },
});
`;

let server: Running;
const sockets: Socket[] = [];

beforeAll(async () => {
  const dir = path.join(TMP, 'upload-close-api');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'api.ts'), API);
  const mod = await importServer(await generateInto('upload-close', path.join(dir, 'api.ts')));
  const { createDiskFileStore } = mod as unknown as { createDiskFileStore: (dir: string) => unknown };
  server = await start((app) =>
    registerOf(mod, 'Inbox')(app, mod.createMemoryHandlers(), {
      authenticate: ({ token }: { token: string }) => ({ id: token, scopes: [] }),
      files: createDiskFileStore(path.join(TMP, 'upload-close-store')),
    }),
  );
});
afterAll(() => {
  for (const s of sockets) s.destroy();
});

const BOUNDARY = 'x-boundary-7d1';

/** What a hostile client saw: the answer's head and body as text, and whether the server ended the connection. */
interface Seen {
  readonly text: Promise<string>;
  /** Resolves when the server ended (or reset) the connection. */
  readonly ended: Promise<void>;
}

/**
 * Sends `head` then `body` on a connection of its own and sends nothing more, though the declared length says a
 * megabyte more is coming: what a slow sender looks like to the server.
 */
function holdOpen(url: string, head: string, body: Buffer): Seen {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  sockets.push(socket);
  let all = '';
  socket.on('data', (chunk: Buffer) => (all += chunk.toString('latin1')));
  // A reset after the answer counts as an end too: the server let go of the connection.
  socket.on('error', () => undefined);
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(head);
  socket.write(body);
  return { text: ended.then(() => all), ended };
}

/** A multipart request whose one file part is `file` with `type`, declaring a megabyte more than it sends. */
function multipart(route: string, field: string, type: string, file: Buffer): [string, Buffer] {
  const part = Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nT\r\n`),
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="a.pdf"\r\nContent-Type: ${type}\r\n\r\n`),
    file,
  ]);
  const head =
    `POST ${route} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\n` +
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${part.length + 1_048_576}\r\n\r\n`;
  return [head, part];
}

const PDF = (size: number): Buffer => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(size - 9, 0x41)]);

describe('a refused body from a client that keeps sending', () => {
  const cases: [string, () => [string, Buffer], number][] = [
    ['a file past maxBytes (413)', () => multipart('/v1/documents', 'scan', 'application/pdf', PDF(4096)), 413],
    ['a file of a type the field does not take (415)', () => multipart('/v1/documents', 'scan', 'image/png', PDF(100)), 415],
    ['a file whose leading bytes are another type (415)', () => multipart('/v1/documents', 'scan', 'application/pdf', Buffer.alloc(100, 0x20)), 415],
    ['a multipart body where no file is taken (415)', () => multipart('/v1/notes', 'text', 'application/pdf', PDF(100)), 415],
    [
      'a JSON body past the body limit (413)',
      () => [
        'POST /v1/notes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n',
        Buffer.from('{"text":"'),
      ],
      413,
    ],
    [
      'a large POST without a credential (401)',
      () => ['POST /v1/notes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n', Buffer.from('{"text":"')],
      401,
    ],
  ];
  const seen: Seen[] = [];

  it.each(cases)('answers %s with Connection: close, and ends the connection after it', async (_name, make, status) => {
    const [head, body] = make();
    const s = holdOpen(server.url, head, body);
    seen.push(s);
    const text = await s.text;
    expect(text.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(text.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(text).toContain('"status":' + status);
  });

  it('lets the server close at once, with the hostile clients still connected', async () => {
    // A refusal now, whose client holds on while the server closes.
    const [head, body] = multipart('/v1/documents', 'scan', 'application/pdf', PDF(4096));
    const last = holdOpen(server.url, head, body);
    await server.close();
    await last.ended;
    await Promise.all(seen.map((s) => s.ended));
  });
});
