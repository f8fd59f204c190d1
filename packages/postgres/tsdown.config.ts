/**
 * @module The build of `@restgen/postgres`: the stores (`.`) and the migration's command line (`cli`, the package's
 * `restgen-postgres` bin), compiled to ES modules with bundled declarations. `pg` and `@restgen/runtime` stay
 * imports, resolved from the user's installation.
 */
import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
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
  outputOptions: { chunkFileNames: 'chunks/[name].js' },
});
