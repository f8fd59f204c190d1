/**
 * @module `restgen serve [api.ts] [--port]`: generates the API, loads its server with jiti and runs it on
 * the in-memory handlers, with an `authenticate` that accepts any token and grants every scope. For trying
 * an API out; nothing here is meant for production.
 */
import type { Command } from 'commander';
import Fastify, { type FastifyInstance } from 'fastify';
import { createJiti } from 'jiti';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiIR, FieldShape, TypeIR } from '../../model/ir.ts';
import { pascalCase } from '../../model/names.ts';
import { project, shapeAt } from '../../model/project.ts';
import { generate, loadModel } from '../../pipeline/generate.ts';
import type { CliIO } from '../io.ts';
import { reportDiagnostics } from './generate.ts';

/** Options of {@link serveApi}. */
export interface ServeOptions {
  readonly apiPath: string;
  readonly port: number;
  readonly host: string;
  /** Where to generate; by default a cache folder inside restgen, leaving the user's output alone. */
  readonly outDir?: string;
}

/** A running `serve`. */
export interface Served {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly ir: ApiIR;
}

type Fn = (...args: unknown[]) => unknown;

// Generated into restgen's own tree, so the server's imports (zod, @fastify/rate-limit) resolve to restgen's.
const CACHE = fileURLToPath(new URL('../../../node_modules/.cache/restgen-serve/', import.meta.url));

/** Converts a value to the kind of `type`, for stand-in migrations (there is no user code to ask). */
function coerce(type: TypeIR, value: unknown): unknown {
  switch (type.kind) {
    case 'int':
    case 'number': {
      // The number inside a text like "AB-1234" (the dash is a separator, not a sign).
      const n = Number(typeof value === 'string' ? (/\d+(\.\d+)?/.exec(value)?.[0] ?? 'NaN') : value);
      return Number.isFinite(n) ? (type.kind === 'int' ? Math.trunc(n) : n) : (type.min ?? 0);
    }
    case 'boolean':
      return Boolean(value);
    case 'enum':
      return type.values.includes(String(value)) ? value : type.values[0];
    case 'array':
      return Array.isArray(value) ? value : [value];
    case 'object':
      return value;
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

/** A value of the field's shape, for a required field that the newest version made optional. */
function placeholder(shape: FieldShape): unknown {
  if (shape.example) return shape.example.value;
  if (shape.nullable) return null;
  const t = shape.type;
  const byKind: Record<string, unknown> = {
    email: 'unknown@example.com', url: 'https://example.com/', datetime: '1970-01-01T00:00:00Z', date: '1970-01-01',
    uuid: '00000000-0000-0000-0000-000000000000', id: '00000000-0000-0000-0000-000000000000', ref: '00000000-0000-0000-0000-000000000000',
    boolean: false, array: [], object: {}, string: 'unknown',
  };
  if (t.kind === 'enum') return t.values[0];
  if (t.kind === 'int' || t.kind === 'number') return t.min ?? 0;
  return byKind[t.kind];
}

/**
 * Stand-in migration hooks for every change the markers cannot express: values are coerced to the other
 * version's type, removed fields answer nothing, and fields made optional answer a placeholder.
 * Returns the hooks and a description of each, for the warning `serve` prints.
 */
export function createStandInMigrations(ir: ApiIR): { migrations: Record<string, Record<string, Record<string, Record<string, Fn>>>>; stands: string[] } {
  const versions = ir.versions.map((v) => v.name);
  const migrations: Record<string, Record<string, Record<string, Record<string, Fn>>>> = {};
  const stands: string[] = [];
  const put = (version: string, c: string, f: string, hooks: Record<string, Fn>, what: string) => {
    ((migrations[version] ??= {})[c] ??= {})[f] = hooks;
    stands.push(`${version}.${c}.${f}: ${what}`);
  };
  for (const c of ir.collections)
    for (const f of c.fields) {
      for (const change of f.typeChanges) {
        const k = versions.indexOf(change.version);
        const before = shapeAt(versions, k - 1, f);
        const after = shapeAt(versions, k, f);
        put(change.version, c.name, f.name, { up: (v) => coerce(after.type, v), down: (v) => coerce(before.type, v) }, 'values coerced between types');
      }
      if (f.removedIn && !f.removedIn.fallback) put(f.removedIn.version, c.name, f.name, { value: () => undefined }, 'answers no value');
      for (const o of f.optionality.filter((x) => x.to === 'optional')) {
        const value = placeholder(shapeAt(versions, versions.indexOf(o.version) - 1, f));
        put(o.version, c.name, f.name, { whenMissing: () => value }, `answers ${JSON.stringify(value)} when missing`);
      }
    }
  return { migrations, stands };
}

/** Generates the API, starts its server on the in-memory handlers, and returns where it listens. */
export async function serveApi(options: ServeOptions, io: CliIO): Promise<Served | undefined> {
  const outDir = options.outDir ?? path.join(CACHE, pascalCase(path.basename(path.dirname(options.apiPath))) + '-' + path.basename(options.apiPath, '.ts'));
  const result = await generate({ apiPath: options.apiPath, outDir });
  if (await reportDiagnostics(result, io)) return undefined;
  // The up-to-date cache answers without the model; serving needs it, so load it then.
  const ir = result.ir ?? (await loadModel(options.apiPath)).ir;
  if (!ir) throw new Error(`serve: ${options.apiPath} generated but could not be loaded again`);
  const name = pascalCase(ir.name);
  const jiti = createJiti(path.join(outDir, 'server/index.ts'), { moduleCache: false, fsCache: true, sourceMaps: false });
  const mod = (await jiti.import(path.join(outDir, 'server/index.ts'))) as Record<string, unknown>;
  const register = mod[`register${name}Api`] as (app: FastifyInstance, handlers: unknown, options: object) => Promise<void>;
  const createMemoryHandlers = mod['createMemoryHandlers'] as () => unknown;
  const scopes = [...new Set(ir.collections.flatMap((c) => [...c.scopes.read, ...c.scopes.write]))].sort();
  const { migrations, stands } = createStandInMigrations(ir);
  const app = Fastify({ logger: { level: 'warn' } });
  await register(app, createMemoryHandlers(), {
    authenticate: ({ token }: { token: string }) => ({ id: token, scopes }),
    migrations,
  });
  await app.listen({ port: options.port, host: options.host });
  const url = `http://${options.host}:${(app.server.address() as AddressInfo).port}`;
  const lines = [`${ir.title} on ${url} (in-memory data; any bearer token or API key is accepted, with every scope)`];
  for (const v of ir.versions) {
    const at = project(ir, v.name);
    const base = ir.versioning.in === 'path' ? `/${v.name}` : '';
    const state = v.sunset ? `, sunset ${v.sunset}` : v.deprecated ? ', deprecated' : !v.released ? ', unreleased' : '';
    lines.push(`  ${v.name}${state}: ${at.collections.map((c) => `${base}/${c.path}`).join('  ')}  (OpenAPI: ${base}/openapi.json)`);
  }
  if (ir.versioning.in === 'header') lines.push(`  choose a version with the ${ir.versioning.header} header`);
  // One write, so a reader sees the whole listing at once.
  io.out(lines.join('\n') + '\n');
  if (stands.length > 0) io.err(`stand-in migration hooks (pass your own to register${name}Api in real code):\n${stands.map((s) => `  ${s}\n`).join('')}`);
  return { url, app, ir };
}

/** Registers `restgen serve`. The command runs until SIGINT or SIGTERM. */
export function registerServeCommand(program: Command, io: CliIO): void {
  program
    .command('serve')
    .description('run the API on in-memory handlers, for trying it out')
    .argument('[api]', 'the API module', 'api.ts')
    .option('--port <port>', 'port to listen on (0: any free port)', '3000')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--out <dir>', 'generate into this folder instead of a cache folder')
    .action(async (apiPath: string, flags: { port: string; host: string; out?: string }) => {
      const port = Number(flags.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        io.err(`restgen serve: --port must be a whole number from 0 to 65535 (got ${flags.port}).\n`);
        return io.exit(2);
      }
      const served = await serveApi({ apiPath: path.resolve(io.cwd, apiPath), port, host: flags.host, ...(flags.out ? { outDir: path.resolve(io.cwd, flags.out) } : {}) }, io);
      if (!served) return io.exit(2);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void served.app.close().then(() => resolve());
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
}
