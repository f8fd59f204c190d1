/**
 * The traps a new user meets in the first hour, through the built command line as a user runs it: the lock refusals
 * `restgen diff` must not hide.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-api.ts';
import { projectWithRestgen, runBin } from './run-cli.ts';

const tmp = tempDir('first-hour');
afterAll(tmp.cleanup);

let count = 0;
const fresh = (files: Record<string, string>): string => projectWithRestgen(path.join(tmp.dir, `p${++count}`), { 'package.json': '{ "name": "desk", "type": "module" }\n', ...files });

const DESK = `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'desk',
  versions: { v1: { released: '2026-01-15' }, v2: {} },
  collections: {
    tickets: collection({ fields: { id: f.id(), title: f.string().max(100), body: f.string() } }),
  },
});
`;

describe('restgen diff and the lock', () => {
  it('reports the lock refusals generate and check report (exit 2), with or without --from/--to', async () => {
    const dir = fresh({ 'api.ts': DESK });
    expect((await runBin(dir, 'generate')).code).toBe(0);
    expect((await runBin(dir, 'diff')).code).toBe(0);
    // An edit of the released v1: a rename without a marker.
    writeFileSync(path.join(dir, 'api.ts'), DESK.replace('title: f.string()', 'headline: f.string()'));
    const generated = await runBin(dir, 'generate');
    expect(generated.code).toBe(2);
    const refusals = (err: string) => err.split('\n').filter((l) => l.includes(' error RG180 '));
    expect(refusals(generated.err).length).toBeGreaterThan(0);
    for (const args of [[], ['--from', 'v1', '--to', 'v2'], ['--format', 'json']]) {
      const r = await runBin(dir, 'diff', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(refusals(r.err)).toEqual(refusals(generated.err));
      expect(r.err).toContain('restgen diff: restgen.lock.json refuses these changes (restgen generate and check stop on them too)');
    }
    // A lock that cannot be read is RG181, as for generate.
    writeFileSync(path.join(dir, 'restgen.lock.json'), readFileSync(path.join(dir, 'restgen.lock.json'), 'utf8').slice(0, 40));
    const broken = await runBin(dir, 'diff');
    expect(broken.code).toBe(2);
    expect(broken.err).toMatch(/restgen\.lock\.json:\d+:\d+: error RG181 /);
  });
});
