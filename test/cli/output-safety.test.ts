/**
 * The output folder and the lock as a user's project meets them, through the real `bin/restgen.js`: what
 * `generate` may remove, whose lock it reads, and the errors a damaged lock gives. Each case reproduces a
 * defect found in the 2026-11-23 audit.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles, tempDir, writeFiles } from '../helpers/temp-api.ts';
import { BIN, runBin } from './run-cli.ts';

const tmp = tempDir('output-safety');
afterAll(tmp.cleanup);

const api = (name: string, collection: string) => `import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: '${name}',
  versions: { v1: { released: '2026-01-01' }, v2: {} },
  collections: {
    ${collection}: collection({ fields: { id: f.id(), title: f.string().min(1).max(100) } }),
  },
});
`;

const restgen = runBin;

function project(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp.dir, name);
  writeFiles(dir, files);
  return dir;
}

describe('generate removes only the files of its own output folder', () => {
  it("leaves another API's output folder nested inside it alone, and check does not count it", async () => {
    const dir = project('nested', { 'api.ts': api('shop', 'orders'), 'admin/api.ts': api('admin', 'users') });
    expect((await restgen(dir, 'generate', 'admin/api.ts', '--out', 'generated/admin')).code).toBe(0);
    const admin = listFiles(path.join(dir, 'generated/admin'));
    expect(admin).toContain('v1/users.ts');
    const shop = await restgen(dir, 'generate');
    expect(shop.code).toBe(0);
    expect(shop.err).not.toMatch(/^  removed /m);
    expect(listFiles(path.join(dir, 'generated/admin'))).toEqual(admin);
    expect((await restgen(dir, 'check')).code).toBe(0);
    expect((await restgen(dir, 'check', 'admin/api.ts', '--out', 'generated/admin')).code).toBe(0);
  });

  it('--out naming the project folder does not remove the generated/ folder of an earlier run', async () => {
    const dir = project('out-root', { 'api.ts': api('shop', 'orders') });
    expect((await restgen(dir, 'generate')).code).toBe(0);
    const before = listFiles(path.join(dir, 'generated'));
    const run = await restgen(dir, 'generate', '--out', '.');
    expect(run.code).toBe(0);
    expect(run.err).not.toMatch(/^  removed /m);
    expect(listFiles(path.join(dir, 'generated'))).toEqual(before);
    expect(existsSync(path.join(dir, 'v1/orders.ts'))).toBe(true);
  });
});

describe('what an interrupted write leaves', () => {
  it('an empty temporary file of a killed run is removed once a minute old; a file of that name with content is kept', async () => {
    // With a node_modules folder, the run cache lives in it, and removing it gives the path of a fresh clone.
    const dir = project('left-temp', { 'api.ts': api('shop', 'orders'), 'node_modules/.keep': '' });
    expect((await restgen(dir, 'generate')).code).toBe(0);
    // A run killed between creating its temporary file and writing to it leaves an empty one.
    const left = path.join(dir, 'generated/v1/orders.ts.0123456789ab.tmp');
    const kept = path.join(dir, 'generated/v1/notes.ts.0123456789ab.tmp');
    writeFileSync(left, '');
    writeFileSync(kept, 'a note of the user, named like a temporary file\n');
    // Younger than a minute, it may be another run's, about to be written: left alone.
    expect((await restgen(dir, 'check')).code).toBe(0);
    const past = new Date(Date.now() - 120_000);
    utimesSync(left, past, past);
    utimesSync(kept, past, past);
    const check = await restgen(dir, 'check');
    expect(check.code).toBe(1);
    expect(check.err).toContain('orders.ts.0123456789ab.tmp');
    expect(check.err).not.toContain('notes.ts.0123456789ab.tmp');
    // The same without the cache (a fresh clone): the run renders and compares everything, and finds it too.
    rmSync(path.join(dir, 'node_modules/.cache'), { recursive: true, force: true });
    const fresh = await restgen(dir, 'check');
    expect(fresh.code).toBe(1);
    expect(fresh.err).toContain('orders.ts.0123456789ab.tmp');
    const run = await restgen(dir, 'generate');
    expect(run.code).toBe(0);
    expect(run.err).toMatch(/^  removed .*orders\.ts\.0123456789ab\.tmp$/m);
    expect(existsSync(left)).toBe(false);
    expect(readFileSync(kept, 'utf8')).toBe('a note of the user, named like a temporary file\n');
    expect((await restgen(dir, 'check')).code).toBe(0);
  });
});

describe('an output folder that cannot be one', () => {
  it('is refused (RG202) when it is the root of the file system or on a kernel file system, before anything is read', async () => {
    const dir = project('unusable', { 'api.ts': api('shop', 'orders') });
    // `--out "/$UNSET"`, and /proc, whose files answer reads with errors (before: "unexpected error: EINVAL").
    const targets = process.platform === 'linux' ? ['/', '/proc', '/sys/kernel'] : ['/'];
    for (const out of targets) {
      for (const command of ['generate', 'check']) {
        const run = await restgen(dir, command, '--out', out);
        expect(run.code, `${command} --out ${out}: ${run.err}`).toBe(2);
        expect(run.err).toContain('error RG202');
        expect(run.err).toContain(out === '/' ? 'is the root of the file system' : "a file system of the kernel's");
        expect(run.err).not.toContain('unexpected error');
      }
    }
    // A folder of the project is fine, however deep and not yet there.
    expect((await restgen(dir, 'generate', '--out', 'deep/er/out')).code).toBe(0);
  });
});

describe('the lock', () => {
  it('of another API (two modules in one folder share restgen.lock.json) is refused with how to fix it, and nothing is written', async () => {
    const dir = project('shared-lock', { 'shop.ts': api('shop', 'orders'), 'admin.ts': api('admin', 'users') });
    expect((await restgen(dir, 'generate', 'shop.ts', '--out', 'shop')).code).toBe(0);
    const lock = readFileSync(path.join(dir, 'restgen.lock.json'), 'utf8');
    for (const argv of [
      ['generate', 'admin.ts', '--out', 'admin'],
      ['generate', 'admin.ts', '--out', 'admin', '--accept-breaking', 'try'],
      ['check', 'admin.ts', '--out', 'admin'],
    ]) {
      const run = await restgen(dir, ...argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.err).toMatch(/admin\.ts:3:\d+: error RG181 .*restgen\.lock\.json .*'shop'.*'admin'/);
      expect(run.err).toContain('folder of its own');
      expect(run.err).not.toContain('RG180');
      expect(existsSync(path.join(dir, 'admin'))).toBe(false);
      expect(readFileSync(path.join(dir, 'restgen.lock.json'), 'utf8')).toBe(lock);
    }
    expect((await restgen(dir, 'check', 'shop.ts', '--out', 'shop')).code).toBe(0);
  });

  /** A generated project's lock as lines, and the line of the orders' `max` limit in it. */
  async function lockOf(name: string): Promise<{ dir: string; file: string; lines: string[]; at: number }> {
    const dir = project(name, { 'api.ts': api('shop', 'orders') });
    expect((await restgen(dir, 'generate')).code).toBe(0);
    const file = path.join(dir, 'restgen.lock.json');
    const lines = readFileSync(file, 'utf8').split('\n');
    return { dir, file, lines, at: lines.findIndex((l) => l.includes('"max": 100')) };
  }

  it('with merge conflict markers names their line and how to resolve them, and nothing is written', async () => {
    const { dir, file, lines, at } = await lockOf('conflict');
    lines.splice(at, 1, '<<<<<<< HEAD', lines[at]!, '=======', lines[at]!.replace('100', '200'), '>>>>>>> other');
    writeFileSync(file, lines.join('\n'));
    writeFileSync(path.join(dir, 'api.ts'), api('shop', 'orders').replace('max(100)', 'max(200)'));
    for (const command of ['generate', 'check']) {
      const run = await restgen(dir, command);
      expect(run.code).toBe(2);
      expect(run.err).toContain('error RG181');
      expect(run.err).toContain(`merge conflict markers (line ${at + 1}: <<<<<<< HEAD)`);
      // The diagnostic points at the marker's line, where an editor opens the file.
      expect(run.err).toMatch(new RegExp(`restgen\\.lock\\.json:${at + 1}(:\\d+)?: error RG181`));
      expect(run.err).toContain('restgen generate');
    }
    expect(readFileSync(path.join(dir, 'generated/v1/orders.ts'), 'utf8')).toContain('max(100)');
  });

  it('that is not valid JSON is refused at the line JSON.parse stopped on', async () => {
    const { dir, file, lines, at } = await lockOf('bad-json');
    lines[at] = lines[at]!.replace('"max": 100', '"max": 100 100');
    writeFileSync(file, lines.join('\n'));
    const run = await restgen(dir, 'generate');
    expect(run.code).toBe(2);
    expect(run.err).toMatch(new RegExp(`restgen\\.lock\\.json:${at + 1}(:\\d+)?: error RG181 .*is not valid JSON`));
  });
});

describe('serve --out', () => {
  it('that is empty (an unset shell variable) is a usage error, as for generate, and so are empty --templates and --config', async () => {
    const dir = project('serve-empty', { 'api.ts': api('shop', 'orders') });
    for (const flag of ['--out', '--templates', '--config']) {
      const run = await restgen(dir, 'serve', flag, '', '--port', '0');
      expect(run.code, run.err).toBe(2);
      expect(run.err).toContain(`${flag} is empty`);
    }
    expect(existsSync(path.join(dir, 'node_modules/.cache/restgen-serve'))).toBe(false);
  });

  it('into the folder generate writes keeps the files of the other parts, so check still passes', async () => {
    const dir = project('serve-out', { 'api.ts': api('shop', 'orders') });
    expect((await restgen(dir, 'generate')).code).toBe(0);
    const before = listFiles(path.join(dir, 'generated'));
    expect(before).toContain('client/index.ts');
    const child = spawn(process.execPath, [BIN, 'serve', '--out', 'generated', '--port', '0'], { cwd: dir });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => ((out += d.toString()), out.includes('http://127.0.0.1:') && resolve()));
      void exited.then((code) => reject(new Error(`serve exited with ${code} before listening: ${out}`)));
    });
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
    expect((await fetch(`${url}/v2/orders`, { headers: { authorization: 'Bearer any' } })).status).toBe(200);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(listFiles(path.join(dir, 'generated'))).toEqual(before);
    expect((await restgen(dir, 'check')).code).toBe(0);
  }, 60_000);
});

describe('an empty path (an unset shell variable: --out "$OUT")', () => {
  it('in a flag is a usage error, and nothing is written into the project folder', async () => {
    const dir = project('empty-flag', { 'api.ts': api('shop', 'orders') });
    for (const flag of ['--out', '--templates', '--config']) {
      const run = await restgen(dir, 'generate', flag, '');
      expect(run.code, flag).toBe(2);
      expect(run.err).toContain(`restgen generate: ${flag} is empty`);
    }
    expect((await restgen(dir, 'check', '--out', '')).code).toBe(2);
    expect(listFiles(dir)).toEqual(['api.ts']);
  });

  it('in the config file is RG211 at the property, and nothing is written', async () => {
    for (const key of ['out', 'templates', 'api']) {
      const dir = project(`empty-config-${key}`, { 'api.ts': api('shop', 'orders'), 'restgen.config.ts': `export default {\n  ${key}: '',\n};\n` });
      const run = await restgen(dir, 'generate');
      expect(run.code, key).toBe(2);
      expect(run.err).toContain(`error RG211 restgen.config.ts: ${key} is empty`);
      expect(listFiles(dir)).toEqual(['api.ts', 'restgen.config.ts']);
    }
  });
});

describe('--config naming the API module', () => {
  it('says it is the API module and how to pass it, and nothing is written', async () => {
    const dir = project('config-is-api', { 'api.ts': api('shop', 'orders') });
    const run = await restgen(dir, 'generate', '--config', 'api.ts');
    expect(run.code).toBe(2);
    expect(run.err).toContain('error RG210 api.ts is an API module (defineApi), not a config file');
    expect(run.err).not.toContain('RG212');
    expect(listFiles(dir)).toEqual(['api.ts']);
  });
});
