/**
 * The output folder writer's contract with a second run on the same folder (`--watch` and a manual `generate`,
 * two terminals): a file or folder the other run already removed is not an error. The race itself is shown
 * with two real processes; the contract is pinned by calling `applyPlan` on what the other run left.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../generator/write/output-folder.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('apply-plan');
afterAll(tmp.cleanup);
const BIN = new URL('../../bin/restgen.js', import.meta.url).pathname;

describe('applyPlan', () => {
  it('removes what is still there when another run already removed some of the files and emptied folders', async () => {
    const dir = path.join(tmp.dir, 'gone');
    writeFiles(dir, { 'v3/a.ts': 'a', 'v3/b.ts': 'b', 'v4/c.ts': 'c', 'keep.ts': 'k' });
    // The other run removed a.ts, and all of v4/ with the folder.
    await applyPlan(dir, [], ['v4/c.ts']);
    await applyPlan(dir, [], ['v3/a.ts']);
    await expect(applyPlan(dir, [{ path: 'keep.ts', content: 'k2' }], ['v3/a.ts', 'v3/b.ts', 'v4/c.ts'])).resolves.toBeUndefined();
    expect(existsSync(path.join(dir, 'v3'))).toBe(false);
    expect(existsSync(path.join(dir, 'keep.ts'))).toBe(true);
  });
});

describe('two generate runs at once', () => {
  it('both succeed when a change removes files (each used to fail on the files the other removed first)', async () => {
    const dir = path.join(tmp.dir, 'race');
    const api = (versions: string) => `import { collection, defineApi, f } from 'restgen';
export default defineApi({ name: 'race', versions: { ${versions} }, collections: { notes: collection({ fields: { id: f.id(), title: f.string() } }) } });
`;
    const run = () => promisify(execFile)(process.execPath, [BIN, '-q', 'generate'], { cwd: dir }).then(() => 0, (e: { code: number; stderr: string }) => `${e.code} ${e.stderr}`);
    for (let round = 0; round < 4; round++) {
      writeFiles(dir, { 'api.ts': api('v1: {}, v2: {}, v3: {}, v4: {}') });
      expect(await run()).toBe(0);
      writeFiles(dir, { 'api.ts': api('v1: {}') });
      expect(await Promise.all([run(), run()])).toEqual([0, 0]);
    }
  }, 120_000);
});
