/**
 * `restgen diff` in process: exit codes (0 nothing reaches --fail-on, 1 something does, 2 usage errors
 * and modules that do not load), formats, and `--base` against a temporary git repository.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SHOP_API } from '../helpers/load-ir.ts';
import { removeTempProjects, runDiffCli, tempProject } from './helpers.ts';

const diff = runDiffCli;
afterAll(removeTempProjects);

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=restgen', '-c', 'user.email=restgen@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'pipe' });

const module = (max: number, extra = '') => `import { collection, defineApi, f } from 'restgen';
import { versions } from './versions.ts';

export default defineApi({
  name: 'shop',
  versions,
  collections: {
    orders: collection({ fields: { id: f.id(), quantity: f.int().min(1).max(${max})${extra} } }),
  },
});
`;

describe('restgen diff --from/--to', () => {
  it('prints the migration notes and exits 0 by default, even with breaking findings', async () => {
    const r = await diff([SHOP_API, '--from', 'v1', '--to', 'v2']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('field-renamed  orders.quantity');
  });
  it('exits 1 when a finding reaches --fail-on', async () => {
    expect((await diff([SHOP_API, '--from', 'v1', '--to', 'v2', '--fail-on', 'breaking'])).code).toBe(1);
    expect((await diff([SHOP_API, '--from', 'v1', '--to', 'v2', '--fail-on', 'warning'])).code).toBe(1);
  });
  it('without versions compares every consecutive pair; JSON is the documented shape', async () => {
    const r = await diff([SHOP_API, '--format', 'json']);
    const data = JSON.parse(r.out) as { from: string; to: string; findings: { version: string }[] };
    expect([data.from, data.to]).toEqual(['v1', 'v3']);
    expect(new Set(data.findings.map((x) => x.version))).toEqual(new Set(['v2', 'v3']));
  });
  it('usage errors exit 2, never 1', async () => {
    for (const args of [
      ['--format', 'xml'],
      ['--fail-on', 'sometimes'],
      ['--today', '2026-13-01'],
      ['--from', 'v9'],
      ['--from', 'v1', '--base', 'HEAD'],
      ['--to', 'v1'],
    ]) {
      const r = await diff([SHOP_API, ...args, '--fail-on', args.includes('--fail-on') ? args[args.indexOf('--fail-on') + 1]! : 'breaking']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(/^restgen diff: /);
    }
  });
  it('an API module that does not load exits 2 with file:line diagnostics', async () => {
    const dir = tempProject();
    writeFileSync(path.join(dir, 'api.ts'), `import { defineApi } from 'restgen';\nexport default defineApi({ name: 'x', versions: {}, collections: {} });\n`);
    const r = await diff(['api.ts', '--fail-on', 'breaking'], dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/api\.ts:\d+:\d+: error RG101 /);
    const missing = await diff(['nope.ts'], dir);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('RG001');
  });
});

describe('restgen diff --base', () => {
  it('judges changes to released versions against the git ref, reading local imports there', async () => {
    const dir = tempProject();
    writeFileSync(path.join(dir, 'versions.ts'), `export const versions = { v1: { released: '2026-01-01' }, v2: {} };\n`);
    writeFileSync(path.join(dir, 'api.ts'), module(100));
    git(dir, 'init', '-q');
    git(dir, 'add', 'api.ts', 'versions.ts');
    git(dir, 'commit', '-qm', 'api');
    expect((await diff(['api.ts', '--base', 'HEAD'], dir)).code).toBe(0);

    writeFileSync(path.join(dir, 'api.ts'), module(50));
    const broken = await diff(['api.ts', '--base', 'HEAD', '--format', 'json'], dir);
    expect(broken.code).toBe(1);
    const data = JSON.parse(broken.out) as {
      from: string;
      to: string;
      findings: { id: string; level: string; version: string; location: string; unreleased?: boolean; fails: boolean }[];
    };
    expect([data.from, data.to]).toEqual(['HEAD', 'working tree']);
    expect(data.findings.map((x) => [x.id, x.level, x.version, x.location, x.unreleased ?? false, x.fails])).toEqual([
      ['request-bound-tightened', 'breaking', 'v1', 'orders.quantity', false, true],
      ['existing-data-may-not-satisfy', 'warning', 'v1', 'orders.quantity', false, false],
      ['request-bound-tightened', 'breaking', 'v2', 'orders.quantity', true, false],
      ['existing-data-may-not-satisfy', 'warning', 'v2', 'orders.quantity', true, false],
    ]);
    expect((await diff(['api.ts', '--base', 'HEAD', '--fail-on', 'none'], dir)).code).toBe(0);
    const annotations = await diff(['api.ts', '--base', 'HEAD', '--format', 'github'], dir);
    // On the exact call that changed: `.max(50)` on line 8.
    const column = module(50).split('\n')[7]!.indexOf('max(') + 1;
    expect(annotations.out).toMatch(
      new RegExp(`^::error file=api\\.ts,line=8,col=${column},title=breaking request-bound-tightened \\(orders\\.quantity\\)::`, 'm'),
    );

    // The proper way: the change lands in the unreleased v2 with a marker.
    writeFileSync(path.join(dir, 'api.ts'), module(50, `.typeChangedFrom('v2', f.int().min(1).max(100))`));
    const proper = await diff(['api.ts', '--base', 'HEAD'], dir);
    expect(proper.code).toBe(0);
    expect(proper.out).toContain('(unreleased: never fails)');
    expect(readdirSync(dir).filter((n) => n.startsWith('.restgen-base-'))).toEqual([]);
  });
  it('a bad ref or a folder outside git is a usage error (2); a module new since the ref is all safe', async () => {
    const dir = tempProject();
    writeFileSync(path.join(dir, 'versions.ts'), `export const versions = { v1: { released: '2026-01-01' } };\n`);
    writeFileSync(path.join(dir, 'api.ts'), module(10));
    const outside = await diff(['api.ts', '--base', 'HEAD'], dir);
    expect(outside.code).toBe(2);
    git(dir, 'init', '-q');
    writeFileSync(path.join(dir, 'README'), 'x');
    git(dir, 'add', 'README');
    git(dir, 'commit', '-qm', 'readme');
    expect((await diff(['api.ts', '--base', 'no-such-ref'], dir)).code).toBe(2);
    const fresh = await diff(['api.ts', '--base', 'HEAD', '--format', 'json'], dir);
    expect(fresh.code).toBe(0);
    expect(JSON.parse(fresh.out).findings.map((x: { id: string }) => x.id)).toEqual(['version-added']);
    expect(existsSync(path.join(dir, 'api.ts'))).toBe(true);
  });
});
