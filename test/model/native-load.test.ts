/**
 * Loading the API module with restgen's one loader (oxc's native transform): every call site a diagnostic prints is
 * the line the user wrote, although the transform prints the code anew (lines move; its source maps bring them
 * back), and the module's own imports of JavaScript, CommonJS and JSON load too.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { CallSite } from '../../generator/dsl/defs.ts';
import { sourceLines } from '../../generator/dsl/call-site.ts';
import { loadApi } from '../../generator/load/load-api.ts';
import { buildApi } from '../../generator/model/build.ts';
import { checkApi } from '../../generator/model/check.ts';
import { DiagnosticBag } from '../../generator/model/diagnostics.ts';
import { lineOf, tempDir, writeFiles } from '../helpers/temp-api.ts';

const tmp = tempDir('native-load');
afterAll(tmp.cleanup);

// Types, an enum, a multi-line chain and a relative import written with `.js`: the native transform
// reformats every one of these lines (quotes, indentation, one array item per line).
const MAIN = `import { collection, defineApi, f } from 'restgen';
import { money, type Money } from './parts/money.js';

enum Tier { Free = 'free', Pro = 'pro' }
const tiers: [string, ...string[]] = [Tier.Free, Tier.Pro];
const price: Money = money();

export default defineApi({
  name: 'native', versions: { v1: {} },
  collections: {
    things: collection({ fields: {
      id: f.id(),
      tier: f.enum(tiers).default(Tier.Free).description(\`tier\`),
      price,
      title: f
        .string()
        .min(5)
        .max(2), // <- max
      code: f.string().pattern(/^[A-Z]{3}$/).example('abc'), // <- example
    } }),
  },
});
`;
const MONEY = `import { f } from 'restgen';
export type Money = ReturnType<typeof f.number>;
export const money = (): Money =>
  f.number().min(0); // <- money
`;

writeFiles(tmp.dir, { 'api.ts': MAIN, 'parts/money.ts': MONEY });
const apiFile = `${tmp.dir}/api.ts`;

async function diagnosticsOf() {
  const loaded = await loadApi(apiFile);
  if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));
  const bag = new DiagnosticBag();
  checkApi(buildApi(loaded.def, loaded.source, bag), bag);
  return { loaded, diagnostics: bag.items };
}

function siteOf(value: unknown, member: string): CallSite | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const site = (value as { calls?: Record<string, CallSite> }).calls?.[member];
  return site;
}

describe('loading an API module', () => {
  it('loads the module and the TypeScript files it imports', async () => {
    const { loaded } = await diagnosticsOf();
    expect(loaded.files).toEqual(expect.arrayContaining([apiFile, `${tmp.dir}/parts/money.ts`]));
    // The transform prints code anew: the loader registers how its lines map back.
    expect(sourceLines().has(apiFile)).toBe(true);
  });

  it('reports diagnostics at the lines the calls were written on', async () => {
    const { diagnostics } = await diagnosticsOf();
    const lines = diagnostics.map((d) => ({ code: d.code, line: d.loc?.line, file: d.loc?.file }));
    expect(lines).toContainEqual(expect.objectContaining({ line: lineOf(MAIN, '<- max'), file: apiFile }));
    expect(lines).toContainEqual(expect.objectContaining({ line: lineOf(MAIN, '<- example'), file: apiFile }));
  });

  it("records call sites in an imported file at that file's lines", async () => {
    const { loaded } = await diagnosticsOf();
    const options = loaded.def.options as { collections: Record<string, { options: { fields: Record<string, { def: unknown }> } }> };
    const fields = options.collections['things']!.options.fields;
    const site = siteOf(fields['price']!.def, 'min');
    expect(site?.file).toBe(`${tmp.dir}/parts/money.ts`);
    expect(site?.line).toBe(lineOf(MONEY, '<- money'));
    expect(siteOf(fields['title']!.def, 'min')?.line).toBe(lineOf(MAIN, '.min(5)'));
  });
});

describe('a module that fails, or imports JavaScript', () => {
  it('a module that throws is reported at its own line, and registers no line maps', async () => {
    const src = `import { defineApi } from 'restgen';\n\nconst x: number = 1;\nthrow new Error('broken on purpose'); // <- throw\nexport default defineApi({ name: 'x', versions: { v1: {} }, collections: {} });\n`;
    writeFiles(tmp.dir, { 'throws.ts': src });
    const loaded = await loadApi(`${tmp.dir}/throws.ts`);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.diagnostics[0]).toMatchObject({ code: 'RG001', loc: { file: `${tmp.dir}/throws.ts`, line: lineOf(src, '<- throw') } });
    expect(loaded.diagnostics[0]!.message).toContain('broken on purpose');
    expect(sourceLines().has(`${tmp.dir}/throws.ts`)).toBe(false);
  });

  it('loads JSON, CommonJS, top-level await and a package that exports only an import entry (ES modules only)', async () => {
    writeFiles(tmp.dir, {
      'node_modules/esm-only/package.json': JSON.stringify({ name: 'esm-only', type: 'module', exports: { '.': { import: './index.js' } } }),
      'node_modules/esm-only/index.js': 'export const prefix = "esm";\n',
      'limits.json': '{ "max": 40 }\n',
      'limits.cjs': 'module.exports = { min: 2 };\n',
      'mixed.ts': `import { collection, defineApi, f } from 'restgen';
import { prefix } from 'esm-only';
import limits from './limits.json' with { type: 'json' };
import cjs from './limits.cjs';
const max: number = await Promise.resolve(limits.max);
export default defineApi({ name: prefix, versions: { v1: {} }, collections: { a: collection({ fields: { id: f.id(), t: f.string().min(cjs.min).max(max) } }) } });
`,
    });
    const loaded = await loadApi(`${tmp.dir}/mixed.ts`);
    if (!loaded.ok) throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));
    const options = loaded.def.options as { name: string; collections: { a: { options: { fields: { t: { def: { min: number; max: number } } } } } } };
    expect(options.name).toBe('esm');
    expect(options.collections.a.options.fields.t.def).toMatchObject({ min: 2, max: 40 });
    // The package's files are inputs too (a change there makes the output stale).
    expect(loaded.files).toEqual(expect.arrayContaining([`${tmp.dir}/node_modules/esm-only/index.js`, `${tmp.dir}/limits.json`, `${tmp.dir}/limits.cjs`]));
  });

  it('loads a module that imports a relative JavaScript file', async () => {
    writeFiles(tmp.dir, {
      'with-js.ts': `import { defineApi, collection, f } from 'restgen';\nimport { name } from './name.mjs';\nexport default defineApi({ name, versions: { v1: {} }, collections: { a: collection({ fields: { id: f.id() } }) } });\n`,
      'name.mjs': `export const name = 'from-js';\n`,
    });
    const loaded = await loadApi(`${tmp.dir}/with-js.ts`);
    expect(loaded.ok && (loaded.def.options as { name: string }).name).toBe('from-js');
  });
});
