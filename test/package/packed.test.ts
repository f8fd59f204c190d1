/**
 * The packed artifact, as a new user meets it: `npm pack`, install the tarball into a fresh project outside
 * this repository (with fastify, @fastify/rate-limit, @fastify/multipart, zod, the MCP SDK and ajv at the oldest versions
 * restgen's peer ranges allow, and typescript and @types/node, from the registry),
 * `restgen init`, generate, type-check the user's `api.ts` and config (no @types/node), the generated code
 * and code that uses it under the strictest common settings in both module modes with `skipLibCheck` off,
 * check that the DSL's typed errors still appear, build and deploy the server with its `openapi/` folder,
 * run `restgen check`; generate this repository's example APIs (shop, header-versioning, ledger) from the tarball
 * exactly as committed and type-check them with code using them; in a second fresh folder `npm init -y`, `restgen init`, `restgen generate` and the project's
 * strict `tsc`; then drop the dev dependencies (restgen included) and run the server with the generated client over
 * real HTTP, and its MCP server with the SDK's client. `@restgen/postgres` is installed beside them (with `pg` at the
 * floor of its range): its bin migrates a fresh database on the PostgreSQL the tests use, and the built server keeps its
 * idempotent answers there. Needs the npm registry (npm's cache is reused).
 */
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../helpers/temp-api.ts';
import { createTestDatabase, postgresUrl, requirePostgres, type TestDatabase } from '../postgres/database.ts';
import { PG_USAGE } from './pg-usage.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const run = promisify(execFile);
const own = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
/** The versions this repository develops with (its own tests run the newest supported runtime packages). */
const pin = (name: string): string => own.devDependencies[name]!;
/** The oldest version a peer range allows: here the generated code runs on the floor of every range it declares. */
const floor = (name: string): string => /\d+\.\d+\.\d+/.exec(own.peerDependencies[name]!)![0];

// npm passes its configuration to scripts as npm_* variables; the nested npm must not inherit `npm test`'s.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));

const work = mkdtempSync(path.join(os.tmpdir(), 'restgen-packed-'));
const app = path.join(work, 'app');
const postgres = postgresUrl();
requirePostgres(postgres);
let db: TestDatabase | undefined;
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await db?.drop();
});
/** The floor of `@restgen/postgres`'s peer range for `name`. */
const postgresFloor = (name: string): string =>
  /\d+\.\d+\.\d+/.exec(
    (JSON.parse(readFileSync(path.join(ROOT, 'packages/postgres/package.json'), 'utf8')) as { peerDependencies: Record<string, string> }).peerDependencies[
      name
    ]!,
  )![0];

async function sh(cmd: string, args: readonly string[], cwd = app): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(cmd, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${e.stdout ?? ''}\n${e.stderr ?? e.message}`);
  }
}

const restgen = (...args: string[]) => sh(path.join(app, 'node_modules/.bin/restgen'), args);
/**
 * The user's own files are checked with TypeScript 5 (what most projects run today); the generated code,
 * which pulls in fastify's and zod's declarations with skipLibCheck off, with TypeScript 7's native
 * compiler, about four times faster (both are the registry's `typescript` package).
 */
const tsc = (project: string, compiler: 'typescript' | 'typescript-native' = 'typescript') =>
  sh(process.execPath, [path.join(app, 'node_modules', compiler, 'bin/tsc'), '-p', project]);

const STRICT = {
  target: 'es2022',
  lib: ['es2023', 'dom'],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  noUnusedLocals: true,
  skipLibCheck: false,
};
const MODES = { nodenext: { module: 'nodenext', moduleResolution: 'nodenext' }, bundler: { module: 'esnext', moduleResolution: 'bundler' } } as const;

const USAGE = `import Fastify from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createTodoClient } from './generated/client/index.js';
import { createMcpServer } from './generated/mcp/index.js';
import { createMemoryHandlers, registerTodoApi } from './generated/server/index.js';

const app = Fastify();
await registerTodoApi(app, createMemoryHandlers(), {
  authenticate: async ({ token }) => (token === 'secret' ? { id: 'u1', scopes: ['tasks:read', 'tasks:write'] } : null),
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('not listening on a port');
const baseUrl = \`http://127.0.0.1:\${address.port}\`;
const todo = createTodoClient({ baseUrl, bearer: 'secret' });
const created = await todo.v1.tasks.create({ name: 'Write the README' });
const later = await todo.v2.tasks.get(created.id);
const anonymous = await fetch(\`\${baseUrl}/v2/tasks\`);
const openapi = await fetch(\`\${baseUrl}/v2/openapi.json\`);
// The MCP server of v2, through the SDK's own client.
const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
await createMcpServer({ version: 'v2', baseUrl, auth: { bearer: 'secret' } }).connect(serverSide);
const agent = new Client({ name: 'packed', version: '1.0.0' });
await agent.connect(clientSide);
const tools = (await agent.listTools()).tools.map((t) => t.name);
const listed = await agent.callTool({ name: 'tasks_list', arguments: { limit: 1 } });
await agent.close();
console.log(JSON.stringify({ created, later, anonymous: anonymous.status, openapi: openapi.status, tools, listed: listed.structuredContent }));
await app.close();
`;

/** Code using the examples' generated servers and clients, as their READMEs show it. */
const EXAMPLES_USAGE = `import Fastify from 'fastify';
import { createShopClient } from './shop/generated/client/index.js';
import { createDiskFileStore, createMemoryHandlers as shopMemory, registerShopApi, type ShopMigrations } from './shop/generated/server/index.js';
import { createNotesClient } from './header-versioning/generated/client/index.js';
import { createMemoryHandlers as notesMemory, registerNotesApi } from './header-versioning/generated/server/index.js';
import { createLedgerClient } from './ledger/generated/client/index.js';
import { createMemoryHandlers as ledgerMemory, registerLedgerApi } from './ledger/generated/server/index.js';

const migrations: ShopMigrations = {
  v2: { orders: { note: { value: (order) => order.giftMessage } } },
  v3: {
    customers: { name: { whenMissing: (customer) => customer.email } },
    orders: { reference: { up: (n) => 'RF-' + String(n).padStart(4, '0'), down: (s) => Number(s.slice(3)) } },
  },
};
const app = Fastify();
await registerShopApi(app, shopMemory(), { authenticate: () => ({ id: 'u', scopes: ['orders:read'] }), migrations, files: createDiskFileStore('invoices') });
await app.register(async (notes) => registerNotesApi(notes, notesMemory(), {}), { prefix: '/notes-api' });
await app.register(async (ledger) => registerLedgerApi(ledger, ledgerMemory(), { apiKeys: { k: { id: 'acct-1', scopes: ['ledger:read'] } }, pinnedVersion: () => '2025-01-15' }), { prefix: '/ledger-api' });
const shop = createShopClient({ baseUrl: 'http://127.0.0.1:1', bearer: 'token' });
const customer: { email: string } | undefined = (await shop.v3.customers.list()).data[0];
const notes = createNotesClient({ baseUrl: 'http://127.0.0.1:1' });
const ledger = createLedgerClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' });
console.log(customer, notes, ledger);
`;

/** The programmatic use of @restgen/conformance, as its README shows it. */
const CONFORMANCE_USAGE = `import { loadContract } from 'restgen/contract';
import { formatText, runConformance, verdictOf, type ConformanceReport } from '@restgen/conformance';

const loaded = await loadContract('api.ts');
if (!loaded.ok) throw new Error(loaded.message);
const outcome = await runConformance(loaded.contract, { url: 'http://127.0.0.1:3000', headers: [['Authorization', 'Bearer secret']] });
if (outcome.kind === 'unreachable') throw new Error(outcome.message);
const report: ConformanceReport = outcome.report;
console.log(formatText(report), verdictOf(report), loaded.contract.versions.map((v) => v.api.collections.length));
`;

const BAD_API = `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'bad',
  versions: { v1: {} },
  collections: {
    things: collection({
      fields: {
        id: f.id(),
        size: f.int().pattern(/^1/),
        tier: f.enum(['free', 'pro']).default('gold'),
      },
    }),
  },
});
`;

let tarball: { filename: string; entryCount: number; size: number; unpackedSize: number };
let runtimeTarball: typeof tarball;
let conformanceTarball: typeof tarball;
let postgresTarball: typeof tarball;
/** What npm printed while installing the tarballs. */
let installOutput = '';

/** Packs the package in `dir` as built by `npm run build` (no script runs: a test never rebuilds what others read). */
async function pack(dir: string): Promise<typeof tarball> {
  if (!existsSync(path.join(dir, 'dist/index.js'))) throw new Error(`${dir}/dist is missing: run npm run build first (npm test does)`);
  const packed = await sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], dir);
  return (JSON.parse(packed.stdout.slice(packed.stdout.search(/^\[\s*\{/m))) as (typeof tarball)[])[0]!;
}

beforeAll(async () => {
  tarball = await pack(ROOT);
  runtimeTarball = await pack(path.join(ROOT, 'packages/runtime'));
  conformanceTarball = await pack(path.join(ROOT, 'packages/conformance'));
  postgresTarball = await pack(path.join(ROOT, 'packages/postgres'));
  const manifest = {
    name: 'packed-e2e',
    private: true,
    type: 'module',
    dependencies: {
      '@restgen/runtime': `file:${path.join(work, runtimeTarball.filename)}`,
      '@restgen/postgres': `file:${path.join(work, postgresTarball.filename)}`,
      pg: postgresFloor('pg'),
      fastify: floor('fastify'),
      '@fastify/rate-limit': floor('@fastify/rate-limit'),
      // The shop example's server reads uploads of its invoice file field.
      '@fastify/multipart': floor('@fastify/multipart'),
      jose: floor('jose'),
      zod: floor('zod'),
      '@modelcontextprotocol/sdk': floor('@modelcontextprotocol/sdk'),
      ajv: floor('ajv'),
    },
    devDependencies: {
      restgen: `file:${path.join(work, tarball.filename)}`,
      '@restgen/conformance': `file:${path.join(work, conformanceTarball.filename)}`,
      typescript: pin('typescript'),
      'typescript-native': pin('typescript-native'),
      '@types/node': pin('@types/node'),
      '@types/pg': postgresFloor('@types/pg'),
    },
  };
  mkdirSync(app);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  const install = await sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline']);
  installOutput = install.stdout + install.stderr;
}, 240_000);

describe('the packed artifact in a fresh project', () => {
  it('installs without a warning that restgen causes, and runs no install script of its own', () => {
    // npm's own notices (funding, a newer npm) are not restgen's; a warning naming restgen or its runtime is.
    const warnings = installOutput.split('\n').filter((l) => /warn/i.test(l) && /restgen/i.test(l));
    expect(warnings).toEqual([]);
    for (const pkg of ['restgen', '@restgen/runtime', '@restgen/conformance', '@restgen/postgres']) {
      const scripts =
        (JSON.parse(readFileSync(path.join(app, 'node_modules', pkg, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
      expect(
        Object.keys(scripts).filter((s) => /^(pre|post)?install$|^prepare$/.test(s)),
        pkg,
      ).toEqual([]);
    }
  });

  it('ships only what a user needs', () => {
    expect(tarball.entryCount).toBeLessThan(120);
    expect(runtimeTarball.entryCount).toBeLessThan(20);
    expect(conformanceTarball.entryCount).toBeLessThan(10);
    expect(existsSync(path.join(app, 'node_modules/@restgen/conformance/dist/index.d.ts'))).toBe(true);
    expect(postgresTarball.entryCount).toBeLessThan(12);
    expect(existsSync(path.join(app, 'node_modules/@restgen/postgres/dist/index.d.ts'))).toBe(true);
    expect(existsSync(path.join(app, 'node_modules/@restgen/runtime/dist/index.d.ts'))).toBe(true);
    const files = readFileSync(path.join(app, 'node_modules/restgen/package.json'), 'utf8');
    expect(JSON.parse(files).exports['.'].default).toBe('./dist/index.js');
    for (const absent of ['test', 'examples', 'bench', 'scripts', 'generator', '.ci'])
      expect(() => readFileSync(path.join(app, 'node_modules/restgen', absent, 'x'))).toThrow();
  });

  it('generates without @restgen/runtime: the contract it shares with the runtime is bundled into its build', () => {
    const dist = path.join(app, 'node_modules/restgen/dist');
    const imports = listFiles(dist)
      .filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'))
      .filter((f) => /from ["']@restgen\/runtime/.test(readFileSync(path.join(dist, f), 'utf8')));
    expect(imports).toEqual([]);
    // The runtime declares the entry the generator was built from.
    expect(existsSync(path.join(app, 'node_modules/@restgen/runtime/dist/contract.js'))).toBe(true);
  });

  it('imports from plain node, and prints its version', async () => {
    const { stdout } = await sh(process.execPath, [
      '--input-type=module',
      '-e',
      "const m = await import('restgen'); console.log(Object.keys(m).sort().join())",
    ]);
    expect(stdout.trim()).toBe('collection,defineApi,defineConfig,f');
    expect((await restgen('--version')).stdout.trim()).toBe(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
  });

  it('init writes a starter, and generate writes every part without asking for missing packages', async () => {
    const init = await restgen('init', '--with-config', '--name', 'todo');
    expect(init.stderr).toContain('created api.ts');
    expect(init.stderr).not.toContain('npm install');
    const generated = await sh('npm', ['run', 'generate', '--silent']);
    expect(generated.stderr).not.toMatch(/warning|error/);
    expect(generated.stderr).toContain('written');
  }, 60_000);

  it("type-checks the user's api.ts and config without @types/node, in both module modes, skipLibCheck off", async () => {
    const checks = Object.entries(MODES).map(([mode, options]) => {
      writeFileSync(
        path.join(app, `tsconfig.api.${mode}.json`),
        JSON.stringify({ compilerOptions: { ...STRICT, ...options, types: [], noEmit: true }, files: ['api.ts', 'restgen.config.ts'] }),
      );
      return tsc(`tsconfig.api.${mode}.json`);
    });
    await Promise.all(checks);
  }, 120_000);

  it('still reports the typed mistakes in an api.ts: f.int().pattern() and an enum default outside the enum', async () => {
    writeFileSync(path.join(app, 'bad-api.ts'), BAD_API);
    writeFileSync(
      path.join(app, 'tsconfig.bad.json'),
      JSON.stringify({ compilerOptions: { ...STRICT, ...MODES.nodenext, types: [], noEmit: true }, files: ['bad-api.ts'] }),
    );
    const failed = await tsc('tsconfig.bad.json', 'typescript-native').then(
      () => '',
      (e: Error) => e.message,
    );
    rmSync(path.join(app, 'bad-api.ts'));
    const at = (line: number, text: string) => `bad-api.ts(${line},${BAD_API.split('\n')[line - 1]!.indexOf(text) + 1})`;
    expect(failed).toContain(`${at(10, 'pattern')}: error TS2339: Property 'pattern' does not exist`);
    expect(failed).toContain(`${at(11, "'gold'")}: error TS2345: Argument of type '"gold"'`);
  }, 60_000);

  it('type-checks the generated code and code using it in both module modes, builds it, and check passes', async () => {
    writeFileSync(path.join(app, 'usage.ts'), USAGE);
    writeFileSync(path.join(app, 'pg-usage.ts'), PG_USAGE);
    writeFileSync(
      path.join(app, 'tsconfig.app.bundler.json'),
      JSON.stringify({ compilerOptions: { ...STRICT, ...MODES.bundler, types: ['node'], noEmit: true }, include: ['usage.ts', 'pg-usage.ts', 'generated'] }),
    );
    // The nodenext project also emits: that is the build a deployment runs.
    writeFileSync(
      path.join(app, 'tsconfig.app.nodenext.json'),
      JSON.stringify({
        compilerOptions: { ...STRICT, ...MODES.nodenext, types: ['node'], rootDir: '.', outDir: 'build' },
        include: ['usage.ts', 'pg-usage.ts', 'generated'],
      }),
    );
    await Promise.all([tsc('tsconfig.app.bundler.json', 'typescript-native'), tsc('tsconfig.app.nodenext.json', 'typescript-native')]);
    // Deploying the server: the compiled code plus the OpenAPI documents it serves, beside server/.
    cpSync(path.join(app, 'generated/openapi'), path.join(app, 'build/generated/openapi'), { recursive: true });
    const check = await restgen('check');
    expect(check.stderr).toContain('up to date');
  }, 120_000);

  it("generates this repository's example APIs byte for byte as committed, and their code and usage type-check in both module modes", async () => {
    // The examples as a user would hold them: their source and lock, no generated folder; restgen from the tarball.
    const names = ['shop', 'header-versioning', 'ledger'];
    for (const name of names) {
      const from = path.join(ROOT, 'examples', name);
      cpSync(from, path.join(app, 'examples', name), { recursive: true, filter: (source) => !source.startsWith(path.join(from, 'generated')) });
    }
    // In each example's folder: the project's restgen.config.ts would send any API's output to its own folder.
    for (const name of names) await sh(path.join(app, 'node_modules/.bin/restgen'), ['generate', 'api.ts'], path.join(app, 'examples', name));
    for (const name of names) {
      const committed = path.join(ROOT, 'examples', name, 'generated');
      const files = listFiles(committed);
      const ours = path.join(app, 'examples', name, 'generated');
      expect(listFiles(ours), name).toEqual(files);
      // Every generated file byte for byte as committed: the packed build is another restgen build than the sources
      // that generated the examples, and nothing a file holds depends on which build wrote it.
      for (const f of files) expect(readFileSync(path.join(ours, f), 'utf8'), `${name}/${f}`).toBe(readFileSync(path.join(committed, f), 'utf8'));
    }
    writeFileSync(path.join(app, 'examples/usage.ts'), EXAMPLES_USAGE);
    const projects = Object.entries(MODES).map(([mode, options]) => {
      const project = `tsconfig.examples.${mode}.json`;
      writeFileSync(
        path.join(app, project),
        JSON.stringify({
          compilerOptions: { ...STRICT, ...options, types: ['node'], noEmit: true },
          include: ['examples/usage.ts', ...names.map((n) => `examples/${n}/generated`)],
        }),
      );
      return tsc(project, 'typescript-native');
    });
    await Promise.all(projects);
  }, 120_000);

  it('another restgen version with the same output rewrites no file, and check still passes', async () => {
    const generated = path.join(app, 'generated');
    const snapshot = () =>
      new Map(listFiles(generated).map((f) => [f, `${statSync(path.join(generated, f)).mtimeMs} ${readFileSync(path.join(generated, f), 'utf8')}`]));
    const before = snapshot();
    const manifestFile = path.join(app, 'node_modules/restgen/package.json');
    const cli = path.join(app, 'node_modules/restgen/dist/cli.js');
    const [manifestText, cliText] = [readFileSync(manifestFile, 'utf8'), readFileSync(cli, 'utf8')];
    try {
      // Another release: another version, other code, the same output.
      writeFileSync(manifestFile, manifestText.replace(/"version": "[^"]+"/, '"version": "99.0.0"'));
      writeFileSync(cli, `${cliText}\n// another release\n`);
      expect((await restgen('--version')).stdout.trim()).toBe('99.0.0');
      const again = await restgen('generate');
      expect(again.stderr).toContain('up to date');
      expect(snapshot()).toEqual(before);
      expect((await restgen('check')).stderr).toContain('up to date');
    } finally {
      writeFileSync(manifestFile, manifestText);
      writeFileSync(cli, cliText);
    }
  }, 60_000);

  it('npm init -y, restgen init, restgen generate in a fresh folder: the project is ES modules and its strict tsc passes', async () => {
    // A second fresh project (npm 11's `npm init -y` writes "type": "commonjs"), on the installed packages of the first.
    const fresh = path.join(work, 'fresh');
    mkdirSync(fresh);
    symlinkSync(path.join(app, 'node_modules'), path.join(fresh, 'node_modules'), 'dir');
    await sh('npm', ['init', '-y'], fresh);
    const bin = path.join(app, 'node_modules/.bin/restgen');
    const init = await sh(bin, ['init'], fresh);
    expect(JSON.parse(readFileSync(path.join(fresh, 'package.json'), 'utf8'))).toMatchObject({ type: 'module' });
    expect(init.stderr).toMatch(/updated package\.json: "type": "module" \(it (said "commonjs"|had no "type", which means CommonJS)\)/);
    const generated = await sh(bin, ['generate'], fresh);
    expect(generated.stderr).not.toMatch(/RG220|error/);
    writeFileSync(
      path.join(fresh, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...STRICT, ...MODES.nodenext, types: ['node'], noEmit: true }, include: ['api.ts', 'generated'] }),
    );
    await sh(process.execPath, [path.join(app, 'node_modules/typescript-native/bin/tsc'), '-p', path.join(fresh, 'tsconfig.json')], fresh);
  }, 60_000);

  it('restgen conformance checks the built server with the packed @restgen/conformance, and names the package when it is missing', async () => {
    // The deployed server of the starter API, on a free port (its credential: Bearer secret).
    writeFileSync(
      path.join(app, 'build/conformance-server.js'),
      `import Fastify from 'fastify';
import { createMemoryHandlers, registerTodoApi } from './generated/server/index.js';
const app = Fastify();
await registerTodoApi(app, createMemoryHandlers(), { authenticate: async ({ token }) => (token === 'secret' ? { id: 'u1', scopes: ['tasks:read', 'tasks:write'] } : null) });
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(String(app.server.address().port) + '\\n');
`,
    );
    const server = spawn(process.execPath, ['build/conformance-server.js'], { cwd: app, env, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const port = await new Promise<string>((resolve, reject) => {
        server.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
        server.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
      });
      const argv = ['conformance', 'api.ts', '--url', `http://127.0.0.1:${port}`, '--header', 'Authorization: Bearer secret', '--format', 'json', '--quiet'];
      const checked = await restgen(...argv);
      const report = JSON.parse(checked.stdout) as { summary: { failed: number; passed: number; complete: boolean }; versions: string[] };
      expect(report.summary).toMatchObject({ failed: 0, complete: true });
      expect(report.summary.passed).toBeGreaterThan(20);
      expect(report.versions).toEqual(['v1', 'v2']);
      // The programmatic API as the package's README shows it type-checks against the packed declarations.
      writeFileSync(path.join(app, 'conformance-usage.ts'), CONFORMANCE_USAGE);
      writeFileSync(
        path.join(app, 'tsconfig.conformance.json'),
        JSON.stringify({ compilerOptions: { ...STRICT, ...MODES.nodenext, types: ['node'], noEmit: true }, files: ['conformance-usage.ts'] }),
      );
      await tsc('tsconfig.conformance.json', 'typescript-native');
      // Without the package, the command says which install adds it (exit 2), and checks nothing.
      const installed = path.join(app, 'node_modules/@restgen/conformance');
      renameSync(installed, `${installed}-away`);
      try {
        const missing = await restgen(...argv).then(
          () => ({ code: 0, stderr: '' }),
          (e: Error) => ({ code: 2, stderr: e.message }),
        );
        expect(missing.code).toBe(2);
        expect(missing.stderr).toContain(
          'restgen conformance: the checks are in the package @restgen/conformance, which is not installed; add it to your project: npm install -D @restgen/conformance@^0.1.0',
        );
      } finally {
        renameSync(`${installed}-away`, installed);
      }
    } finally {
      server.kill();
    }
  }, 60_000);

  it.runIf(postgres !== null)(
    "@restgen/postgres's bin migrates a fresh database; the built server keeps its idempotent answers there, and the event log numbers an event",
    async () => {
      db = await createTestDatabase(postgres!);
      const bin = path.join(app, 'node_modules/.bin/restgen-postgres');
      expect((await sh(bin, ['migrate', db.url])).stdout).toMatch(/^restgen tables migrated from version 0 to 2: 1 \(.*; 2 \(the event stream's log\)\n$/);
      expect((await sh(bin, ['status', db.url])).stdout).toContain('(up to date)');
      const { stdout } = await sh(process.execPath, ['build/pg-usage.js', db.url]);
      expect(JSON.parse(stdout)).toEqual({ migratedTo: 2, applied: 0, statuses: [201, 201], sameId: true, replayed: 'true', kept: { n: 1 }, logged: [1] });
    },
    60_000,
  );

  it('runs the built server without restgen installed and talks to it with the generated client', async () => {
    await sh('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error']);
    expect(() => readFileSync(path.join(app, 'node_modules/restgen/package.json'))).toThrow();
    const { stdout } = await sh(process.execPath, ['build/usage.js']);
    const result = JSON.parse(stdout) as {
      created: Record<string, unknown>;
      later: Record<string, unknown>;
      anonymous: number;
      openapi: number;
      tools: string[];
      listed: { data: Record<string, unknown>[] };
    };
    expect(result.created).toMatchObject({ name: 'Write the README', done: false });
    expect(result.created).not.toHaveProperty('title');
    expect(result.later).toMatchObject({ id: result.created['id'], title: 'Write the README', done: false });
    expect(result.anonymous).toBe(401);
    expect(result.openapi).toBe(200);
    expect(result.tools).toEqual(expect.arrayContaining(['tasks_list', 'tasks_get', 'tasks_create']));
    expect(result.listed.data).toEqual([result.later]);
  }, 60_000);
});
