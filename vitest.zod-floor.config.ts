/**
 * The runtime against the oldest zod its peer range (`^4.0.0`) allows: the tests whose outcome depends on zod's
 * internals (the fast paths, differentially against zod's own parse; the key tree; older data) and the generated
 * server end to end, with `zod` resolved to the `zod-4.0` devDependency (npm:zod@4.0.0) instead of the newest. The
 * newest is what `vitest run` uses. Part of npm test (`npm run test:zod-floor`).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

const floor = fileURLToPath(new URL('./node_modules/zod-4.0/', import.meta.url));
const aliases = Array.isArray(base.resolve?.alias) ? base.resolve.alias : [];

// Spread rather than merged: vitest's mergeConfig would add these files to the base's whole suite.
export default defineConfig({
  ...base,
  resolve: { ...base.resolve, alias: [...aliases, { find: /^zod(\/.*)?$/, replacement: `${floor}$1` }] },
  test: {
    ...base.test,
    include: [
      'test/runtime/checked-read.test.ts',
      'test/runtime/json-text.test.ts',
      'test/runtime/string-checks.test.ts',
      'test/runtime/compiled-writer.test.ts',
      'test/runtime/down-text.test.ts',
      'test/runtime/shape.test.ts',
      'test/runtime/etag.test.ts',
      'test/runtime/older-data.test.ts',
      'test/server/statuses.test.ts',
      'test/server/versions.test.ts',
      'test/server/property.test.ts',
    ],
  },
});
