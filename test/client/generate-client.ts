/**
 * @module Test helper: runs restgen's whole pipeline for an API module into a fresh folder under
 * `test/.tmp/`.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { generate } from '../../generator/pipeline/generate.ts';
import { SHOP_API } from '../helpers/load-ir.ts';
import { listFiles, tempDir } from '../helpers/temp-api.ts';

export { listFiles };

/** Generates `apiPath` (the example by default) into a temporary folder; returns it and its cleanup. */
export async function generateInto(prefix: string, apiPath: string = SHOP_API): Promise<{ dir: string; cleanup: () => void }> {
  const tmp = tempDir(prefix);
  const result = await generate({ apiPath, outDir: tmp.dir });
  expect(result.diagnostics).toEqual([]);
  expect(result.ok).toBe(true);
  return tmp;
}

const TSC = new URL('../../node_modules/typescript-native/bin/tsc', import.meta.url).pathname;

/**
 * Type-checks `<dir>/client` on its own, as a user publishing it would: browser libraries only (no Node
 * types), strict, `module: nodenext`, `noUnusedLocals`, `exactOptionalPropertyTypes`. Resolves to tsc's output.
 */
export async function typeCheckClient(dir: string): Promise<string> {
  const config = path.join(dir, 'tsconfig.client.json');
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['es2022', 'dom', 'dom.iterable', 'dom.asynciterable'],
        types: [],
        strict: true,
        noUnusedLocals: true,
        noUnusedParameters: true,
        noImplicitOverride: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        verbatimModuleSyntax: true,
        noEmit: true,
      },
      include: ['client'],
    }),
  );
  const { stdout } = await promisify(execFile)(process.execPath, [TSC, '-p', config]).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? String(e) }));
  return stdout;
}
