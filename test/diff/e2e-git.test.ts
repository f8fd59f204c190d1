/**
 * End to end through the real command line (`node bin/restgen.js`) in a temporary git repository: a
 * breaking edit to a released version makes `diff --base HEAD --fail-on breaking` exit 1, `check` fail and
 * `generate` refuse (RG180, nothing written); the same change made properly, in the unreleased version
 * with a marker, passes all three.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const BIN = path.join(ROOT, 'bin', 'restgen.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'restgen-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function restgen(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=restgen', '-c', 'user.email=restgen@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'pipe' });

const api = (quantity: string) => `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'shop',
  versions: { v1: { released: '2026-01-15' }, v2: {} },
  auth: { bearer: {} },
  collections: {
    orders: collection({
      fields: {
        id: f.id(),
        quantity: ${quantity},
      },
    }),
  },
});
`;

/** Every file under `sub` with its content, to prove nothing was written. */
function snapshot(sub: string): Record<string, string> {
  const root = path.join(dir, sub);
  if (!existsSync(root)) return {};
  return Object.fromEntries(
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => [path.relative(root, path.join(e.parentPath, e.name)), readFileSync(path.join(e.parentPath, e.name), 'utf8')]),
  );
}

describe('a released version is locked, end to end', () => {
  it('refuses a breaking edit in diff, check and generate, and accepts the proper one', () => {
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(ROOT, path.join(dir, 'node_modules', 'restgen'));
    writeFileSync(path.join(dir, '.gitignore'), 'node_modules\n');
    writeFileSync(path.join(dir, 'api.ts'), api('f.int().min(1).max(100)'));

    const first = restgen('generate', 'api.ts');
    expect(first.status, first.stderr).toBe(0);
    expect(existsSync(path.join(dir, 'restgen.lock.json')), 'generate writes restgen.lock.json beside the module').toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(path.join(dir, 'restgen.lock.json'), 'utf8')).versions)).toEqual(['v1']);
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'api v1');
    expect(restgen('check', 'api.ts').status).toBe(0);

    // A breaking edit to the released v1: the maximum goes down without a marker.
    writeFileSync(path.join(dir, 'api.ts'), api('f.int().min(1).max(50)'));
    const diff = restgen('diff', 'api.ts', '--base', 'HEAD', '--fail-on', 'breaking');
    expect(diff.status, diff.stderr).toBe(1);
    expect(diff.stdout).toContain('request-bound-tightened');
    expect(diff.stdout).toContain('orders.quantity');

    const check = restgen('check', 'api.ts');
    expect(check.status, check.stdout + check.stderr).toBe(2);
    expect(check.stderr).toMatch(/api\.ts:11:\d+: error RG180 v1 is released and frozen/);

    const before = { generated: snapshot('generated'), lock: readFileSync(path.join(dir, 'restgen.lock.json'), 'utf8') };
    const generate = restgen('generate', 'api.ts');
    expect(generate.status).toBe(2);
    expect(generate.stderr).toContain('RG180');
    expect(generate.stderr).toContain(".typeChangedFrom('v2'");
    expect(snapshot('generated')).toEqual(before.generated);
    expect(readFileSync(path.join(dir, 'restgen.lock.json'), 'utf8')).toBe(before.lock);

    // The same change made properly: in the unreleased v2, with a marker describing v1.
    writeFileSync(path.join(dir, 'api.ts'), api(`f.int().min(1).max(50).typeChangedFrom('v2', f.int().min(1).max(100))`));
    const properDiff = restgen('diff', 'api.ts', '--base', 'HEAD', '--fail-on', 'breaking');
    expect(properDiff.status, properDiff.stdout + properDiff.stderr).toBe(0);
    const properGenerate = restgen('generate', 'api.ts');
    expect(properGenerate.status, properGenerate.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'restgen.lock.json'), 'utf8')).toBe(before.lock);
    const properCheck = restgen('check', 'api.ts');
    expect(properCheck.status, properCheck.stderr).toBe(0);

    // A deliberate break, accepted with generate --accept-breaking: check and diff --base both let it pass.
    writeFileSync(path.join(dir, 'api.ts'), api(`f.int().min(2).max(50).typeChangedFrom('v2', f.int().min(2).max(100))`));
    expect(restgen('check', 'api.ts').status).toBe(2);
    expect(restgen('diff', 'api.ts', '--base', 'HEAD').status).toBe(1);
    const accept = restgen('generate', 'api.ts', '--accept-breaking');
    expect(accept.status, accept.stderr).toBe(0);
    const lock = JSON.parse(readFileSync(path.join(dir, 'restgen.lock.json'), 'utf8')) as { accepted: { id: string; version: string }[] };
    expect(lock.accepted.map((a) => [a.version, a.id])).toEqual([['v1', 'request-bound-tightened']]);
    expect(restgen('check', 'api.ts').status).toBe(0);
    const accepted = restgen('diff', 'api.ts', '--base', 'HEAD', '--fail-on', 'breaking');
    expect(accepted.status, accepted.stdout + accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/breaking request-bound-tightened {2}orders\.quantity {2}\[v1, request\] {2}\(accepted/);
    // Thirteen real processes, three of which parse the module to locate findings: more than the default 30 s on a busy machine.
  }, 120_000);
});
