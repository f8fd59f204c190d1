/**
 * Loading the API module with oxc's native transform (and its fallback, jiti with sucrase): both give the same
 * definition, and every call site a diagnostic prints is the line the user wrote, although the native transform
 * prints the code anew (lines move; its source maps bring them back).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { CallSite } from '../../generator/dsl/defs.ts';
import { sourceLines } from '../../generator/dsl/call-site.ts';
import { loadApi, type TransformChoice } from '../../generator/load/load-api.ts';
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

async function diagnosticsOf(transform: TransformChoice) {
  const loaded = await loadApi(apiFile, transform);
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

describe.each(['native', 'sucrase'] as const)('loading with %s first', (transform) => {
  it('loads the module and the TypeScript files it imports', async () => {
    const { loaded } = await diagnosticsOf(transform);
    expect(loaded.files).toEqual(expect.arrayContaining([apiFile, `${tmp.dir}/parts/money.ts`]));
    // Only the native path registers how its lines map back; the fallback runs code with the file's own lines.
    expect(sourceLines().has(apiFile)).toBe(transform === 'native');
  });

  it('reports diagnostics at the lines the calls were written on', async () => {
    const { diagnostics } = await diagnosticsOf(transform);
    const lines = diagnostics.map((d) => ({ code: d.code, line: d.loc?.line, file: d.loc?.file }));
    expect(lines).toContainEqual(expect.objectContaining({ line: lineOf(MAIN, '<- max'), file: apiFile }));
    expect(lines).toContainEqual(expect.objectContaining({ line: lineOf(MAIN, '<- example'), file: apiFile }));
  });

  it('records call sites in an imported file at that file\'s lines', async () => {
    const { loaded } = await diagnosticsOf(transform);
    const options = loaded.def.options as { collections: Record<string, { options: { fields: Record<string, { def: unknown }> } }> };
    const fields = options.collections['things']!.options.fields;
    const site = siteOf(fields['price']!.def, 'min');
    expect(site?.file).toBe(`${tmp.dir}/parts/money.ts`);
    expect(site?.line).toBe(lineOf(MONEY, '<- money'));
    expect(siteOf(fields['title']!.def, 'min')?.line).toBe(lineOf(MAIN, '.min(5)'));
  });
});

describe('a module the native path cannot load', () => {
  it('is loaded the compatible way: a module that throws is reported at its own line', async () => {
    const src = `import { defineApi } from 'restgen';\n\nconst x: number = 1;\nthrow new Error('broken on purpose'); // <- throw\nexport default defineApi({ name: 'x', versions: { v1: {} }, collections: {} });\n`;
    writeFiles(tmp.dir, { 'throws.ts': src });
    const loaded = await loadApi(`${tmp.dir}/throws.ts`);
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.diagnostics[0]).toMatchObject({ code: 'RG001', loc: { file: `${tmp.dir}/throws.ts`, line: lineOf(src, '<- throw') } });
    expect(loaded.diagnostics[0]!.message).toContain('broken on purpose');
    expect(sourceLines().has(`${tmp.dir}/throws.ts`)).toBe(false);
  });

  it('is loaded the compatible way when it imports a relative JavaScript file', async () => {
    writeFiles(tmp.dir, {
      'with-js.ts': `import { defineApi, collection, f } from 'restgen';\nimport { name } from './name.mjs';\nexport default defineApi({ name, versions: { v1: {} }, collections: { a: collection({ fields: { id: f.id() } }) } });\n`,
      'name.mjs': `export const name = 'from-js';\n`,
    });
    const loaded = await loadApi(`${tmp.dir}/with-js.ts`);
    expect(loaded.ok && (loaded.def.options as { name: string }).name).toBe('from-js');
    expect(sourceLines().has(`${tmp.dir}/with-js.ts`)).toBe(false);
  });
});
