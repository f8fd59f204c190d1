/**
 * @module Test helper: runs restgen's whole pipeline for the example into a fresh folder under
 * `test/.tmp/` and gives the OpenAPI documents and zod schema modules it wrote, per version; and the
 * ajv-formats plugin, typed.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import type { ApiIR } from '../../generator/model/ir.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { loadIr, SHOP_API } from '../helpers/load-ir.ts';
import { ownCopy, sharedOutput } from '../helpers/shared-output.ts';
import { tempDir } from '../helpers/temp-api.ts';

// ajv-formats is CommonJS: under `module: nodenext` its default import is `module.exports`, whose
// `default` is the plugin; a loader that unwraps it already gives the plugin itself.
type FormatsPlugin = (ajv: Ajv2020) => unknown;
/** ajv-formats' plugin: adds `email`, `uuid`, `date-time`, ... to an ajv instance. */
export const addFormats: FormatsPlugin = (formatsModule as unknown as { default?: FormatsPlugin }).default ?? (formatsModule as unknown as FormatsPlugin);

/** An OpenAPI document, as parsed JSON (tests narrow what they read). */
export type OpenApiDoc = Record<string, unknown> & {
  readonly info: Record<string, unknown>;
  readonly paths: Record<string, Record<string, Record<string, unknown>>>;
  readonly components: { readonly schemas: Record<string, unknown> } & Record<string, Record<string, unknown>>;
};

/** What one generation of the example produced. */
export interface GeneratedExample {
  readonly dir: string;
  readonly ir: ApiIR;
  readonly versions: readonly string[];
  /** `openapi/<v>.json`, as written. */
  readonly docPath: (version: string) => string;
  readonly doc: (version: string) => OpenApiDoc;
  /** The exports of `<v>/schemas.ts` (the zod schemas), imported from the written file. */
  readonly zod: (version: string) => Promise<Record<string, unknown>>;
  readonly cleanup: () => void;
}

/**
 * The example (or `apiPath`) as restgen generates it: this run's shared output when `apiPath` is one (read only;
 * `writable` gives a copy of the test's own instead), else generated into `test/.tmp/<prefix>-*`.
 */
export async function generateExample(prefix: string, apiPath: string = SHOP_API, { writable = false } = {}): Promise<GeneratedExample> {
  const shared = writable ? ownCopy(prefix, apiPath) : sharedOutput(apiPath);
  const { dir, ir, cleanup } =
    shared === undefined
      ? await generateFresh(prefix, apiPath)
      : { dir: shared, ir: await loadIr(apiPath), cleanup: writable ? () => rmSync(shared, { recursive: true, force: true }) : () => undefined };
  const docPath = (v: string) => path.join(dir, 'openapi', `${v}.json`);
  return {
    dir,
    ir,
    versions: ir.versions.map((v) => v.name),
    docPath,
    doc: (v) => JSON.parse(readFileSync(docPath(v), 'utf8')) as OpenApiDoc,
    zod: async (v) => (await import(pathToFileURL(path.join(dir, v, 'schemas.ts')).href)) as Record<string, unknown>,
    cleanup,
  };
}

/** Generates `apiPath` into a fresh folder under `test/.tmp/`. */
async function generateFresh(prefix: string, apiPath: string): Promise<{ dir: string; ir: ApiIR; cleanup: () => void }> {
  const tmp = tempDir(prefix);
  const result = await generate({ apiPath, outDir: tmp.dir });
  expect(result.diagnostics).toEqual([]);
  expect(result.ok).toBe(true);
  return { dir: tmp.dir, ir: result.ir!, cleanup: tmp.cleanup };
}
