/**
 * `restgen generate --watch`: a real child process that regenerates after an edit of the API module.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('watch');
afterAll(tmp.cleanup);
const BIN = new URL('../../bin/restgen.js', import.meta.url).pathname;
const api = (max: number) => `import { collection, defineApi, f } from 'restgen';
export default defineApi({ name: 'w', versions: { v1: {} }, collections: { items: collection({ fields: { id: f.id(), name: f.string().max(${max}) } }) } });
`;

it('regenerates when the API module changes, and reports a DSL error without dying', async () => {
  writeFiles(tmp.dir, { 'api.ts': api(10) });
  const child = spawn(process.execPath, [BIN, 'generate', '--watch'], { cwd: tmp.dir });
  let log = '';
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const until = async (text: string, after = 0): Promise<void> => {
    const started = Date.now();
    while (!log.slice(after).includes(text)) {
      if (Date.now() - started > 15_000) throw new Error(`timed out waiting for "${text}"; log:\n${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  try {
    await until('watching');
    let mark = log.length;
    writeFileSync(path.join(tmp.dir, 'api.ts'), api(20));
    await until(' written, ', mark);
    expect(readFileSync(path.join(tmp.dir, 'generated/v1/items.ts'), 'utf8')).toContain('max(20)');
    mark = log.length;
    writeFileSync(path.join(tmp.dir, 'api.ts'), api(-1));
    await until('RG132', mark);
    expect(readFileSync(path.join(tmp.dir, 'generated/v1/items.ts'), 'utf8')).toContain('max(20)');
    mark = log.length;
    writeFileSync(path.join(tmp.dir, 'api.ts'), api(30));
    await until(' written, ', mark);
    expect(child.exitCode).toBeNull();
  } finally {
    child.kill('SIGINT');
  }
});
