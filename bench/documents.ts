/**
 * @module The size of the OpenAPI documents restgen writes: the shop example's v3 document and the newest document
 * of the 200-collection synthetic API, as written by default (HEAD and OPTIONS left out) and with
 * `openapi: { implicitMethods: true }` (HEAD beside every GET, OPTIONS on every path, as documents declared them
 * before the option existed). Bytes and lines of the files as written; sizes are deterministic, not timings.
 * Run: `npx jiti bench/documents.ts`.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../generator/pipeline/generate.ts';
import { syntheticApi } from './synthetic.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const work = path.join(root, '.bench/documents');
rmSync(work, { recursive: true, force: true });

/** An API module that is `base` (a module path) with `implicitMethods` set. */
const withImplicit = (base: string): string =>
  `import { type ApiOptions, defineApi } from 'restgen';\nimport api from ${JSON.stringify(base)};\nexport default defineApi({ ...(api.options as ApiOptions<string>), openapi: { implicitMethods: true } });\n`;

/** Bytes and lines of `version`'s document of the API module `apiPath`, generated into `dir`. */
async function sizeOf(apiPath: string, dir: string, version: string): Promise<{ bytes: number; lines: number }> {
  const result = await generate({ apiPath, outDir: dir, parts: ['openapi'] });
  if (!result.ok) throw new Error(`generate failed: ${JSON.stringify(result.diagnostics)}`);
  const text = readFileSync(path.join(dir, 'openapi', `${version}.json`), 'utf8');
  return { bytes: Buffer.byteLength(text), lines: text.split('\n').length - 1 };
}

// Each module in a folder of its own: restgen keeps an API's lock beside its module.
mkdirSync(path.join(work, 'synthetic'), { recursive: true });
const synthetic = path.join(work, 'synthetic', 'api.ts');
writeFileSync(synthetic, syntheticApi(200));
const apis = [
  ['shop example, v3', path.join(root, 'examples/shop/api.ts'), 'v3'],
  ['synthetic API of 200 collections, v3', synthetic, 'v3'],
] as const;

const fmt = (n: number): string => n.toLocaleString('en');
console.log('OpenAPI document size, as written (bytes / lines)\n');
console.log('| document | default (no HEAD, OPTIONS) | with implicitMethods | default ÷ with |\n|---|---|---|---|');
for (const [name, apiPath, version] of apis) {
  const slug = name.replace(/\W+/g, '-');
  const implicitModule = path.join(work, `${slug}-implicit`, 'api.ts');
  mkdirSync(path.dirname(implicitModule), { recursive: true });
  writeFileSync(implicitModule, withImplicit(apiPath));
  const lean = await sizeOf(apiPath, path.join(work, slug, 'generated'), version);
  const full = await sizeOf(implicitModule, path.join(work, `${slug}-implicit`, 'generated'), version);
  console.log(
    `| ${name} | ${fmt(lean.bytes)} B / ${fmt(lean.lines)} | ${fmt(full.bytes)} B / ${fmt(full.lines)} | ${(lean.bytes / full.bytes).toFixed(2)} / ${(lean.lines / full.lines).toFixed(2)} |`,
  );
}
rmSync(work, { recursive: true, force: true });
