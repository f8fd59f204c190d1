/**
 * @module The examples (and the attack suite's vault fixture) generated once per test run, by the global setup
 * (`test/global-setup.ts`), into `test/.tmp/shared/<name>/`: every test that only reads a generated API (imports
 * its server, client or schemas, reads its OpenAPI documents) uses that folder instead of generating its own. A
 * test that writes into the output (a tsconfig, a usage file) takes its own copy with {@link ownCopy}.
 */
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { generate } from '../../generator/pipeline/generate.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
/** Where the shared outputs are. */
const SHARED_ROOT = path.join(ROOT, 'test/.tmp/shared');
/** Where the copies of {@link ownCopy} go: as deep as the shared outputs, so paths relative to the API module stay alike. */
const COPIES_ROOT = path.join(ROOT, 'test/.tmp/copies');

/** The APIs generated once per run, by name. */
export const SHARED_APIS: Readonly<Record<string, string>> = {
  shop: path.join(ROOT, 'examples/shop/api.ts'),
  'header-versioning': path.join(ROOT, 'examples/header-versioning/api.ts'),
  ledger: path.join(ROOT, 'examples/ledger/api.ts'),
  vault: path.join(ROOT, 'test/attack/fixtures/vault.ts'),
};

const nameOf = (apiPath: string): string | undefined => Object.keys(SHARED_APIS).find((name) => SHARED_APIS[name] === path.resolve(apiPath));

/**
 * Generates every shared API into its folder (the global setup runs this once, before any test file). `generate`
 * rewrites only what changed, so a folder of an earlier run is brought up to date, not rebuilt.
 */
export async function generateShared(): Promise<void> {
  for (const [name, apiPath] of Object.entries(SHARED_APIS)) {
    const result = await generate({ apiPath, outDir: path.join(SHARED_ROOT, name) });
    if (!result.ok) throw new Error(`generating ${apiPath} for the tests failed: ${JSON.stringify(result.diagnostics)}`);
  }
}

/**
 * This run's output of `apiPath`, to read only (other test files read it at the same time), or undefined when
 * `apiPath` is not one of {@link SHARED_APIS}.
 */
export function sharedOutput(apiPath: string): string | undefined {
  const name = nameOf(apiPath);
  if (name === undefined) return undefined;
  const dir = path.join(SHARED_ROOT, name);
  if (!existsSync(path.join(dir, 'CHANGES.md')))
    throw new Error(`${dir} is missing: the global setup (test/global-setup.ts, named in vitest.config.ts) generates it`);
  return dir;
}

/**
 * A copy of this run's output of a shared API in `test/.tmp/copies/<name>` (replaced if it exists), for a test
 * that writes into it; undefined when `apiPath` is not shared. `name` must be unique among the test files.
 */
export function ownCopy(name: string, apiPath: string): string | undefined {
  const shared = sharedOutput(apiPath);
  if (shared === undefined) return undefined;
  const dir = path.join(COPIES_ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(COPIES_ROOT, { recursive: true });
  cpSync(shared, dir, { recursive: true });
  return dir;
}
