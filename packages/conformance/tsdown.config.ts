/**
 * @module The build of `@restgen/conformance`: one entry compiled to an ES module with bundled declarations. Its
 * dependencies (ajv, fast-check) and peers stay imports; `restgen/contract` is imported for its types only.
 */
import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  outDir: 'dist',
  dts: true,
  clean: true,
  fixedExtension: false,
  hash: false,
  sourcemap: false,
  logLevel: 'warn',
  checks: { pluginTimings: false },
  deps: { neverBundle: [/^restgen(\/|$)/, /^@restgen\/runtime(\/|$)/] },
  outputOptions: { chunkFileNames: 'chunks/[name].js' },
});
