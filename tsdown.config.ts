/**
 * @module The build: restgen's TypeScript sources compiled to `dist/` with tsdown (rolldown). Two bundles: the
 * declared entries with their bundled `.d.ts` files, `index` (what a user's `api.ts` and `restgen.config.ts` import:
 * the DSL and `defineConfig`) and `contract` (`restgen/contract`: an API's contract as data, which
 * `@restgen/conformance` reads); and `cli`, the command line, whose commands and heavy stages are split into chunks
 * loaded on demand. Every npm dependency stays an import, resolved from the user's installation.
 */
import { defineConfig } from 'tsdown';

const common = {
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  outDir: 'dist',
  fixedExtension: false,
  hash: false,
  sourcemap: false,
  logLevel: 'warn',
  checks: { pluginTimings: false },
  // Chunks of the CLI's lazily loaded commands and stages.
  outputOptions: { chunkFileNames: 'chunks/[name].js' },
} as const;

export default defineConfig([
  // One file: the DSL finds the user's frame in a stack by leaving out the frames of its own folder.
  { ...common, entry: { index: 'generator/dsl/index.ts' }, dts: true, clean: true },
  // The command line and restgen/contract share their chunks (the model, the OpenAPI emitter, the module loader):
  // the commands and heavy stages load on demand. The package @restgen/conformance is found where it is installed.
  {
    ...common,
    entry: { cli: 'generator/cli/main.ts', contract: 'generator/conformance/contract.ts' },
    dts: true,
    clean: false,
    deps: { neverBundle: ['@restgen/conformance'] },
  },
]);
