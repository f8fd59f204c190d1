/**
 * @module The build of `@restgen/runtime`: four entries, `.` (everything a generated server imports), `./contract`
 * (the facts restgen's generator reads too: data and types only, see `src/contract.ts`), `./jwt`
 * (the JWT verifier, the only module that imports jose) and `./otel` (the OpenTelemetry adapter of
 * `onVersionUse`, the only module that imports @opentelemetry/api), compiled to ES modules with bundled declarations.
 * Every peer dependency stays an import, resolved from the user's installation.
 */
import { defineConfig } from 'tsdown';

export default defineConfig({
  entry: { index: 'src/index.ts', contract: 'src/contract.ts', jwt: 'src/jwt.ts', otel: 'src/otel.ts' },
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
