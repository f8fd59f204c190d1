import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const runtimeSource = fileURLToPath(new URL('./packages/runtime/src/', import.meta.url));
const conformanceSource = fileURLToPath(new URL('./packages/conformance/src/', import.meta.url));
const postgresSource = fileURLToPath(new URL('./packages/postgres/src/', import.meta.url));

export default defineConfig({
  // Generated servers import `@restgen/runtime` (and the PostgreSQL example `@restgen/postgres`), and `restgen
  // conformance` loads `@restgen/conformance`: in this repository's tests, their TypeScript sources (the packed
  // packages are tested as built, in test/package).
  resolve: {
    alias: [
      { find: /^@restgen\/runtime$/, replacement: `${runtimeSource}index.ts` },
      { find: /^@restgen\/runtime\/contract$/, replacement: `${runtimeSource}contract.ts` },
      { find: /^@restgen\/runtime\/jwt$/, replacement: `${runtimeSource}jwt.ts` },
      { find: /^@restgen\/runtime\/otel$/, replacement: `${runtimeSource}otel.ts` },
      { find: /^@restgen\/conformance$/, replacement: `${conformanceSource}index.ts` },
      { find: /^@restgen\/postgres$/, replacement: `${postgresSource}index.ts` },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Generates the examples the tests share, once per run (test/helpers/shared-output.ts).
    globalSetup: ['test/global-setup.ts'],
    maxWorkers: Number(process.env['VITEST_MAX_WORKERS'] ?? 2),
    // A worker runs its test files one after another in one module graph: the generator's modules are imported and
    // compiled once per worker, not once per file (a third of the suite's time). So a test file restores what it
    // changes outside itself: timers through test/helpers/clock.ts, spies with vi.restoreAllMocks, the environment.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
