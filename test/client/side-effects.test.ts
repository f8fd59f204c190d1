/**
 * The generated client's modules have no side effects, as docs/guide/client-bundles.md says, so a bundler keeps
 * only what an app reaches. Checked two ways: no module of the client runtime (`runtime/client/`) or of the
 * examples' generated clients runs anything on import (at the top level only declarations; no import for its
 * effect), and a bundle of an app that calls `get` of a version without transitions carries none of the
 * transitions module (it used to register its error class into a shared table on import, which a bundler must keep).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'oxc-parser';
import { rolldown } from 'rolldown';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-api.ts';
import { generateInto, listFiles } from './generate-client.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = tempDir('client-side-effects');
afterAll(tmp.cleanup);

const PURE_CONSTRUCTORS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'RegExp', 'TextEncoder', 'TextDecoder']);

/** An expression that computes without effects: literals, functions, classes, and objects and arrays of them. */
function pure(node: Record<string, unknown> | null | undefined): boolean {
  if (node === null || node === undefined) return true;
  switch (node['type']) {
    case 'Literal':
    case 'TemplateLiteral':
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
    case 'Identifier':
      return true;
    case 'ClassExpression':
      return pureClass(node);
    case 'NewExpression':
      // The platform's collections and patterns, built empty or from pure values.
      return (
        (node['callee'] as Record<string, unknown>)['type'] === 'Identifier' &&
        PURE_CONSTRUCTORS.has(String((node['callee'] as Record<string, unknown>)['name'])) &&
        (node['arguments'] as Record<string, unknown>[]).every(pure)
      );
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
      return pure(node['expression'] as Record<string, unknown>);
    case 'ArrayExpression':
      return (node['elements'] as Record<string, unknown>[]).every(pure);
    case 'ObjectExpression':
      return (node['properties'] as Record<string, unknown>[]).every(
        (p) => p['type'] === 'Property' && !p['computed'] && pure(p['value'] as Record<string, unknown>),
      );
    default:
      return false;
  }
}

/** A class whose definition runs nothing: no static blocks, no static fields with effects, no computed keys. */
function pureClass(node: Record<string, unknown>): boolean {
  const body = (node['body'] as { body: Record<string, unknown>[] }).body;
  return body.every(
    (m) => m['type'] !== 'StaticBlock' && !m['computed'] && (!m['static'] || m['type'] !== 'PropertyDefinition' || pure(m['value'] as Record<string, unknown>)),
  );
}

/** What a module runs on import: its top-level statements other than declarations, and its imports for effect. */
function effectsOf(file: string, text: string): string[] {
  const { program, module } = parseSync(file, text);
  const found = module.staticImports.filter((i) => i.entries.length === 0).map((i) => `import for its effect: ${i.moduleRequest.value}`);
  for (const statement of program.body as unknown as Record<string, unknown>[]) {
    const declaration = (statement['type'] === 'ExportNamedDeclaration' ? statement['declaration'] : statement) as Record<string, unknown> | null;
    if (declaration === null) continue;
    const type = String(declaration['type']);
    if (/^(Import|Export(All|Named))Declaration$|^TS(Interface|TypeAlias|Module)Declaration$|^FunctionDeclaration$/.test(type)) continue;
    if (type === 'ClassDeclaration' && pureClass(declaration)) continue;
    if (type === 'VariableDeclaration' && (declaration['declarations'] as Record<string, unknown>[]).every((d) => pure(d['init'] as Record<string, unknown>)))
      continue;
    found.push(`${type} at ${String(declaration['start'])}`);
  }
  return found;
}

describe('the client on import', () => {
  it('runs nothing in any module of the client runtime', () => {
    const dir = path.join(ROOT, 'runtime/client');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(effectsOf(file, readFileSync(path.join(dir, file), 'utf8')), file).toEqual([]);
  });

  it("runs nothing in any module of the examples' generated clients", () => {
    for (const example of ['shop', 'header-versioning', 'ledger']) {
      const dir = path.join(ROOT, 'examples', example, 'generated/client');
      for (const file of listFiles(dir).filter((f) => f.endsWith('.ts')))
        expect(effectsOf(file, readFileSync(path.join(dir, file), 'utf8')), `${example}/${file}`).toEqual([]);
    }
  });

  it('finds an effect where there is one (the check can fail)', () => {
    expect(effectsOf('a.ts', 'import "./x.js";\nexport const A = {};\nA.b = 1;\nclass C { static { go(); } }\nconst d = make();')).toEqual([
      'import for its effect: ./x.js',
      'ExpressionStatement at 38',
      'ClassDeclaration at 47',
      'VariableDeclaration at 76',
    ]);
  });

  it('lets a bundler drop the transitions module from an app that calls get of a version without transitions', async () => {
    const { dir } = await generateInto('client-lifecycle-later', fileURLToPath(new URL('./fixtures/lifecycle-later-api.ts', import.meta.url)));
    const client = JSON.stringify(path.join(dir, 'client/index.js'));
    const bundle = async (name: string, app: string): Promise<string> => {
      const entry = path.join(tmp.dir, `${name}.ts`);
      writeFileSync(entry, app);
      const build = await rolldown({ input: entry, platform: 'browser', logLevel: 'silent', resolve: { extensionAlias: { '.js': ['.ts', '.js'] } } });
      const { output } = await build.generate({ format: 'esm', minify: true });
      await build.close();
      return output[0].code;
    };
    const v1 = await bundle(
      'v1-get',
      `import { createDeskV1Client } from ${client};\nawait createDeskV1Client({ baseUrl: 'https://desk.example' }).notes.get('n1');\n`,
    );
    expect(v1).toContain('notes:');
    expect(v1).not.toContain('invalid_transition');
    expect(v1).not.toContain('InvalidTransitionError');
    // A version with transitions keeps them: its namespace hands their error class to the transport.
    const v2 = await bundle(
      'v2-get',
      `import { createDeskV2Client } from ${client};\nawait createDeskV2Client({ baseUrl: 'https://desk.example' }).tickets.get('t1');\n`,
    );
    expect(v2).toContain('invalid_transition');
  });
});
