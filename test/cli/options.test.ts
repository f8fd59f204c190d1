/**
 * What people expect of a command line: `--version`, `--quiet`, colours only on a terminal (and as
 * NO_COLOR / FORCE_COLOR say), `check` naming why each file is stale, and realistic slips answered with one
 * line and exit 2 (an output folder that is a file, a missing templates folder, a busy port, no fastify).
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { colorEnabled, terminalText } from '../../generator/cli/style.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';
import { projectWithRestgen, ROOT, runCli } from './run-cli.ts';

const tmp = tempDir('options');
afterAll(tmp.cleanup);
const exec = promisify(execFile);
const BIN = path.join(ROOT, 'bin/restgen.js');
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const API = (max = 100) => `import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'notes',
  versions: { v1: {}, v2: {} },
  collections: { notes: collection({ fields: { id: f.id(), title: f.string().max(${max}) } }) },
});
`;

let count = 0;
const project = (files: Record<string, string> = { 'api.ts': API() }): string => {
  const dir = path.join(tmp.dir, `p${++count}`);
  writeFiles(dir, files);
  return dir;
};

describe('the command line', () => {
  it('prints its version with --version and -v, and lists init in its help', async () => {
    const { stdout } = await exec(process.execPath, [BIN, '--version']);
    expect(stdout).toBe(`${VERSION}\n`);
    expect((await runCli(tmp.dir, ['-v'])).out).toBe(`${VERSION}\n`);
    expect((await runCli(tmp.dir, ['--help'])).out).toMatch(/\n {2}init \[options\] \[api\] +write a starter API module/);
  });

  it('loads only what a command needs: nothing heavy for --version, never fastify for generate', async () => {
    // A resolve hook that records every package restgen's compiled code imports (in the loading thread where Node
    // has module.registerHooks, 22.15 and later: a hook thread's output can be lost at exit), and the same for the
    // packages it requires (Handlebars is required: its runtime, and its compiler only when a template is compiled).
    const record = `(s) => { if (!s.startsWith('.') && !s.startsWith('node:') && !s.startsWith('file:') && !s.startsWith('/') && !M.isBuiltin(s)) process.stderr.write('[import ' + s + ']'); }`;
    const hook = `import M from 'node:module'; const record = ${record}; export async function resolve(s, c, next) { record(s); return next(s, c); }`;
    const cjs = `const load = M._load; M._load = function (s, ...rest) { record(s); return load.call(this, s, ...rest); };`;
    const register = `import M from 'node:module'; const record = ${record}; if (M.registerHooks) M.registerHooks({ resolve: (s, c, next) => { record(s); return next(s, c); } }); else M.register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)})); ${cjs}`;
    const imports = async (cwd: string, ...argv: string[]) => {
      const { stderr } = await exec(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, BIN, ...argv], { cwd });
      return [...new Set([...stderr.matchAll(/\[import ([^\]]+)\]/g)].map((m) => m[1]!))].sort();
    };
    expect(await imports(tmp.dir, '--version')).toEqual(['commander', 'picocolors']);
    const dir = project();
    const generate = await imports(dir, 'generate');
    // A first run compiles the templates it renders.
    // Handlebars from its single-file builds: the runtime, and the compiler only when a template is compiled.
    expect(generate).toEqual(
      expect.arrayContaining(['oxc-transform', 'prettier/doc', 'handlebars/dist/handlebars.runtime.js', 'handlebars/dist/handlebars.js']),
    );
    // One loader (oxc's transform): the parser that finds a diagnostic's column is loaded only when there is something
    // to report, the ES module resolver only for a package require.resolve cannot find.
    // Output is laid out exactly as prettier prints it: without a prettier configuration, prettier itself is never loaded.
    for (const heavy of ['fastify', '@fastify/rate-limit', 'oxc-parser', 'exsolve', 'chokidar', 'prettier']) expect(generate).not.toContain(heavy);
    const upToDate = await imports(dir, 'generate');
    for (const unneeded of ['oxc-transform', 'oxc-parser', 'exsolve', 'handlebars/dist/handlebars.runtime.js', 'handlebars/dist/handlebars.js', 'fastify'])
      expect(upToDate).not.toContain(unneeded);
    // A run with a diagnostic parses the module to find its column.
    writeFiles(dir, { 'api.ts': API().replace('max(100)', 'min(5).max(1)') });
    expect(await imports(dir, 'generate').catch((e: { stderr: string }) => [...e.stderr.matchAll(/\[import ([^\]]+)\]/g)].map((m) => m[1]!))).toContain(
      'oxc-parser',
    );
    // A change renders a few files again from the templates' code the cache kept: Handlebars' compiler stays unloaded.
    writeFiles(dir, { 'api.ts': API(120) });
    const changed = await imports(dir, 'generate');
    expect(changed).toContain('handlebars/dist/handlebars.runtime.js');
    expect(changed).not.toContain('handlebars/dist/handlebars.js');
    // Never its CommonJS modules (some twenty files each).
    for (const run of [generate, upToDate, changed]) expect(run.filter((m) => m === 'handlebars' || m === 'handlebars/runtime')).toEqual([]);
    // zod's format patterns are kept as text (checked against zod by a test): generating never loads zod's modules.
    for (const run of [generate, upToDate, changed]) expect(run).not.toContain('zod');
  });

  it('delays the optimizing compiler for one-shot commands, and leaves V8 as it is for long-running ones', async () => {
    // A function called this many times is marked for optimization with V8's defaults (--trace-opt shows it), not
    // with five times the budget (Node 20: TurboFan at a bytecode budget; Node 22: TurboFan at 3,000 calls; Node 24
    // and later: Maglev at 400); the same loop after tuneEngine tells which commands are tuned.
    const calls = ({ 11: 3000, 12: 6000 } as Record<string, number>)[process.versions.v8.split('.')[0]!] ?? 1500;
    const marked = async (argv: readonly string[] | undefined) => {
      const tune = argv ? `cli.tuneEngine(${JSON.stringify(argv)});` : '';
      const script = `const cli = await import(${JSON.stringify(path.join(ROOT, 'dist/cli.js'))}); ${tune} let x = 0; function hot(i) { x += Math.sqrt(i) | 0; } for (let i = 0; i < ${calls}; i++) hot(i);`;
      const { stdout, stderr } = await exec(process.execPath, ['--trace-opt', '--input-type=module', '-e', script]);
      // V8 prints an error (and goes on) for a flag it does not know: tuning must set only flags this V8 has.
      expect(stderr).not.toMatch(/unrecognized flag/);
      return (stdout + stderr).split('\n').some((l) => l.includes('marking') && l.includes('<JSFunction hot'));
    };
    expect(await marked(undefined)).toBe(true);
    for (const argv of [['generate'], ['check', 'api.ts'], ['diff', '--base', 'main'], ['init']]) expect(await marked(argv)).toBe(false);
    for (const argv of [
      ['serve', 'api.ts'],
      ['generate', '--watch'],
    ])
      expect(await marked(argv)).toBe(true);
    // The bin tunes before it runs the command.
    expect(readFileSync(BIN, 'utf8')).toMatch(/cli\.tuneEngine\(process\.argv\.slice\(2\)\);\s*process\.exitCode = await cli\.main/);
  });

  it('--quiet prints nothing on success, and still prints warnings and errors', async () => {
    const dir = projectWithRestgen(path.join(tmp.dir, `p${++count}`), { 'api.ts': API(), 'package.json': '{ "name": "q" }\n' });
    const first = await runCli(dir, ['generate', '--quiet']);
    expect(first.code).toBe(0);
    expect(first.err).not.toContain('wrote');
    expect(first.err).toContain('warning RG215');
    expect((await runCli(dir, ['check', '-q'])).err).toBe('');
    writeFileSync(path.join(dir, 'api.ts'), API(-1));
    const failed = await runCli(dir, ['generate', '-q']);
    expect(failed.code).toBe(2);
    expect(failed.err).toContain('error RG132');
  });

  it('colours only a terminal, as FORCE_COLOR, NO_COLOR and --no-color say', async () => {
    const tty = { isTTY: true };
    expect(colorEnabled(tty, {}, [])).toBe(true);
    expect(colorEnabled({ isTTY: false }, {}, [])).toBe(false);
    expect(colorEnabled(tty, { TERM: 'dumb' }, [])).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '1' }, [])).toBe(false);
    expect(colorEnabled(tty, {}, ['generate', '--no-color'])).toBe(false);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1' }, [])).toBe(true);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1' }, ['--no-color'])).toBe(false);
    expect(colorEnabled(tty, { FORCE_COLOR: '0' }, [])).toBe(false);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '', NO_COLOR: '1' }, [])).toBe(true);
    // A real process writing into a pipe: plain text unless FORCE_COLOR asks for colours.
    const dir = project({ 'api.ts': API(-1) });
    const run = async (env: Record<string, string>) => {
      const failed = await exec(process.execPath, [BIN, 'generate'], { cwd: dir, env: { PATH: process.env['PATH'] ?? '', ...env } }).then(
        () => ({ stderr: '' }),
        (e: { stderr: string }) => e,
      );
      expect(failed.stderr).toContain('RG132');
      return failed.stderr;
    };
    expect(await run({})).not.toContain('\u001b[');
    expect(await run({ FORCE_COLOR: '1' })).toContain('\u001b[31m');
    expect(await run({ FORCE_COLOR: '1', NO_COLOR: '1' })).toContain('\u001b[31m');
  });

  it('prints what files and values say without their control characters: nothing quoted can drive the terminal', async () => {
    const hostile = 'a\u001b]0;owned\u0007\u001b[2J\r\u009bb';
    expect(terminalText(`x ${hostile}\n\ty`, false)).toBe('x a\\x1b]0;owned\\x07\\x1b[2J\\x0d\\x9bb\n\ty');
    // With colours on, colour sequences (restgen's own) stay; nothing else does.
    expect(terminalText('\u001b[31merror\u001b[39m \u001b[2J', true)).toBe('\u001b[31merror\u001b[39m \\x1b[2J');
    expect(terminalText('\u001b[31merror\u001b[39m', false)).toBe('\\x1b[31merror\\x1b[39m');
    // A lock file holding escape sequences, quoted by JSON.parse's message (RG181), as the real process prints it.
    const dir = projectWithRestgen(path.join(tmp.dir, `p${++count}`), { 'api.ts': API(), 'restgen.lock.json': `\u001b]0;owned\u0007\u001b[2J` });
    for (const color of [false, true]) {
      const failed = await exec(process.execPath, [BIN, 'generate'], {
        cwd: dir,
        env: { PATH: process.env['PATH'] ?? '', FORCE_COLOR: color ? '1' : '0' },
      }).then(
        () => ({ stderr: '' }),
        (e: { stderr: string }) => e,
      );
      expect(failed.stderr).toContain('RG181');
      expect(failed.stderr).toContain('\\x1b]0;owned\\x07\\x1b[2J');
      // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may be left.
      expect(failed.stderr.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
  });

  it('check says why each file is stale: edited by hand, missing, out of date, no longer generated', async () => {
    const dir = project({ 'api.ts': API().replace('v2: {}', 'v2: {}, v3: {}') });
    expect((await runCli(dir, ['generate'])).code).toBe(0);
    const edited = path.join(dir, 'generated/v1/notes.ts');
    writeFileSync(edited, readFileSync(edited, 'utf8').replace('max(100)', 'max(99)'));
    rmSync(path.join(dir, 'generated/client/index.ts'));
    writeFileSync(path.join(dir, 'api.ts'), API(120));
    const r = await runCli(dir, ['check']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('stale   generated/v1/notes.ts (edited by hand)');
    expect(r.err).toContain('stale   generated/client/index.ts (missing)');
    expect(r.err).toContain('stale   generated/v2/notes.ts (out of date)');
    expect(r.err).toContain('stale   generated/v3/schemas.ts (no longer generated)');
  });

  it('answers slips with one line and exit 2, never "unexpected error"', async () => {
    const dir = project({ 'api.ts': API(), 'notes.txt': 'x\n', 'src/keep.txt': 'x\n' });
    const slips: [string[], string][] = [
      [['generate', '--out', 'notes.txt'], 'restgen generate: --out notes.txt is a file, not a folder'],
      [['check', '--templates', 'tpl'], 'restgen check: --templates tpl does not exist'],
      [['generate', '--parts', ''], 'restgen generate: --parts needs one or more of zod, client, openapi, server, changes'],
      [['generate', 'src'], 'src:1:1: error RG001 this is a folder, not a module; pass the API module inside it, e.g. src/api.ts.'],
      [['serve', '--port', 'http'], 'restgen serve: --port must be a whole number from 0 to 65535 (got http)'],
    ];
    for (const [argv, says] of slips) {
      const r = await runCli(dir, argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toContain(says);
      expect(r.err).not.toContain('unexpected error');
    }
  });

  it('serve: a busy port is a one-line usage error', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      const r = await runCli(project(), ['serve', '--port', String(port)]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`restgen serve: port ${port} on 127.0.0.1 is in use; choose another with --port (or --port 0 for any free port).`);
      expect(r.err).not.toContain('unexpected error');
    } finally {
      busy.close();
    }
  }, 60_000);

  it('serve: a project without fastify is told what to install', async () => {
    // Outside this repository, so nothing resolves to restgen's own development packages.
    const dir = projectWithRestgen(path.join(os.tmpdir(), `restgen-serve-${process.pid}-${++count}`), { 'api.ts': API(), 'package.json': '{ "name": "x" }\n' });
    try {
      const r = await runCli(dir, ['serve', '--port', '0']);
      expect(r.code).toBe(2);
      // The API takes no bearer tokens: its server imports no jose, so jose is not asked for.
      expect(r.err).toContain(
        "restgen serve: the generated server needs @fastify/rate-limit, @restgen/runtime, fastify, zod in your project; install them with: npm install '@fastify/rate-limit@^10.3.0 || ^11.0.0' @restgen/runtime@^0.3.0 fastify@^5.1.0 zod@^4.0.0",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
