/**
 * @module Test helpers of the generated server: generate an API into `test/.tmp/` (inside the project, so
 * `fastify` and `zod` resolve), import its server, start it on 127.0.0.1 port 0, and call it over HTTP.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { generate } from '../../generator/pipeline/generate.ts';
import { SHOP_API } from '../helpers/load-ir.ts';
import { ownCopy, sharedOutput } from '../helpers/shared-output.ts';

/** The project's `test/.tmp/` folder. */
export const TMP = new URL('../.tmp/', import.meta.url).pathname;
/** The header-versioning example. */
export const HEADER_API = new URL('../../examples/header-versioning/api.ts', import.meta.url).pathname;

type Fn = (...args: never[]) => unknown;
/** What tests use of a generated `server/index.ts` (the generated types are checked by `typecheck.test.ts`). */
export interface ServerModule {
  readonly [name: string]: unknown;
  createMemoryHandlers(seed?: object, options?: { now?: () => Date }): Record<string, Record<string, Fn>>;
  readonly NotFound: new (detail?: string) => Error;
  readonly Conflict: new (detail?: string, field?: string) => Error;
}
/** `registerXApi` of a generated server. */
export type Register = (app: FastifyInstance, handlers: object, options?: object) => Promise<void>;

/**
 * The generated output of `apiPath`, to read only: this run's shared output for an example (generated once per
 * run, see `helpers/shared-output.ts`), else generated into `test/.tmp/server-<name>` (kept between runs:
 * `generate` rewrites only what changed). A test that writes into the output uses {@link writableOutput}.
 */
export async function generateInto(name: string, apiPath: string = SHOP_API): Promise<string> {
  return sharedOutput(apiPath) ?? writableOutput(name, apiPath);
}

/** The generated output of `apiPath` in a folder of this test's own (`name` unique among the test files), which it may write into. */
export async function writableOutput(name: string, apiPath: string = SHOP_API): Promise<string> {
  const copy = ownCopy(`server-${name}`, apiPath);
  if (copy !== undefined) return copy;
  const outDir = path.join(TMP, `server-${name}`);
  const result = await generate({ apiPath, outDir });
  if (!result.ok) throw new Error(`generate failed: ${JSON.stringify(result.diagnostics)}`);
  return outDir;
}

/** Imports the generated server of `outDir`. */
export async function importServer(outDir: string): Promise<ServerModule> {
  return (await import(path.join(outDir, 'server/index.ts'))) as ServerModule;
}

/** The generated `registerXApi` function of a module. */
export function registerOf(mod: ServerModule, api: string): Register {
  const fn = mod[`register${api}Api`];
  if (typeof fn !== 'function') throw new Error(`no register${api}Api export`);
  return fn as Register;
}

/** Every scope of the example shop API. */
export const ALL_SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write'];

/**
 * Test credentials: `bad` is rejected, `reader` has only read scopes, `writer` only write scopes, anything else is
 * a principal of that id with every scope.
 */
export function testAuthenticate({ token }: { token: string }): { id: string; scopes: string[] } | null {
  if (token === 'bad') return null;
  if (token === 'reader') return { id: token, scopes: ALL_SCOPES.filter((s) => s.endsWith(':read')) };
  if (token === 'writer') return { id: token, scopes: ALL_SCOPES.filter((s) => s.endsWith(':write')) };
  return { id: token, scopes: ALL_SCOPES };
}

/** The migration hooks of the shop example, written so a test can see each one at work. */
export const SHOP_MIGRATIONS = {
  v2: { orders: { note: { value: (order: { giftMessage?: string }) => order.giftMessage ?? undefined } } },
  v3: {
    customers: { name: { whenMissing: (customer: { email: string }) => customer.email.split('@')[0]! } },
    orders: {
      reference: {
        up: (n: number) => `RF-${String(n).padStart(4, '0')}`,
        down: (s: string) => Number(s.replace(/\D/g, '')),
      },
    },
  },
};

/** A started server and a way to call it. */
export interface Running {
  readonly app: FastifyInstance;
  readonly url: string;
  /** Lines the server logged at its log level (`error` unless `start` was given another) and above. */
  readonly errors: string[];
  call(method: string, urlPath: string, init?: CallInit): Promise<Answer>;
  close(): Promise<void>;
}
/** Options of {@link Running.call}. */
export interface CallInit {
  /** A JSON body (serialized, content-type application/json). */
  readonly body?: unknown;
  /** A raw body sent as is (set the content type in `headers`). */
  readonly raw?: string;
  /** Bearer token (default `admin`; null sends no Authorization). */
  readonly token?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
}
/** An HTTP answer: status, headers, and the parsed JSON body (undefined when empty). */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown> & { data?: Record<string, unknown>[]; errors?: { pointer: string; detail: string }[] };
}

/** Starts a Fastify app on 127.0.0.1 port 0 after `mount` registered routes on it, logging at `level` and above. */
export async function start(mount: (app: FastifyInstance) => Promise<void>, level: 'error' | 'warn' = 'error'): Promise<Running> {
  const errors: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      errors.push(chunk.toString());
      done();
    },
  });
  const app = Fastify({ logger: { level, stream } });
  await mount(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    url,
    errors,
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
      return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Answer['body']) : {} };
    },
  };
}

/** The URL of a running redis-server (REDIS_URL, or the one `scripts/ensure-redis.sh` started), or undefined. */
export function redisUrl(): string | undefined {
  if (process.env['REDIS_URL']) return process.env['REDIS_URL'];
  const file = path.join(TMP, 'redis/url');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}
