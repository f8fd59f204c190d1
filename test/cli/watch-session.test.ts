/**
 * `restgen generate --watch` as users run it (a real child process keeping one session): after each edit, its
 * output folder and lock are byte for byte what a fresh `restgen generate` writes for the same API
 * in another folder, and `--debug` reports that unchanged collections were reused and what the run cost.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline/generate.ts';
import { listFiles, tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('watch-session');
afterAll(tmp.cleanup);
const BIN = new URL('../../bin/restgen.js', import.meta.url).pathname;

const api = (max: number, extra = '') => `import { collection, defineApi, f } from 'restgen';
import { LABEL_MAX } from './limits.ts';
export default defineApi({
  name: 'w',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  collections: {
    items: collection({ fields: { id: f.id(), name: f.string().max(100), note: f.string().max(${max}).optional().addedIn('v2') } }),
    labels: collection({ fields: { id: f.id(), text: f.string().max(LABEL_MAX).optional().addedIn('v2') } }),
${extra}  },
});
`;
const limits = (n: number) => `export const LABEL_MAX = ${n};\n`;

const snapshot = (dir: string) => Object.fromEntries(listFiles(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]));

it('writes after every edit what a fresh generate writes, reusing the collections an edit did not touch', async () => {
  const watched = path.join(tmp.dir, 'watched');
  const fresh = path.join(tmp.dir, 'fresh');
  writeFiles(watched, { 'api.ts': api(10), 'limits.ts': limits(20) });
  const child = spawn(process.execPath, [BIN, 'generate', '--watch', '--debug'], { cwd: watched });
  let log = '';
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));
  const until = async (pattern: RegExp, after: number): Promise<string> => {
    const started = Date.now();
    for (;;) {
      const text = log.slice(after);
      if (pattern.test(text)) return text;
      if (Date.now() - started > 20_000) throw new Error(`timed out waiting for ${pattern}; log:\n${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  /** Edits the watched folder, waits for its run, and compares it with a fresh generate of the same files. */
  const edit = async (files: Record<string, string>, ok = true): Promise<string> => {
    const mark = log.length;
    writeFiles(watched, files);
    const text = await until(ok ? /\d+ written, |up to date/ : /RG\d{3}/, mark);
    if (!ok) return text;
    writeFiles(fresh, { 'api.ts': readFileSync(path.join(watched, 'api.ts'), 'utf8'), 'limits.ts': readFileSync(path.join(watched, 'limits.ts'), 'utf8') });
    rmSync(path.join(fresh, 'generated'), { recursive: true, force: true });
    writeFileSync(path.join(fresh, 'restgen.lock.json'), readFileSync(path.join(watched, 'restgen.lock.json')));
    const result = await generate({ apiPath: path.join(fresh, 'api.ts') });
    expect(result.diagnostics).toEqual([]);
    expect(snapshot(path.join(watched, 'generated'))).toEqual(snapshot(path.join(fresh, 'generated')));
    expect(readFileSync(path.join(watched, 'restgen.lock.json'), 'utf8')).toBe(readFileSync(path.join(fresh, 'restgen.lock.json'), 'utf8'));
    return text;
  };
  try {
    await until(/watching/, 0);
    expect(existsSync(path.join(watched, 'restgen.lock.json'))).toBe(true);
    const one = await edit({ 'api.ts': api(20) });
    expect(one).toMatch(/collections reused: 1, built: 1; cpu: \d+ ms; rss: \d+ MiB; peak rss: \d+ MiB/);
    expect(readFileSync(path.join(watched, 'generated/v2/items.ts'), 'utf8')).toContain('max(20)');
    // Only the imported file changes: the collection built from it is built again.
    const imported = await edit({ 'limits.ts': limits(40) });
    expect(imported).toContain('collections reused: 1, built: 1');
    expect(readFileSync(path.join(watched, 'generated/v2/labels.ts'), 'utf8')).toContain('max(40)');
    await edit({ 'api.ts': api(-1) }, false);
    await edit({ 'api.ts': api(30, `    tags: collection({ fields: { id: f.id() } }).addedIn('v2'),\n`) });
    await edit({ 'api.ts': api(30) });
    expect(existsSync(path.join(watched, 'generated/v2/tags.ts'))).toBe(false);
    expect(child.exitCode).toBeNull();
  } finally {
    child.kill('SIGINT');
  }
});
