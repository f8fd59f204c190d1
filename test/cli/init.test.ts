/**
 * `restgen init`: the starter API it writes generates and checks cleanly, package.json gets the scripts
 * (created when missing, edited in its own style when present), the install line names what the generated
 * code imports, and no existing file is ever overwritten.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiNameFrom } from '../../generator/cli/commands/init.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';
import { columnOf, projectWithRestgen, runBin, runCli } from './run-cli.ts';

const tmp = tempDir('init');
afterAll(tmp.cleanup);

let count = 0;
const fresh = (files: Record<string, string> = {}): string => projectWithRestgen(path.join(tmp.dir, `p${++count}`), files);
const json = (dir: string): Record<string, unknown> & { scripts: Record<string, string> } => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));

describe('restgen init', () => {
  it('writes a starter API that generates and checks, creates package.json with the scripts, and says what to install', async () => {
    const dir = fresh();
    const r = await runCli(dir, ['init']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('created api.ts');
    expect(json(dir)).toMatchObject({ private: true, type: 'module', scripts: { generate: 'restgen generate', check: 'restgen check' } });
    expect(r.err).toContain('npm install -D restgen');
    expect(r.err).toContain("npm install '@fastify/rate-limit@^10.3.0 || ^11.0.0' @restgen/runtime@^0.3.0 fastify@^5.1.0 jose@^6.0.1 zod@^4.0.0");
    const api = readFileSync(path.join(dir, 'api.ts'), 'utf8');
    expect(api).toMatch(/v1: \{ released: '\d{4}-\d{2}-\d{2}' \},\n {4}v2: \{\},/);
    expect(api).toContain(`name: '${apiNameFrom(path.basename(dir))}'`);
    const generated = await runCli(dir, ['generate']);
    expect(generated.code, generated.err).toBe(0);
    expect(existsSync(path.join(dir, 'generated/v1/tasks.ts'))).toBe(true);
    expect(readFileSync(path.join(dir, 'generated/v1/tasks.ts'), 'utf8')).toContain('name:');
    expect(readFileSync(path.join(dir, 'generated/v2/tasks.ts'), 'utf8')).toContain('title:');
    expect((await runCli(dir, ['check'])).code).toBe(0);
  });

  it('adds the scripts to an existing package.json in its own indentation, under restgen: names when generate or check is taken', async () => {
    const manifest = {
      name: '@acme/shop-api',
      version: '2.0.0',
      scripts: { check: 'tsc --noEmit' },
      dependencies: { zod: '^4.1.0' },
      devDependencies: { restgen: '^0.1.0' },
    };
    const dir = fresh({ 'package.json': JSON.stringify(manifest, null, 4) + '\n' });
    const r = await runCli(dir, ['init', 'src/api.ts']);
    expect(r.code, r.err).toBe(0);
    const text = readFileSync(path.join(dir, 'package.json'), 'utf8');
    expect(text).toContain('\n    "name": "@acme/shop-api"');
    expect(json(dir).scripts).toEqual({ check: 'tsc --noEmit', generate: 'restgen generate src/api.ts', 'restgen:check': 'restgen check src/api.ts' });
    expect(json(dir)['dependencies']).toEqual({ zod: '^4.1.0' });
    expect(readFileSync(path.join(dir, 'src/api.ts'), 'utf8')).toContain("name: 'shopApi'");
    expect(r.err).not.toContain('npm install -D restgen');
    expect(r.err).toContain(
      "npm install '@fastify/rate-limit@^10.3.0 || ^11.0.0' @restgen/runtime@^0.3.0 fastify@^5.1.0 jose@^6.0.1   # what the generated code imports",
    );
    expect(r.err).toContain('npm run generate');
  });

  it('replaces package.json atomically through a symbolic link, and leaves one that changed while it ran as it is', async () => {
    // A workspace that links its package.json: the link stays, its target gets the scripts.
    const linked = fresh();
    mkdirSync(path.join(linked, 'shared'));
    writeFileSync(path.join(linked, 'shared/package.json'), '{ "name": "linked", "version": "1.0.0" }\n');
    symlinkSync('shared/package.json', path.join(linked, 'package.json'));
    expect((await runCli(linked, ['init'])).code).toBe(0);
    expect(lstatSync(path.join(linked, 'package.json')).isSymbolicLink()).toBe(true);
    expect(json(linked).scripts).toEqual({ generate: 'restgen generate', check: 'restgen check' });
    // Another tool rewrites package.json after init read it (here: as init reports the API it created).
    const raced = fresh({ 'package.json': '{ "name": "raced" }\n' });
    const theirs = '{ "name": "raced", "dependencies": { "zod": "^4.1.0" } }\n';
    let said = '';
    const r = await runCli(raced, ['init'], {
      err: (t) => void ((said += t), t.includes('created') && writeFileSync(path.join(raced, 'package.json'), theirs)),
    });
    expect(r.code).toBe(2);
    expect(readFileSync(path.join(raced, 'package.json'), 'utf8')).toBe(theirs);
    expect(existsSync(path.join(raced, 'api.ts'))).toBe(true);
    expect(said).toContain('Add its scripts by hand: "generate": "restgen generate", "check": "restgen check", and "type": "module".');
    // Without a package.json, one that another tool creates meanwhile is left as that tool wrote it too.
    const appeared = fresh();
    let told = '';
    const a = await runCli(appeared, ['init'], {
      err: (t) => void ((told += t), t.includes('created') && writeFileSync(path.join(appeared, 'package.json'), theirs)),
    });
    expect(a.code).toBe(2);
    expect(readFileSync(path.join(appeared, 'package.json'), 'utf8')).toBe(theirs);
    expect(told).toContain('Add its scripts by hand: "generate": "restgen generate", "check": "restgen check".');
  });

  it('writes restgen.config.ts with --with-config, and the scripts then need no path', async () => {
    const dir = fresh();
    const r = await runCli(dir, ['init', 'api/shop.ts', '--with-config', '--name', 'shop']);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(path.join(dir, 'restgen.config.ts'), 'utf8')).toContain("api: 'api/shop.ts'");
    expect(json(dir).scripts).toEqual({ generate: 'restgen generate', check: 'restgen check' });
    const generated = await runCli(dir, ['generate']);
    expect(generated.code, generated.err).toBe(0);
    expect(existsSync(path.join(dir, 'generated/server/index.ts'))).toBe(true);
  });

  it('never overwrites a file: an existing api.ts or config file stops it before anything is written (exit 2)', async () => {
    const dir = fresh({ 'api.ts': '// mine\n' });
    const r = await runCli(dir, ['init']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('restgen init: api.ts exists, and init never overwrites a file; nothing was written.');
    expect(readFileSync(path.join(dir, 'api.ts'), 'utf8')).toBe('// mine\n');
    expect(existsSync(path.join(dir, 'package.json'))).toBe(false);
    const withConfig = fresh({ 'restgen.config.mjs': 'export default {};\n', 'package.json': '{ "name": "x" }\n' });
    const c = await runCli(withConfig, ['init', '--with-config']);
    expect(c.code).toBe(2);
    expect(c.err).toContain('restgen.config.mjs exists');
    expect(existsSync(path.join(withConfig, 'api.ts'))).toBe(false);
    expect(readFileSync(path.join(withConfig, 'package.json'), 'utf8')).toBe('{ "name": "x" }\n');
  });

  it('refuses a package.json it cannot read, and an API name that cannot name generated code', async () => {
    const dir = fresh();
    writeFiles(dir, { 'package.json': '{ "name": ' });
    const broken = await runCli(dir, ['init']);
    expect(broken.code).toBe(2);
    expect(broken.err).toContain('package.json is not a valid JSON object');
    expect(existsSync(path.join(dir, 'api.ts'))).toBe(false);
    const named = await runCli(fresh(), ['init', '--name', 'my-api']);
    expect(named.code).toBe(2);
    expect(named.err).toContain("--name 'my-api' must be letters and digits");
  });

  it('makes a CommonJS project ES modules and says so; generate warns (RG220) where the project is still CommonJS', async () => {
    // npm 11's `npm init -y` writes "type": "commonjs"; an older npm writes no type, which means the same.
    const npmInit = '{\n  "name": "desk",\n  "version": "1.0.0",\n  "main": "index.js",\n  "type": "commonjs"\n}\n';
    const dir = fresh({ 'package.json': npmInit });
    const r = await runBin(dir, 'init');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('updated package.json: "type": "module" (it said "commonjs")');
    expect(json(dir)).toMatchObject({ name: 'desk', type: 'module', scripts: { generate: 'restgen generate' } });
    const untyped = fresh({ 'package.json': '{ "name": "plain" }\n' });
    expect((await runBin(untyped, 'init')).err).toContain('"type": "module" (it had no "type", which means CommonJS)');
    expect(json(untyped)['type']).toBe('module');
    // Already ES modules: nothing to say.
    const esm = fresh({ 'package.json': '{ "name": "esm", "type": "module" }\n' });
    expect((await runBin(esm, 'init')).err).not.toContain('"type"');

    // generate in a CommonJS project: a located warning with the fix, and the files are still written.
    writeFileSync(path.join(dir, 'package.json'), npmInit);
    const generated = await runBin(dir, 'generate');
    expect(generated.code, generated.err).toBe(0);
    const line = npmInit.split('\n').findIndex((l) => l.includes('"type"')) + 1;
    expect(generated.err).toContain(`package.json:${line}:${columnOf(npmInit, line, '"type"')}: warning RG220 the generated code is ES modules`);
    expect(generated.err).toContain('this package.json says "type": "commonjs". Make the project ES modules: npm pkg set type=module');
    expect(existsSync(path.join(dir, 'generated/server/index.ts'))).toBe(true);
    // An output folder with a package.json of its own that says "module" is fine, whatever the project says.
    writeFiles(dir, { 'generated/package.json': '{ "type": "module" }\n' });
    expect((await runBin(dir, 'generate')).err).not.toContain('RG220');
    const fixed = fresh({ 'package.json': '{ "name": "fixed", "type": "module" }\n', 'api.ts': readFileSync(path.join(dir, 'api.ts'), 'utf8') });
    expect((await runBin(fixed, 'generate')).err).not.toContain('RG220');
  });

  it('derives API names that name generated code', () => {
    expect(apiNameFrom('@acme/shop-api')).toBe('shopApi');
    expect(apiNameFrom('2026_orders')).toBe('orders');
    expect(apiNameFrom('---')).toBe('api');
  });
});
