/**
 * @module `restgen serve [api.ts] [--port] [--jwt-dev]`: generates the API, loads its server (restgen's module loader) and
 * runs it on the in-memory handlers, with an `authenticate` that accepts any token and grants every scope
 * (with `--jwt-dev`, bearer tokens must be JWTs signed by a key made at startup, verified by the server's
 * real JWT path). For trying
 * an API out; nothing here is meant for production. The server runs on the project's own fastify,
 * @fastify/rate-limit and zod (restgen does not carry them), generated into the project's
 * `node_modules/.cache/restgen-serve/` so that its imports resolve to them.
 */
import type { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { installSpec, outputImports } from '../../config/peers.ts';
import type { Part } from '../../dsl/define-config.ts';
import { peersOf } from '../../emit/parts.ts';
import { takesBearer, type ApiIR } from '../../model/ir.ts';
import { pascalCase } from '../../model/names.ts';
import { project } from '../../model/project.ts';
import { generate, loadModel } from '../../pipeline/generate.ts';
import { usageError, type CliIO } from '../io.ts';
import { allScopes, createDevJwt } from '../jwt-dev.ts';
import { reportDiagnostics } from '../report.ts';
import { resolveRun } from '../run-options.ts';
import { createStandInMigrations, STAND_IN_HEADER } from '../serve-stand-ins.ts';

/** Options of {@link serveApi}. */
export interface ServeOptions {
  readonly apiPath: string;
  readonly port: number;
  readonly host: string;
  /** Where to generate; by default a cache folder in the project's node_modules, leaving the user's output alone. */
  readonly outDir?: string;
  readonly templatesDir?: string;
  /**
   * The parts to generate (the server is added): with `outDir`, the parts `generate` writes there, so that
   * serving from the project's own output folder removes none of its files. Default: the server only.
   */
  readonly parts?: readonly Part[];
  /** Verify bearer tokens as JWTs signed by a key made at startup, and print a token with every scope. */
  readonly jwtDev?: boolean;
}

/** A running `serve`. */
export interface Served {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly ir: ApiIR;
  /** Stops the server: closes it (its hooks run, the uploads folder goes) and ends every connection still open. */
  readonly stop: () => Promise<void>;
}

/** What the generated server needs; `serve` generates it and the parts it needs. */
const SERVER: readonly Part[] = ['server'];

/** A problem `serve` reports as a one-line usage error (exit 2). */
class ServeProblem extends Error {}

/** The project's `node_modules` folder nearest to `dir`, where the cache folder goes. */
function nearestNodeModules(dir: string): string | undefined {
  for (let at = dir; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, 'node_modules'))) return path.join(at, 'node_modules');
    if (path.dirname(at) === at) return undefined;
  }
}

/**
 * Loads the project's fastify, as the generated server in `from` will; a clear problem when it, or another
 * package that server imports, is missing.
 */
async function projectFastify(from: string): Promise<(options: object) => FastifyInstance> {
  const require = createRequire(path.join(from, 'noop.js'));
  const missing = Object.entries(peersOf(SERVER, outputImports(from))).filter(([name]) => {
    try {
      require.resolve(name);
      return false;
    } catch {
      // Not installed where the generated server looks for it.
      return true;
    }
  });
  if (missing.length > 0)
    throw new ServeProblem(
      `the generated server needs ${missing.map(([n]) => n).join(', ')} in your project; install ${missing.length === 1 ? 'it' : 'them'} with: npm install ${missing.map(([n, r]) => installSpec(n, r)).join(' ')}`,
    );
  const mod = (await import(pathToFileURL(require.resolve('fastify')).href)) as { default: (options: object) => FastifyInstance };
  return mod.default;
}

/** Generates the API, starts its server on the in-memory handlers, and returns where it listens. */
export async function serveApi(options: ServeOptions, io: CliIO): Promise<Served | undefined> {
  const apiDir = path.dirname(options.apiPath);
  const modules = nearestNodeModules(apiDir);
  if (!options.outDir && !modules)
    throw new ServeProblem(
      "there is no node_modules folder above the API module; install the generated server's packages in your project first (npm install fastify @fastify/rate-limit zod).",
    );
  const outDir =
    options.outDir ??
    path.join(modules!, '.cache', 'restgen-serve', `${pascalCase(path.basename(apiDir))}-${path.basename(options.apiPath).replace(/\.[^.]+$/, '')}`);
  const parts = options.parts ? [...new Set([...options.parts, ...SERVER])] : SERVER;
  const result = await generate({ apiPath: options.apiPath, outDir, parts, ...(options.templatesDir ? { templatesDir: options.templatesDir } : {}) });
  if (await reportDiagnostics(result.diagnostics, io)) return undefined;
  const Fastify = await projectFastify(outDir);
  // The up-to-date cache answers without the model; serving needs it, so load it then.
  const ir = result.ir ?? (await loadModel(options.apiPath)).ir;
  if (!ir) throw new Error(`serve: ${options.apiPath} generated but could not be loaded again`);
  const name = pascalCase(ir.name);
  // The generated server is loaded by the loader that loads the API module (its packages from the project).
  const { importModule } = await import('../../load/load-api.ts');
  const imported = await importModule(path.join(outDir, 'server/index.ts'));
  if (!imported.ok)
    throw new Error(
      `serve: the generated server failed to load: ${imported.failure.message} (${imported.failure.file}:${imported.failure.line}:${imported.failure.column})`,
    );
  const mod = imported.mod as Record<string, unknown>;
  const register = mod[`register${name}Api`] as (app: FastifyInstance, handlers: unknown, options: object) => Promise<void>;
  const createMemoryHandlers = mod['createMemoryHandlers'] as () => unknown;
  if (options.jwtDev && !takesBearer(ir.auth))
    throw new ServeProblem(`--jwt-dev verifies bearer tokens, but ${ir.name} takes none; declare auth.oauth2 (or bearer) in the API.`);
  const scopes = allScopes(ir);
  const dev = options.jwtDev ? createDevJwt(ir, Date.now()) : null;
  const { migrations, stands } = createStandInMigrations(ir);
  const app = Fastify({ ...(mod['fastifyOptions'] as object), logger: { level: 'warn' } });
  // Every answer says which hooks are serve's stand-ins (restgen conformance reads it), before any route is added.
  if (stands.length > 0) {
    const ids = stands.map((s) => s.id).join(', ');
    app.addHook('onSend', async (_request, reply) => void reply.header(STAND_IN_HEADER, ids));
  }
  const hasEvents = ir.collections.some((c) => c.builtin === 'webhook-endpoints');
  // Uploaded files live in a folder of their own, removed when the server stops.
  const filesDir = ir.collections.some((c) => c.fields.some((f) => f.type.kind === 'file'))
    ? await mkdtemp(path.join(os.tmpdir(), 'restgen-serve-files-'))
    : null;
  if (filesDir !== null) app.addHook('onClose', () => rm(filesDir, { recursive: true, force: true }));
  type Seen = { scheme: string; token: string; verified?: unknown };
  await register(app, createMemoryHandlers(), {
    // With --jwt-dev bearer tokens pass only the real JWT verification; API keys are still all accepted.
    authenticate: ({ scheme, token, verified }: Seen) => (dev && scheme === 'bearer' ? (verified ?? null) : { id: token, scopes }),
    ...(dev ? { jwt: dev.options } : {}),
    migrations,
    // Trying webhooks locally means a receiver on this machine: serve allows http and private addresses.
    ...(hasEvents ? { webhooks: { allowPrivateUrls: true } } : {}),
    ...(filesDir !== null ? { files: (mod['createDiskFileStore'] as (dir: string) => unknown)(filesDir) } : {}),
  });
  // Ctrl-C stops a development server now: every connection still open is ended, not waited for. (A keep-alive
  // connection that carried an upload and then a download can outlive the close of the server it came to.)
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const stop = async () => {
    const closed = app.close();
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  try {
    await app.listen({ port: options.port, host: options.host });
  } catch (error) {
    await app.close();
    const code = (error as { code?: unknown }).code;
    if (code === 'EADDRINUSE')
      throw new ServeProblem(`port ${options.port} on ${options.host} is in use; choose another with --port (or --port 0 for any free port).`);
    if (code === 'EACCES') throw new ServeProblem(`port ${options.port} needs privileges this process does not have; choose one above 1023 with --port.`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new ServeProblem(`cannot listen on ${options.host}: no such interface on this machine; use --host 127.0.0.1.`);
    throw error;
  }
  const url = `http://${options.host}:${(app.server.address() as AddressInfo).port}`;
  const accepted = dev ? 'bearer tokens must be JWTs signed by the development key; any API key is accepted' : 'any bearer token or API key is accepted';
  const lines = [`${ir.title} on ${url} (in-memory data; ${accepted}, with every scope)`];
  for (const v of ir.versions) {
    const at = project(ir, v.name);
    const base = ir.versioning.in === 'path' ? `/${v.name}` : '';
    const state = v.sunset ? `, sunset ${v.sunset}` : v.deprecated ? ', deprecated' : !v.released ? ', unreleased' : '';
    lines.push(`  ${v.name}${state}: ${at.collections.map((c) => `${base}/${c.path}`).join('  ')}  (OpenAPI: ${base}/openapi.json)`);
  }
  if (ir.versioning.in === 'header') lines.push(`  choose a version with the ${ir.versioning.header} header`);
  if (dev)
    lines.push(
      `--jwt-dev: tokens are verified as JWT access tokens (ES256, issuer ${dev.issuer}, audience ${dev.audience}); this one has every scope (${dev.scopes.join(' ') || 'none'}) and is valid for ${dev.hours} h:`,
      `  Authorization: Bearer ${dev.token}`,
    );
  if (filesDir !== null) lines.push(`  files: uploads are kept in ${filesDir} until the server stops`);
  const endpoints = ir.collections.find((c) => c.builtin === 'webhook-endpoints');
  if (endpoints) {
    // The route as a client calls it: the version in the path, or in the versioning header on one path.
    const route = ir.versioning.in === 'path' ? `/<version>/${endpoints.path}` : `/${endpoints.path} with the ${ir.versioning.header} header`;
    lines.push(
      `  webhooks: POST an endpoint to ${route}; events are delivered from here, and http and private URLs are allowed (the server refuses them unless webhooks.allowPrivateUrls)`,
    );
  }
  // One write, so a reader sees the whole listing at once.
  io.out(lines.join('\n') + '\n');
  if (stands.length > 0)
    io.err(`stand-in migration hooks (pass your own to register${name}Api in real code):\n${stands.map((s) => `  ${s.id}: ${s.what}\n`).join('')}`);
  return { url, app, ir, stop };
}

/** Registers `restgen serve`. The command runs until SIGINT or SIGTERM. */
export function registerServeCommand(program: Command, io: CliIO): void {
  program
    .command('serve')
    .description('run the API on in-memory handlers, for trying it out')
    .argument('[api]', 'the API module (default: api in restgen.config.ts, else api.ts)')
    .option('--port <port>', 'port to listen on (0: any free port)', '3000')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--out <dir>', 'generate into this folder instead of a cache folder in node_modules')
    .option('--templates <dir>', "a folder of templates overriding restgen's by name")
    .option('--config <file>', 'the config file (default: restgen.config.ts in the working folder, when there is one)')
    .option('--jwt-dev', 'verify bearer tokens as JWTs signed by a key made at startup, and print a token with every scope')
    .action(async (apiArg: string | undefined, flags: { port: string; host: string; out?: string; templates?: string; config?: string; jwtDev?: boolean }) => {
      const port = Number(flags.port);
      if (!/^\d+$/.test(flags.port) || !Number.isInteger(port) || port < 0 || port > 65535)
        return usageError(io, 'serve', `--port must be a whole number from 0 to 65535 (got ${flags.port}).`);
      // The config's output folder is for generate; serve always generates the server into its cache (or --out).
      // Given options are passed on as given: an empty one (an unset shell variable) is a usage error there, not dropped.
      const given = { templates: flags.templates, config: flags.config, out: flags.out };
      const run = await resolveRun('serve', apiArg, Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)), io);
      if (!run) return;
      let served: Served | undefined;
      try {
        served = await serveApi(
          {
            apiPath: run.apiPath,
            port,
            host: flags.host,
            ...(flags.jwtDev ? { jwtDev: true } : {}),
            // Another folder may be the one generate writes: the parts generate writes are kept there (a run for the
            // server alone removes the generated files of every other part).
            ...(flags.out !== undefined && run.outDir ? { outDir: run.outDir, parts: run.parts } : {}),
            ...(run.templatesDir ? { templatesDir: run.templatesDir } : {}),
          },
          io,
        );
      } catch (error) {
        if (!(error instanceof ServeProblem)) throw error;
        return usageError(io, 'serve', error.message);
      }
      if (!served) return io.exit(2);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void served.stop().then(() => resolve());
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
}
