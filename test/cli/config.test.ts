/**
 * `restgen.config.ts`: what it sets (the API module, the output folder, templates, the parts to generate),
 * that flags win, that parts bring the parts they need, and one case per config or CLI-level diagnostic
 * (RG210-RG218) with its exact line and column.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../generator/model/diagnostics.ts';
import { lineOf, listFiles, tempDir, writeFiles } from '../helpers/temp-api.ts';
import { columnOf, projectWithRestgen, runCli } from './run-cli.ts';

const tmp = tempDir('config');
afterAll(tmp.cleanup);

const API = `import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'notes',
  versions: { v1: {}, v2: {} },
  collections: { notes: collection({ fields: { id: f.id(), title: f.string().max(100) } }) },
});
`;

const config = (body: string): string => `import { defineConfig } from 'restgen';\n\nexport default defineConfig({\n${body}\n});\n`;

let count = 0;
function project(files: Record<string, string>): string {
  return projectWithRestgen(path.join(tmp.dir, `p${++count}`), { 'api.ts': API, ...files });
}

/** Top-level entries of the output folder. */
const tops = (dir: string): string[] => readdirSync(dir).sort();

describe('the config file', () => {
  it('sets the API module, the output folder and the parts; paths are relative to the config file', async () => {
    const dir = project({ 'src/api.ts': API, 'restgen.config.ts': config(`  api: 'src/api.ts',\n  out: 'src/gen',\n  generate: ['client'],`) });
    const r = await runCli(dir, ['generate']);
    expect(r.code, r.err).toBe(0);
    expect(tops(path.join(dir, 'src/gen'))).toEqual(['client']);
    expect(existsSync(path.join(dir, 'generated'))).toBe(false);
    // --config names a config elsewhere; its paths stay relative to its own folder.
    const other = path.join(tmp.dir, `p${++count}`);
    writeFiles(other, {});
    const viaFlag = await runCli(other, ['check', '--config', path.join(dir, 'restgen.config.ts')]);
    expect(viaFlag.code, viaFlag.err).toBe(0);
  });

  it('lets flags win over the config', async () => {
    const dir = project({ 'restgen.config.ts': config(`  out: 'from-config',\n  generate: ['client'],`) });
    const r = await runCli(dir, ['generate', '--out', 'from-flag', '--parts', 'openapi']);
    expect(r.code, r.err).toBe(0);
    expect(tops(path.join(dir, 'from-flag'))).toEqual(['openapi']);
    expect(existsSync(path.join(dir, 'from-config'))).toBe(false);
  });

  it('adds the parts a part needs: server brings the zod schemas and the OpenAPI documents', async () => {
    const dir = project({ 'restgen.config.ts': config(`  generate: ['server'],`) });
    const r = await runCli(dir, ['generate']);
    expect(r.code, r.err).toBe(0);
    expect(tops(path.join(dir, 'generated'))).toEqual(['openapi', 'server', 'v1', 'v2', 'zod-helpers.ts']);
  });

  it('is not answered "up to date" from a run of other parts, and removes the parts no longer selected', async () => {
    const dir = project({});
    expect((await runCli(dir, ['generate', '--parts', 'client'])).code).toBe(0);
    const all = await runCli(dir, ['generate']);
    expect(all.err).not.toContain('up to date');
    expect(tops(path.join(dir, 'generated'))).toEqual(['CHANGES.md', 'UPGRADING.md', 'client', 'openapi', 'server', 'v1', 'v2', 'zod-helpers.ts']);
    expect((await runCli(dir, ['check', '--parts', 'client'])).err).toContain('(no longer generated)');
    const back = await runCli(dir, ['generate', '--parts', 'client']);
    expect(back.err).toContain('removed generated/server/index.ts');
    expect(listFiles(path.join(dir, 'generated')).every((f) => f.startsWith('client/'))).toBe(true);
  });
});

describe('the config file and restgen diff', () => {
  const TWO = API.replace('title: f.string().max(100)', "title: f.string().max(100), body: f.string().optional().addedIn('v2')");

  it('judges findings with diff.severity and fails on diff.failOn; the API module comes from the config; flags win', async () => {
    const dir = project({
      'src/api.ts': TWO,
      'restgen.config.ts': config(`  api: 'src/api.ts',\n  diff: { severity: { 'optional-field-added': 'breaking' }, failOn: 'breaking' },`),
    });
    const judged = await runCli(dir, ['diff', '--from', 'v1', '--to', 'v2', '--format', 'json']);
    expect(judged.code, judged.err).toBe(1);
    const report = JSON.parse(judged.out) as { findings: { id: string; level: string }[] };
    expect(report.findings.find((f) => f.id === 'optional-field-added')?.level).toBe('breaking');
    const flagged = await runCli(dir, ['diff', '--from', 'v1', '--to', 'v2', '--severity', 'optional-field-added=off']);
    expect(flagged.code, flagged.err).toBe(0);
    expect(flagged.out).not.toContain('optional-field-added');
  });

  it('records the reason given to generate --accept-breaking in the lock', async () => {
    const released = API.replace('v1: {}', "v1: { released: '2026-01-15' }");
    const dir = project({ 'api.ts': released });
    expect((await runCli(dir, ['generate'])).code).toBe(0);
    writeFiles(dir, { 'api.ts': released.replace('max(100)', 'max(50)') });
    const refused = await runCli(dir, ['generate']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('RG180');
    const accepted = await runCli(dir, ['generate', '--accept-breaking', 'titles are cut at 50 characters']);
    expect(accepted.code, accepted.err).toBe(0);
    const lock = JSON.parse(readFileSync(path.join(dir, 'restgen.lock.json'), 'utf8')) as { accepted?: { reason?: string }[] };
    expect(lock.accepted?.map((a) => a.reason)).toEqual(['titles are cut at 50 characters']);
    expect((await runCli(dir, ['check'])).code).toBe(0);
  });
});

interface Case {
  readonly code: keyof typeof DIAGNOSTIC_CODES;
  readonly files: Record<string, string>;
  /** The file the diagnostic names and the text whose position it must point at (on the line marked `// <-`, or `line`). */
  readonly file: string;
  readonly at: string;
  readonly line?: number;
  readonly says: string;
  readonly severity?: 'error' | 'warning';
}

const cases: Case[] = [
  {
    code: 'RG210',
    files: {
      'restgen.config.ts': `import { defineConfig } from 'restgen';\nconst out: string = 'gen';\nthrow new Error('no config for ' + out); // <-\nexport default defineConfig({ out });\n`,
    },
    file: 'restgen.config.ts',
    // Where the error was made, as the stack (and a debugger) says.
    at: 'new Error',
    says: 'the config file failed to load: no config for gen',
  },
  {
    code: 'RG210',
    files: { 'restgen.config.ts': `export default 5;\n` },
    file: 'restgen.config.ts',
    at: 'export',
    line: 1,
    says: "must export default defineConfig({...}) from 'restgen'",
  },
  {
    code: 'RG211',
    files: { 'restgen.config.ts': config(`  out: 5 as unknown as string, // <-`) },
    file: 'restgen.config.ts',
    at: 'out',
    says: 'out must be a string (got the number 5)',
  },
  {
    code: 'RG211',
    files: { 'restgen.config.ts': config(`  diff: { failOn: 'never' as 'none' }, // <-`) },
    file: 'restgen.config.ts',
    at: 'failOn',
    says: "diff.failOn must be one of 'breaking', 'warning', 'none'",
  },
  {
    code: 'RG212',
    files: { 'restgen.config.ts': config(`  outDir: 'gen', // <-`) },
    file: 'restgen.config.ts',
    at: 'outDir',
    says: "unknown option 'outDir' (did you mean 'out'?)",
  },
  {
    code: 'RG213',
    files: { 'restgen.config.ts': config(`  generate: ['client', 'sever' as 'server'], // <-`) },
    file: 'restgen.config.ts',
    at: 'generate',
    says: 'generate names "sever", which is not a part (did you mean \'server\'?)',
  },
  {
    code: 'RG214',
    files: { 'gen.txt': 'not a folder\n', 'restgen.config.ts': config(`  out: 'gen.txt', // <-`) },
    file: 'restgen.config.ts',
    at: 'out',
    says: "out 'gen.txt' is a file, not a folder",
  },
  {
    code: 'RG215',
    files: {
      'package.json': `{\n  "name": "shop",\n  "dependencies": { "fastify": "^5.0.0" } // <-\n}\n`.replace(' // <-', ''),
      'restgen.config.ts': config(`  generate: ['server'],`),
    },
    file: 'package.json',
    at: '"dependencies"',
    line: 3,
    says: "the generated code imports @fastify/rate-limit (^10.3.0 || ^11.0.0), which package.json does not list; install it with: npm install '@fastify/rate-limit@^10.3.0 || ^11.0.0' @restgen/runtime@^0.3.0 zod@^4.0.0",
    severity: 'warning',
  },
  {
    code: 'RG216',
    files: { 'restgen.config.ts': config(`  diff: {\n    severity: {\n      'rate-limit-lowerd': 'breaking', // <-\n    },\n  },`) },
    file: 'restgen.config.ts',
    at: "'rate-limit-lowerd'",
    says: "diff.severity names 'rate-limit-lowerd', which is not a finding id (did you mean 'rate-limit-lowered'?)",
  },
  {
    code: 'RG217',
    files: { 'restgen.config.ts': config(''), 'restgen.config.mjs': `export default {};\n` },
    file: 'restgen.config.mjs',
    at: 'export',
    line: 1,
    says: 'found restgen.config.ts and restgen.config.mjs; keep one config file',
  },
  {
    code: 'RG219',
    files: {
      'package.json': '{ "name": "shop", "type": "module", "dependencies": { "@restgen/runtime": "^0.3.0" } }\n',
      'node_modules/@restgen/runtime/package.json': '{ "name": "@restgen/runtime", "version": "0.0.9", "restgen": { "contract": 0 } } // <-\n'.replace(
        ' // <-',
        '',
      ),
    },
    file: 'node_modules/@restgen/runtime/package.json',
    at: '{',
    line: 1,
    says: 'the generated server needs @restgen/runtime ^0.3.0 (runtime contract 3), but 0.0.9 is installed (contract 0), and the server would refuse to start; install the right one with: npm install @restgen/runtime@^0.3.0',
    severity: 'warning',
  },
  {
    code: 'RG218',
    files: { 'restgen.config.ts': config(`  templates: 'my-templates', // <-`) },
    file: 'restgen.config.ts',
    at: 'templates',
    says: "templates 'my-templates' does not exist",
  },
];

describe('config and command-line diagnostics', () => {
  it('covers every code from RG210 to RG219 that exists', () => {
    const codes = Object.keys(DIAGNOSTIC_CODES).filter((c) => /^RG21\d$/.test(c));
    expect(codes.filter((c) => !cases.some((x) => x.code === c))).toEqual([]);
  });

  it.each(cases.map((c, i) => ({ ...c, name: `${c.code} #${i + 1}` })))('$name: $says', async (c) => {
    const dir = project(c.files);
    const r = await runCli(dir, ['generate']);
    const severity = c.severity ?? 'error';
    expect(r.code, r.err).toBe(severity === 'error' ? 2 : 0);
    const text = readFileSync(path.join(dir, c.file), 'utf8');
    const line = c.line ?? lineOf(text, '// <-');
    const reported = r.err.split('\n').filter((l) => l.includes(` ${c.code} `));
    expect(reported.length, r.err).toBeGreaterThan(0);
    expect(reported[0]).toContain(`${c.file}:${line}:${columnOf(text, line, c.at)}: ${severity} ${c.code} `);
    expect(r.err).toContain(c.says);
    if (severity === 'error') expect(existsSync(path.join(dir, 'generated'))).toBe(false);
  });

  it('reports each missing runtime package once, and nothing when package.json lists them all', async () => {
    const manifest = {
      name: 'shop',
      type: 'module',
      dependencies: { zod: '^4.0.0', '@restgen/runtime': '^0.3.0' },
      devDependencies: { fastify: '^5.0.0', '@fastify/rate-limit': '^11.0.0', jose: '^6.0.1' },
    };
    const dir = project({ 'package.json': JSON.stringify(manifest, null, 2) });
    const r = await runCli(dir, ['generate']);
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('RG215');
    const clientOnly = project({ 'package.json': '{ "name": "front" }\n' });
    expect((await runCli(clientOnly, ['generate', '--parts', 'client'])).err).not.toContain('RG215');
    const zod = await runCli(clientOnly, ['generate', '--parts', 'client,zod']);
    expect(zod.err.match(/RG215/g)).toHaveLength(1);
    expect(zod.err).toContain('install it with: npm install zod@^4.0.0');
  });

  it('asks for jose only when the API takes bearer tokens, and a server without them never imports it', async () => {
    const manifest =
      '{ "name": "shop", "dependencies": { "@restgen/runtime": "^0.3.0", "zod": "^4.0.0", "fastify": "^5.1.0", "@fastify/rate-limit": "^11.0.0" } }\n';
    const keysOnly = project({ 'package.json': manifest, 'api.ts': API.replace('collections:', "auth: { apiKey: { header: 'X-API-Key' } },\n  collections:") });
    const r = await runCli(keysOnly, ['generate', '--parts', 'server']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).not.toContain('RG215');
    const server = listFiles(path.join(keysOnly, 'generated/server'));
    const importers = server.filter((f) => /from "(jose|@restgen\/runtime\/jwt)"/.test(readFileSync(path.join(keysOnly, 'generated/server', f), 'utf8')));
    expect(importers).toEqual([]);
    expect((await runCli(keysOnly, ['generate', '--parts', 'server'])).err, 'an up-to-date run judges the same').not.toContain('RG215');

    const bearer = project({ 'package.json': manifest, 'api.ts': API.replace('collections:', 'auth: { bearer: {} },\n  collections:') });
    const b = await runCli(bearer, ['generate', '--parts', 'server']);
    expect(b.code, b.err).toBe(0);
    expect(b.err.match(/RG215/g)).toHaveLength(1);
    expect(b.err).toContain('the generated code imports jose (^6.0.1), which package.json does not list; install it with: npm install jose@^6.0.1');
    expect(readFileSync(path.join(bearer, 'generated/server/routes.ts'), 'utf8')).toContain('from "@restgen/runtime/jwt"');
  });
});
