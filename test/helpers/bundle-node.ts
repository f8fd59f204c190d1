/**
 * @module Test helper: a TypeScript entry bundled (rolldown) into one ES module that plain `node` runs, for tests
 * that start it as a child process. Starting a child through a TypeScript loader compiles the runtime's sources in
 * every child (seconds each); the bundle is built once per test file and starts like any script. `@restgen/runtime`
 * and `@restgen/postgres` are this repository's sources (as vitest resolves them), packages stay imports that node resolves from
 * `node_modules`, and each module keeps its own `import.meta.url` (a generated server reads its OpenAPI documents
 * beside itself; a script's "am I the main module" check must not fire inside the bundle).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';

const ROOT = new URL('../../', import.meta.url).pathname;
const RUNTIME = path.join(ROOT, 'packages/runtime/src');
const POSTGRES = path.join(ROOT, 'packages/postgres/src');
const OUT = path.join(ROOT, 'test/.tmp/bundles');

/** A specifier node resolves from node_modules itself: a package name or `node:` builtin, not a path. */
const isPackage = (spec: string): boolean => !spec.startsWith('.') && !path.isAbsolute(spec) && !spec.startsWith('@restgen/');

/** Bundles `entry` into `test/.tmp/bundles/<name>.mjs` and returns that file's path. */
export async function bundleForNode(entry: string, name: string): Promise<string> {
  mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `${name}.mjs`);
  const bundle = await rolldown({
    input: entry,
    platform: 'node',
    logLevel: 'silent',
    external: isPackage,
    resolve: {
      alias: {
        '@restgen/runtime/contract': path.join(RUNTIME, 'contract.ts'),
        '@restgen/runtime/jwt': path.join(RUNTIME, 'jwt.ts'),
        '@restgen/runtime': path.join(RUNTIME, 'index.ts'),
        '@restgen/postgres': path.join(POSTGRES, 'index.ts'),
      },
      // Sources import `./x.js` for `./x.ts`.
      extensionAlias: { '.js': ['.ts', '.js'] },
    },
    plugins: [
      {
        name: 'own-import-meta-url',
        transform(code, id) {
          return code.includes('import.meta.url') ? code.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(id).href)) : null;
        },
      },
    ],
  });
  try {
    await bundle.write({ file, format: 'esm' });
  } finally {
    await bundle.close();
  }
  return file;
}
