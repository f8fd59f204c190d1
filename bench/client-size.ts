/**
 * @module What the generated client costs in an app, against the clients users compare it with, in the same
 * run: the same three calls (`get`, `list` and `create` of the shop example's v2 customers, bearer token, no
 * OAuth, webhooks or conditional requests) through restgen's client (by its per-version entry
 * `createShopV2Client`, the one docs/guide/client-bundles.md recommends to bundle-sensitive apps, and by
 * `createShopClient`, which builds every version), openapi-fetch (with openapi-typescript's types) and
 * hey-api (client-fetch + sdk), each generated from the shop example (restgen's OpenAPI v2 document for the
 * peers), bundled with esbuild (`--bundle --minify --format=esm --platform=browser`) and gzipped at level 9.
 * Also restgen's figures with rolldown (what test/client/size.test.ts holds to the budget), and the client
 * emitter's render time for a 200-collection API. Run: `npx jiti bench/client-size.ts` (part of `npm run
 * bench`); esbuild and hey-api come from `bench/peers/`, installed there on first use. Writes into
 * `.bench/client-size/`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { rolldown } from 'rolldown';
import { emitClient } from '../generator/emit/client/emit-client.ts';
import { generate, loadModel } from '../generator/pipeline/generate.ts';
import { loadRuntime, loadTemplates } from '../generator/templates/load-templates.ts';
import { syntheticApi } from './synthetic.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PEERS = path.join(ROOT, 'bench/peers');
const WORK = path.join(ROOT, '.bench/client-size');
const HEY_CLI = path.join(PEERS, 'node_modules/@hey-api/openapi-ts/bin/run.js');
const ESBUILD = path.join(PEERS, 'node_modules/esbuild/lib/main.js');

/** The version of an installed package, by its package.json. */
const versionOf = (dir: string): string => (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;

/** Installs `bench/peers/` from its lock file when esbuild or hey-api is missing (no install scripts: esbuild's picks a binary npm already chose). */
function ensurePeers(): void {
  if (existsSync(HEY_CLI) && existsSync(ESBUILD)) return;
  console.log('installing the bench peers into bench/peers (npm ci, once)...');
  execFileSync('npm', ['ci', '--prefix', PEERS, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { stdio: 'inherit' });
}

/** The minified and the gzipped (level 9) size of `code`. */
const sizes = (code: string | Uint8Array): { min: number; gzip: number } => ({ min: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length });

interface Esbuild {
  build(options: object): Promise<{ outputFiles: { contents: Uint8Array }[] }>;
}

/** Bundles `entry` as the brief for this bench says: esbuild, minified ES module for browsers. */
async function esbuildSize(esbuild: Esbuild, entry: string): Promise<{ min: number; gzip: number }> {
  const result = await esbuild.build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'error' });
  return sizes(result.outputFiles[0]!.contents);
}

/** Bundles `entry` with rolldown (minified ES module for browsers), as the size test does. */
async function rolldownSize(entry: string): Promise<{ min: number; gzip: number }> {
  const bundle = await rolldown({ input: entry, platform: 'browser', logLevel: 'silent', resolve: { extensionAlias: { '.js': ['.ts', '.js'] } } });
  const { output } = await bundle.generate({ format: 'esm', minify: true });
  await bundle.close();
  return sizes(output[0].code);
}

const BODY = "{ email: 'ada@example.com', name: 'Ada' }";

/** The app each client is measured in: the same three calls, bearer token, nothing else. */
const APPS = {
  'restgen, createShopV2Client': [
    `import { createShopV2Client } from './shop/client/index.js';`,
    `const c = createShopV2Client({ baseUrl: 'https://api.example.com', bearer: 'TOKEN' });`,
    `await c.customers.get('1');`,
    `await c.customers.list();`,
    `await c.customers.create(${BODY});`,
  ],
  'restgen, createShopClient': [
    `import { createShopClient } from './shop/client/index.js';`,
    `const c = createShopClient({ baseUrl: 'https://api.example.com', bearer: 'TOKEN' });`,
    `await c.v2.customers.get('1');`,
    `await c.v2.customers.list();`,
    `await c.v2.customers.create(${BODY});`,
  ],
  'openapi-fetch': [
    `import createClient from 'openapi-fetch';`,
    `import type { paths } from './openapi-fetch/schema.js';`,
    `const c = createClient<paths>({ baseUrl: 'https://api.example.com', headers: { authorization: 'Bearer TOKEN' } });`,
    `await c.GET('/v2/customers/{id}', { params: { path: { id: '1' } } });`,
    `await c.GET('/v2/customers');`,
    `await c.POST('/v2/customers', { body: ${BODY} });`,
  ],
  'hey-api': [
    `import { client } from './hey-api/client.gen.js';`,
    `import { createCustomer, getCustomer, listCustomers } from './hey-api/sdk.gen.js';`,
    `client.setConfig({ baseUrl: 'https://api.example.com', auth: 'TOKEN' });`,
    `await getCustomer({ path: { id: '1' } });`,
    `await listCustomers();`,
    `await createCustomer({ body: ${BODY} });`,
  ],
} as const;

/** restgen's apps (measured with rolldown too). */
const RESTGEN = ['restgen, createShopV2Client', 'restgen, createShopClient'] as const;

const kib = (n: number): string => `${(n / 1024).toFixed(2)} KiB`;

async function main(): Promise<void> {
  ensurePeers();
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const shop = path.join(WORK, 'shop');
  const result = await generate({ apiPath: path.join(ROOT, 'examples/shop/api.ts'), outDir: shop });
  if (!result.ok) throw new Error(`generate failed: ${JSON.stringify(result.diagnostics)}`);
  const openapi = path.join(shop, 'openapi/v2.json');
  // openapi-fetch's types: they cost nothing in the bundle, but the app is written as its users write it.
  mkdirSync(path.join(WORK, 'openapi-fetch'));
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), openapi, '-o', path.join(WORK, 'openapi-fetch/schema.ts')], {
    stdio: 'ignore',
  });
  execFileSync(process.execPath, [HEY_CLI, '-i', openapi, '-o', path.join(WORK, 'hey-api'), '-p', '@hey-api/client-fetch', '@hey-api/sdk'], {
    stdio: 'ignore',
  });
  const esbuild = (await import(pathToFileURL(ESBUILD).href)) as Esbuild;
  const restgen = versionOf(ROOT);
  const versions: Record<keyof typeof APPS, string> = {
    'restgen, createShopV2Client': restgen,
    'restgen, createShopClient': restgen,
    'openapi-fetch': `${versionOf(path.join(ROOT, 'node_modules/openapi-fetch'))} + openapi-typescript ${versionOf(path.join(ROOT, 'node_modules/openapi-typescript'))}`,
    'hey-api': `@hey-api/openapi-ts ${versionOf(path.join(PEERS, 'node_modules/@hey-api/openapi-ts'))}`,
  };
  const rows: { name: keyof typeof APPS; entry: string; min: number; gzip: number }[] = [];
  for (const [i, name] of (Object.keys(APPS) as (keyof typeof APPS)[]).entries()) {
    const entry = path.join(WORK, `app-${i}.ts`);
    writeFileSync(entry, `${APPS[name].join('\n')}\n`);
    rows.push({ name, entry, ...(await esbuildSize(esbuild, entry)) });
  }
  const ours = rows[0]!;
  console.log(
    `Client size: get, list and create of one collection (the shop example's v2 customers), esbuild ${versionOf(path.join(PEERS, 'node_modules/esbuild'))} --bundle --minify --format=esm --platform=browser, gzip -9\n`,
  );
  console.log('| client | generated by | minified | min + gzip | ÷ restgen (createShopV2Client) |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${versions[r.name]} | ${r.min} B | ${r.gzip} B (${kib(r.gzip)}) | ${(r.gzip / ours.gzip).toFixed(2)}x |`);
  const rolled: string[] = [];
  for (const r of rows.filter((x) => (RESTGEN as readonly string[]).includes(x.name))) {
    const { min, gzip } = await rolldownSize(r.entry);
    rolled.push(`${r.name.replace('restgen, ', '')} ${min} B minified, ${gzip} B min + gzip`);
  }
  console.log(`\nrestgen with rolldown ${versionOf(path.join(ROOT, 'node_modules/rolldown'))} (what test/client/size.test.ts checks): ${rolled.join('; ')}`);

  writeFileSync(path.join(WORK, 'api-200.ts'), syntheticApi(200));
  const model = await loadModel(path.join(WORK, 'api-200.ts'));
  if (!model.ir) throw new Error(`synthetic API failed: ${JSON.stringify(model.diagnostics)}`);
  const { render } = loadTemplates();
  const started = performance.now();
  const files = emitClient(model.ir, { sourcePath: '../api-200.ts', render, runtime: loadRuntime() });
  const ms = performance.now() - started;
  const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.content), 0);
  console.log(`client emitter, 200 collections x 3 versions: ${files.length} files, ${kib(bytes)} unformatted, rendered in ${ms.toFixed(0)} ms`);
}

await main();
