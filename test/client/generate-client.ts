/**
 * @module Test helper: an API module's generated output (this run's shared one for an example, else generated
 * into a fresh folder under `test/.tmp/`), and the generated client's type check under browser settings.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { generate } from '../../generator/pipeline/generate.ts';
import { SHOP_API } from '../helpers/load-ir.ts';
import { sharedOutput } from '../helpers/shared-output.ts';
import { listFiles, tempDir } from '../helpers/temp-api.ts';

export { listFiles };

/**
 * `apiPath` (the example by default) as restgen generates it, to read only: this run's shared output for an
 * example, else generated into a temporary folder; returns the folder and its cleanup.
 */
export async function generateInto(prefix: string, apiPath: string = SHOP_API): Promise<{ dir: string; cleanup: () => void }> {
  const shared = sharedOutput(apiPath);
  if (shared !== undefined) return { dir: shared, cleanup: () => undefined };
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
  // The configuration lives outside `dir`, which may be a shared output other tests read.
  const tmp = tempDir('client-tsconfig');
  const config = path.join(tmp.dir, 'tsconfig.json');
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
      include: [path.join(dir, 'client')],
    }),
  );
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [TSC, '-p', config]).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? String(e) }));
    return stdout;
  } finally {
    tmp.cleanup();
  }
}
