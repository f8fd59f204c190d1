/**
 * @module `npm run build`: restgen (`dist/`, `tsdown.config.ts`), `@restgen/runtime` (`packages/runtime/dist/`),
 * `@restgen/conformance` (`packages/conformance/dist/`) and `@restgen/postgres` (`packages/postgres/dist/`), each with
 * its own config, through tsdown's API; `jiti scripts/build.ts restgen` (or `runtime`, `conformance`, `postgres`)
 * builds one (each package's `prepack`). tsdown's command line prints on every run under Node 20 that Node 20 is
 * deprecated and that a later tsdown drops it; restgen supports Node 20.19 and later, and pins a tsdown that builds on
 * it, so the build says nothing unless something is wrong. It runs from the repository's root whichever folder it is
 * started in: tsdown reads and compiles its config relative to the working folder.
 */
import { fileURLToPath } from 'node:url';

// In this order: the conformance package's declarations refer to restgen's and the runtime's.
const PACKAGES = { restgen: '.', runtime: 'packages/runtime', conformance: 'packages/conformance', postgres: 'packages/postgres' } as const;
type Package = keyof typeof PACKAGES;

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in PACKAGES));
if (unknown.length > 0) {
  process.stderr.write(`build: unknown package ${unknown.join(', ')}; name restgen, runtime, conformance, postgres, or none (all).\n`);
  process.exit(2);
}
process.chdir(fileURLToPath(new URL('../', import.meta.url)));
// Imported after the change of folder: tsdown resolves its config loader's paths from it.
const { build } = await import('tsdown');
for (const name of Object.keys(PACKAGES) as Package[]) if (asked.length === 0 || asked.includes(name)) await build({ cwd: PACKAGES[name], logLevel: 'warn' });
