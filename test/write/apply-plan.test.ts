/**
 * The output folder writer's contracts: with a second run on the same folder (`--watch` and a manual
 * `generate`, two terminals) a file or folder the other run already removed is not an error (the race itself
 * is shown with two real processes; the contract is pinned by calling `applyPlan` on what the other run left);
 * a user's symbolic link at a generated path is kept.
 */
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPlan, sameBytes } from '../../generator/write/output-folder.ts';
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

  it('writes a file given in pieces as the pieces one after the other, and tells such a file from others', async () => {
    const dir = path.join(tmp.dir, 'pieces');
    // A header, then a body of several megabytes with multi-byte characters (one piece each, never joined).
    const pieces = [Buffer.from('// héader\n'), Buffer.from('ü'.repeat(3_000_000)), Buffer.from('')];
    await applyPlan(dir, [{ path: 'big.ts', content: pieces }], []);
    const written = readFileSync(path.join(dir, 'big.ts'));
    expect(written.equals(Buffer.concat(pieces))).toBe(true);
    expect(sameBytes(written, pieces)).toBe(true);
    expect(sameBytes(written, [Buffer.concat(pieces)])).toBe(true);
    expect(sameBytes(written, pieces.slice(0, 1))).toBe(false);
    expect(sameBytes(written, [...pieces, Buffer.from('x')])).toBe(false);
    expect(sameBytes(written, [Buffer.from('// hëader\n'), pieces[1]!])).toBe(false);
  });
});

describe('two generate runs at once', () => {
  it('both succeed when a change removes files (each used to fail on the files the other removed first)', async () => {
    const dir = path.join(tmp.dir, 'race');
    const api = (versions: string) => `import { collection, defineApi, f } from 'restgen';
export default defineApi({ name: 'race', versions: { ${versions} }, collections: { notes: collection({ fields: { id: f.id(), title: f.string() } }) } });
`;
    const run = () =>
      promisify(execFile)(process.execPath, [BIN, '-q', 'generate'], { cwd: dir }).then(
        () => 0,
        (e: { code: number; stderr: string }) => `${e.code} ${e.stderr}`,
      );
    for (let round = 0; round < 4; round++) {
      writeFiles(dir, { 'api.ts': api('v1: {}, v2: {}, v3: {}, v4: {}') });
      expect(await run()).toBe(0);
      writeFiles(dir, { 'api.ts': api('v1: {}') });
      expect(await Promise.all([run(), run()])).toEqual([0, 0]);
    }
  }, 120_000);
});

describe('a symbolic link at a generated path', () => {
  it('is kept, and the generated file it leads to is updated', async () => {
    const dir = path.join(tmp.dir, 'linked');
    writeFiles(dir, {
      'api.ts': `import { collection, defineApi, f } from 'restgen';
export default defineApi({ name: 'linked', versions: { v1: {} }, collections: { notes: collection({ fields: { id: f.id(), title: f.string() } }) } });
`,
    });
    const generate = () => promisify(execFile)(process.execPath, [BIN, '-q', 'generate'], { cwd: dir });
    await generate();
    // The user keeps the changelog in docs/ and links it from the output folder.
    mkdirSync(path.join(dir, 'docs'));
    renameSync(path.join(dir, 'generated/CHANGES.md'), path.join(dir, 'docs/CHANGES.md'));
    symlinkSync('../docs/CHANGES.md', path.join(dir, 'generated/CHANGES.md'));
    writeFileSync(path.join(dir, 'api.ts'), readFileSync(path.join(dir, 'api.ts'), 'utf8').replace('v1: {}', 'v1: {}, v2: {}'));
    await generate();
    expect(lstatSync(path.join(dir, 'generated/CHANGES.md')).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(dir, 'docs/CHANGES.md'), 'utf8')).toContain('v2');
    await expect(promisify(execFile)(process.execPath, [BIN, '-q', 'check'], { cwd: dir })).resolves.toBeDefined();
  });
});
