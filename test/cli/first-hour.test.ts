/**
 * The traps a new user meets in the first hour, through the built command line as a user runs it: a module that
 * fails to load (RG001) is reported at the line and column of what failed, in the user's own names, with "did you
 * mean" for a builder, a modifier or an export that does not exist, and a syntax error at TypeScript's own position;
 * and the lock refusals `restgen diff` must not hide.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { lineOf, tempDir } from '../helpers/temp-api.ts';
import { columnOf, projectWithRestgen, runBin } from './run-cli.ts';

const tmp = tempDir('first-hour');
afterAll(tmp.cleanup);

let count = 0;
const fresh = (files: Record<string, string>): string =>
  projectWithRestgen(path.join(tmp.dir, `p${++count}`), { 'package.json': '{ "name": "desk", "type": "module" }\n', ...files });

const DESK = `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'desk',
  versions: { v1: { released: '2026-01-15' }, v2: {} },
  collections: {
    tickets: collection({ fields: { id: f.id(), title: f.string().max(100), body: f.string() } }),
  },
});
`;

/** The same API with one call per line, so that a line can carry a `// <-` marker. */
const DESK_LINES = `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'desk',
  versions: { v1: { released: '2026-01-15' }, v2: {} },
  collections: {
    tickets: collection({
      fields: {
        id: f.id(),
        title: f.string().max(100),
        body: f.string(),
      },
    }),
  },
});
`;

/** The one RG001 line of a failed generate of `text`, and where `at` is on the line marked `// <-`. */
async function loadFailure(text: string, at: string): Promise<{ line: string; expected: string }> {
  const dir = fresh({ 'api.ts': text });
  const r = await runBin(dir, 'generate');
  expect(r.code, r.err).toBe(2);
  const lines = r.err.split('\n').filter((l) => l.includes(' error '));
  expect(lines, r.err).toHaveLength(1);
  const line = lineOf(text, '// <-');
  return { line: lines[0]!, expected: `api.ts:${line}:${columnOf(text, line, at)}: error RG001 the API module failed to load: ` };
}

describe('a module that fails to load (RG001)', () => {
  it("an unknown builder: its line and column, the user's names, and the builder meant", async () => {
    const r = await loadFailure(DESK_LINES.replace('title: f.string().max(100),', 'title: f.strng().max(100), // <-'), 'strng');
    expect(r.line).toBe(`${r.expected}\`f.strng\` is not a function; did you mean \`f.string()\`? Fix the error and run again.`);
  });

  it('an unknown modifier in a chain written over several lines, under the name f is imported as', async () => {
    const text = DESK_LINES.replace('import { collection, defineApi, f }', 'import { collection, defineApi, f as field }')
      .replace(/\bf\./g, 'field.')
      .replace('title: field.string().max(100),', 'title: field\n          .string()\n          .mx(100), // <-');
    const r = await loadFailure(text, 'mx');
    expect(r.line).toBe(`${r.expected}\`field.string().mx\` is not a function; did you mean \`.max()\`? Fix the error and run again.`);
  });

  it('a name not defined, and an import of a name restgen does not export', async () => {
    const undefinedName = await loadFailure(DESK_LINES.replace('tickets: collection({', 'tickets: colection({ // <-'), 'colection');
    expect(undefinedName.line).toBe(`${undefinedName.expected}\`colection\` is not defined; did you mean \`collection\`? Fix the error and run again.`);
    const text = DESK_LINES.replace('import { collection, defineApi, f }', 'import {\n  colection, // <-\n  defineApi,\n  f,\n}').replace(
      'tickets: collection(',
      'tickets: colection(',
    );
    const imported = await loadFailure(text, 'colection');
    expect(imported.line).toBe(
      `${imported.expected}the module 'restgen' does not provide an export named 'colection'; did you mean 'collection'? Fix the error and run again.`,
    );
  });

  it("a syntax error at TypeScript's own line and column", async () => {
    const text = DESK_LINES.replace("name: 'desk',", "name: 'desk' // <- no comma");
    const r = await loadFailure(text, 'name');
    // Where TypeScript's parser reports the same mistake (',' expected).
    const [diagnostic] = ts.transpileModule(text, { reportDiagnostics: true, fileName: 'api.ts' }).diagnostics ?? [];
    const at = ts.createSourceFile('api.ts', text, ts.ScriptTarget.Latest).getLineAndCharacterOfPosition(diagnostic!.start!);
    expect(at.line + 1, 'the line after the missing comma').toBe(lineOf(text, '// <-') + 1);
    expect(r.line).toMatch(new RegExp(`^api\\.ts:${at.line + 1}:${at.character + 1}: error RG001 the API module failed to load: syntax error: Expected \`,\``));
  });

  it('a module that throws: where the error was made, in an imported file too', async () => {
    const dir = fresh({
      'api.ts': DESK.replace(
        "import { collection, defineApi, f } from 'restgen';",
        "import { collection, defineApi, f } from 'restgen';\nimport { limit } from './limits.js';",
      ).replace('max(100)', 'max(limit)'),
      'limits.ts': "const table: Record<string, number> = {};\nexport const limit: number = table['title']!.valueOf();\n",
    });
    const r = await runBin(dir, 'generate');
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      `limits.ts:2:${columnOf("export const limit: number = table['title']!.valueOf();", 1, 'valueOf')}: error RG001 the API module failed to load: Cannot read properties of undefined (reading 'valueOf') in \`table[…].valueOf\`.`,
    );
  });
});

describe('a declared OAuth 2.0 scope no operation requires (RG305)', () => {
  it('is a warning at its declaration, naming why; the files are written', async () => {
    const text = `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'desk',
  versions: { v1: {} },
  auth: {
    oauth2: {
      flows: { clientCredentials: { tokenUrl: 'https://id.example.com/token' } },
      scopes: {
        'tickets:read': 'Read tickets',
        'tickets:write': 'Write tickets',
        'tickets:admin': 'Administer tickets', // <- admin
        'agents:read': 'Read agents', // <- agents
      },
    },
  },
  collections: {
    tickets: collection({ fields: { id: f.id(), title: f.string() }, scopes: { read: 'tickets:read', write: 'tickets:write' } }),
    agents: collection({ fields: { id: f.id(), name: f.string() }, scopes: { read: 'agents:read' }, public: ['list', 'get'] }),
  },
});
`;
    const dir = fresh({ 'api.ts': text });
    const r = await runBin(dir, 'generate');
    expect(r.code, r.err).toBe(0);
    const warnings = r.err.split('\n').filter((l) => l.includes(' RG305 '));
    const at = (marker: string, key: string) => `api.ts:${lineOf(text, marker)}:${columnOf(text, lineOf(text, marker), key)}: warning RG305 `;
    expect(warnings).toEqual([
      `${at('<- admin', "'tickets:admin'")}auth.oauth2.scopes: 'tickets:admin' is declared, but no operation requires it, so no token ever needs it; require it where it belongs (a collection's scopes: { read: 'tickets:admin' } on operations that are not public, or a transition's scopes), or remove it.`,
      expect.stringContaining(
        `${at('<- agents', "'agents:read'")}auth.oauth2.scopes: 'agents:read' is declared, and agents names it, but the operations it would guard are public`,
      ),
    ]);
    expect(r.err).toContain('written');
  });
});

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
