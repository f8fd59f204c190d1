import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const runtimeSource = fileURLToPath(new URL('./packages/runtime/src/', import.meta.url));

export default defineConfig({
  // Generated servers import `@restgen/runtime`: in this repository's tests, its TypeScript sources (the packed
  // packages are tested as built, in test/package).
  resolve: {
    alias: [
      { find: /^@restgen\/runtime$/, replacement: `${runtimeSource}index.ts` },
      { find: /^@restgen\/runtime\/jwt$/, replacement: `${runtimeSource}jwt.ts` },
      { find: /^@restgen\/runtime\/otel$/, replacement: `${runtimeSource}otel.ts` },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // Generates the examples the tests share, once per run (test/helpers/shared-output.ts).
    globalSetup: ['test/global-setup.ts'],
    maxWorkers: Number(process.env['VITEST_MAX_WORKERS'] ?? 2),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
