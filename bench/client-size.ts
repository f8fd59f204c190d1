/**
 * @module Measures the generated client: the example API bundled and minified with rolldown (what a browser
 * app pays), the same for a synthetic 20-collection API, and the unformatted bytes and render time of the
 * client emitter for a 200-collection API (what prettier must format). Run: `npx jiti bench/client-size.ts`.
 * Writes into `.bench/client-size/`.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { rolldown } from 'rolldown';
import { emitClient } from '../generator/emit/client/emit-client.ts';
import { generate, loadModel } from '../generator/pipeline/generate.ts';
import { loadRuntime, loadTemplates } from '../generator/templates/load-templates.ts';
import { syntheticApi } from './synthetic.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const work = path.join(root, '.bench/client-size');
const kb = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;

/** Bundles `entry` as a minified ES module for browsers; its size in bytes and gzipped. */
async function bundleSize(entry: string): Promise<{ bytes: number; gzip: number }> {
  const bundle = await rolldown({
    input: entry,
    platform: 'browser',
    logLevel: 'silent',
    // Generated imports name the emitted `.js`; the sources are `.ts`.
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
  });
  const { output } = await bundle.generate({ format: 'esm', minify: true });
  await bundle.close();
  const code = output[0].code;
  return { bytes: Buffer.byteLength(code), gzip: gzipSync(code).length };
}

/** Generates `apiPath` into `outDir` and measures its client: formatted sources and the minified bundle. */
async function measure(label: string, apiPath: string, outDir: string): Promise<void> {
  const result = await generate({ apiPath, outDir });
  if (!result.ok) throw new Error(`generate failed: ${JSON.stringify(result.diagnostics)}`);
  const client = path.join(outDir, 'client');
  const sources = readdirSync(client, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((n, e) => n + readFileSync(path.join(e.parentPath, e.name)).length, 0);
  const min = await bundleSize(path.join(client, 'index.ts'));
  console.log(`| ${label} | ${kb(sources)} | ${kb(min.bytes)} (${min.bytes} B) | ${kb(min.gzip)} (${min.gzip} B) |`);
}

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
console.log('| API | client/ sources (formatted TS) | bundled + minified (rolldown) | gzip |');
console.log('|---|---|---|---|');
await measure('examples/shop (3 collections, 3 versions)', path.join(root, 'examples/shop/api.ts'), path.join(work, 'shop'));
writeFileSync(path.join(work, 'api-20.ts'), syntheticApi(20));
await measure('synthetic, 20 collections, 3 versions', path.join(work, 'api-20.ts'), path.join(work, 'out-20'));

writeFileSync(path.join(work, 'api-200.ts'), syntheticApi(200));
const model = await loadModel(path.join(work, 'api-200.ts'));
if (!model.ir) throw new Error(`synthetic API failed: ${JSON.stringify(model.diagnostics)}`);
const { render } = loadTemplates();
const started = performance.now();
const files = emitClient(model.ir, { sourcePath: '../api-200.ts', render, runtime: loadRuntime() });
const ms = performance.now() - started;
const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.content), 0);
console.log(`\nclient emitter, 200 collections x 3 versions: ${files.length} files, ${kb(bytes)} unformatted, rendered in ${ms.toFixed(0)} ms`);
