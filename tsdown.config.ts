/**
 * @module The build: restgen's TypeScript sources compiled to `dist/` with tsdown (rolldown). Two bundles: `index`,
 * what a user's `api.ts` and `restgen.config.ts` import (the DSL and `defineConfig`, with one bundled `.d.ts`); and
 * the command line `cli` with `contract` (`restgen/contract`: an API's contract as data, which
 * `@restgen/conformance` reads, with its bundled `.d.ts`), whose commands and heavy stages are split into chunks they
 * share, loaded on demand. Every npm dependency stays an import, resolved from the user's installation, except
 * `@restgen/runtime/contract`: the facts the generator shares with the runtime (operations, webhook limits, the
 * contract number; data only) are bundled from the runtime's sources, so restgen needs no runtime installed to
 * generate and always writes the contract it was built with (`generate` warns, RG219, when the project's runtime
 * implements another).
 */
import { fileURLToPath } from 'node:url';
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
  alias: { '@restgen/runtime/contract': fileURLToPath(new URL('./packages/runtime/src/contract.ts', import.meta.url)) },
} as const;

export default defineConfig([
  // One file: the DSL finds the user's frame in a stack by leaving out the frames of its own folder.
  { ...common, entry: { index: 'generator/dsl/index.ts' }, dts: true, clean: true, deps: { alwaysBundle: '@restgen/runtime/contract' } },
  // `restgen conformance` loads @restgen/conformance where it is installed: never part of restgen's build.
  {
    ...common,
    entry: { cli: 'generator/cli/main.ts', contract: 'generator/conformance/contract.ts' },
    dts: true,
    clean: false,
    deps: { alwaysBundle: '@restgen/runtime/contract', neverBundle: ['@restgen/conformance'] },
  },
]);
