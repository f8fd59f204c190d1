/**
 * Defects the 2026-11-23 audit of the generator found outside the files it could change (the loader, the model
 * and `commands/generate.ts`), fixed by the lead afterwards: each test states the behaviour a user depends on
 * and failed before its fix (they were committed as `it.fails` first).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles, tempDir, writeFiles } from '../helpers/temp-api.ts';
import { runBin } from './run-cli.ts';

const tmp = tempDir('open-defects');
afterAll(tmp.cleanup);

const restgen = runBin;

describe('audit defects outside the audited files', () => {
  // The loader records the API's own files as inputs, but not the packages they import: a package that holds
  // shared field definitions (a workspace package, a company's constants) can change without any recorded input
  // changing, and the record of the last run then answered "up to date".
  it('check finds the output stale when a package the API module imports changed', async () => {
    const dir = path.join(tmp.dir, 'package-input');
    writeFiles(dir, {
      'node_modules/acme-limits/package.json': '{ "name": "acme-limits", "version": "1.0.0", "type": "module", "main": "index.js" }\n',
      'node_modules/acme-limits/index.js': 'export const maxTitle = 100;\n',
      'api.ts': `import { collection, defineApi, f } from 'restgen';
import { maxTitle } from 'acme-limits';
export default defineApi({ name: 'limits', versions: { v1: {} }, collections: { notes: collection({ fields: { id: f.id(), title: f.string().max(maxTitle) } }) } });
`,
    });
    expect((await restgen(dir, 'generate')).code).toBe(0);
    writeFileSync(path.join(dir, 'node_modules/acme-limits/index.js'), 'export const maxTitle = 80;\n');
    const check = await restgen(dir, 'check');
    expect(check.err).toContain('out of date');
    expect(check.code).toBe(1);
  });

  // On macOS and Windows (case-insensitive file systems) two collections whose keys differ only in case write
  // one file: the second overwrites the first, the server imports a file that is not what it expects, and check
  // finds one of them stale after every generate. The output committed on Linux breaks in such a checkout.
  it('collections whose generated file names differ only in case are a diagnostic, and nothing is written', async () => {
    const dir = path.join(tmp.dir, 'case-names');
    writeFiles(dir, {
      'api.ts': `import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'cased',
  versions: { v1: {} },
  collections: {
    notes: collection({ fields: { id: f.id(), title: f.string() } }),
    Notes: collection({ path: 'archived-notes', fields: { id: f.id(), title: f.string() } }),
  },
});
`,
    });
    const run = await restgen(dir, 'generate');
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/api\.ts:7:\d+: error RG\d+ .*notes/);
    expect(listFiles(dir)).toEqual(['api.ts']);
  });

  // `--accept-breaking [reason]` takes an optional value, so the module path after it becomes the reason, and the
  // run uses api.ts in the working folder (or the config's api) instead of the module named.
  it('generate --accept-breaking src/api.ts accepts the break of src/api.ts, not a reason "src/api.ts"', async () => {
    const dir = path.join(tmp.dir, 'accept-path');
    const api = (max: number) => `import { collection, defineApi, f } from 'restgen';
export default defineApi({ name: 'accepted', versions: { v1: { released: '2026-01-01' } }, collections: { notes: collection({ fields: { id: f.id(), title: f.string().max(${max}) } }) } });
`;
    writeFiles(dir, { 'src/api.ts': api(100) });
    expect((await restgen(dir, 'generate', 'src/api.ts')).code).toBe(0);
    writeFiles(dir, { 'src/api.ts': api(50) });
    const run = await restgen(dir, 'generate', '--accept-breaking', 'src/api.ts');
    expect(run.code).toBe(0);
    expect(readFileSync(path.join(dir, 'src/restgen.lock.json'), 'utf8')).not.toContain('"reason": "src/api.ts"');
  });
});
