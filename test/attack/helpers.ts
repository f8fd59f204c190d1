/**
 * @module Shared helpers of the attack suite: the vault fixture's generated server (generated once per
 * test file into `test/.tmp/server-attack-<name>`), started on loopback with the problem+json Fastify
 * options, its test credentials and migration hooks, and raw HTTP over a socket.
 */
import Fastify from 'fastify';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { generateInto, importServer, registerOf, type Running, type ServerModule } from '../server/helpers.ts';

/** The vault fixture API. */
export const VAULT_API = new URL('./fixtures/vault.ts', import.meta.url).pathname;
/** Every scope of the vault API. */
export const SCOPES = ['accounts:read', 'accounts:write'];

/** Test credentials: `bad` (and anything starting with `guess`) is rejected, anything else has every scope. */
export const authenticate = ({ token }: { token: string }) => (token === 'bad' || token.startsWith('guess') ? null : { id: token, scopes: SCOPES });

/** The vault's v3 hook for `code` (int before v3, `AB-1234` since); `up` pads, so it always passes. */
export const MIGRATIONS = { v3: { accounts: { code: { up: (n: number) => `CD-${String(n).padStart(4, '0')}`, down: (s: string) => Number(s.slice(3)) } } } };

/** Generates the vault API (or another) into its own folder and imports the server. */
export async function vaultServer(name: string, api: string = VAULT_API): Promise<ServerModule> {
  return importServer(await generateInto(`attack-${name}`, api));
}

/** Starts `registerVaultApi` with `handlers` and options on a Fastify instance made with `fastifyOptions` (and `fastify`). */
export async function startVault(
  mod: ServerModule,
  handlers: object,
  options: object = {},
  fastify: object = {},
): Promise<Running & { logs: Record<string, unknown>[] }> {
  const logs: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({ ...(mod['fastifyOptions'] as object), ...fastify, logger: { level: 'warn', stream } });
  await registerOf(mod, 'Vault')(app, handlers, { authenticate, migrations: MIGRATIONS, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    url,
    logs,
    errors: [],
    close: () => app.close(),
    async call(method, urlPath, init = {}) {
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      const token = init.token === undefined ? 'admin' : init.token;
      if (token !== null) headers['authorization'] ??= `Bearer ${token}`;
      let body: string | undefined = init.raw;
      if (init.body !== undefined) {
        body = JSON.stringify(init.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(url + urlPath, { method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as never) : ({} as never) };
    },
  };
}

/** A raw HTTP answer: status line, headers (lower-case names) and body text. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Sends `text` as is over a socket to `url`'s host and port, and reads the answer until the server closes it. */
export function raw(url: string, text: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    let data = '';
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', ...rest] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

/** A request as raw HTTP/1.1 text, closing the connection after it. */
export const request = (method: string, path: string, headers: Readonly<Record<string, string>> = {}, body = ''): string =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${Object.entries({
    ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
    ...headers,
  })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n${body}`;
