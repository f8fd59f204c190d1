/**
 * Every TypeScript example in README.md and the docs compiles against the current restgen: each ```ts block is
 * written to a fresh folder as its own module and type-checked with the repository's strict settings (tsc, as
 * `npm run typecheck` runs it). A block imports `restgen` (the DSL), `restgen/contract` (both as built),
 * `@restgen/runtime`, `@restgen/conformance`, and generated code as
 * `./generated/...`: the shop example's (examples/shop/generated, linked into the folder), or, when the folder has
 * an API module of its own (a block whose first line is `// api.ts`), what restgen generates from it, so a page
 * that walks through its own API is checked against exactly that API. A block whose first line is a file name
 * comment (`// handlers.ts`) is written under that name, beside the page's other blocks, so examples of several
 * files import each other; a name that comes again starts a new folder, which keeps the previous folder's
 * `api.ts` (the same project with one file replaced). A block whose first line names a file of the repository
 * (`// examples/shop-postgres/db.ts`) shows that file, which the repository's own type-check compiles: it must be
 * that file's text (or, marked `(excerpt)`, a part of it). A fragment that cannot stand alone opts out with
 * ```ts no-check; opt-outs are counted, so they stay rare.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline/generate.ts';
import { markdownFiles, read, ROOT, typescriptBlocks, type CodeBlock } from './pages.ts';

const DIR = path.join(ROOT, 'test/.tmp/docs-examples');
const blocks = markdownFiles().flatMap((file) => typescriptBlocks(file, read(file)));
const checked = blocks.filter((b) => !/\bno-check\b/.test(b.info));

/** The repository file a block shows with its first line (`// examples/shop-postgres/db.ts (excerpt)`), if any. */
const shownFile = (b: CodeBlock): { readonly file: string; readonly excerpt: boolean } | undefined => {
  const m = /^\/\/ ((?:[\w.-]+\/)+[\w.-]+\.ts)( \(excerpt\))?\s*$/.exec(b.code.split('\n')[0] ?? '');
  return m ? { file: m[1]!, excerpt: m[2] !== undefined } : undefined;
};
const shown = checked.filter((b) => shownFile(b) !== undefined);
const compiled = checked.filter((b) => shownFile(b) === undefined);

/** The file a block declares with its first line (`// handlers.ts`), if any. */
const declaredName = (b: CodeBlock): string | undefined => /^\/\/ ([\w.-]+\.ts)\s*$/.exec(b.code.split('\n')[0] ?? '')?.[1];

/**
 * Where each block goes: a folder per page (another when a file name comes again, keeping the previous folder's
 * `api.ts` unless the block is one), and its file name there.
 */
function layout(list: readonly CodeBlock[]): Map<string, CodeBlock> {
  const out = new Map<string, CodeBlock>();
  const folderOf = new Map<string, number>();
  for (const b of list) {
    const page = b.file.replace(/[^a-z0-9]+/gi, '_');
    const name = declaredName(b) ?? `L${b.line}.ts`;
    let n = folderOf.get(page) ?? 0;
    if (out.has(`${page}_${n}/${name}`)) {
      const api = out.get(`${page}_${n}/api.ts`);
      folderOf.set(page, ++n);
      if (api && name !== 'api.ts') out.set(`${page}_${n}/api.ts`, api);
    }
    out.set(`${page}_${n}/${name}`, b);
  }
  return out;
}

/** Whether a folder's blocks import generated code. */
const importsGenerated = (files: Map<string, CodeBlock>, folder: string): boolean =>
  [...files].some(([file, b]) => path.dirname(file) === folder && /from '\.\/generated\//.test(b.code));

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** The repository's `paths` (its packages' sources), absolute. */
function rootPaths(): Record<string, string[]> {
  const own = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
  return Object.fromEntries(Object.entries(own.compilerOptions.paths).map(([name, to]) => [name, to.map((t) => path.join(ROOT, t))]));
}

describe('the TypeScript examples of the docs', () => {
  it('are found, and few opt out of the check', () => {
    expect(checked.length).toBeGreaterThan(10);
    expect(blocks.length - checked.length).toBeLessThanOrEqual(5);
  });

  it('that show a file of the repository show it as it is', () => {
    for (const b of shown) {
      const { file, excerpt } = shownFile(b)!;
      const where = `${b.file}:${b.line}: ${file}`;
      expect(existsSync(path.join(ROOT, file)), where).toBe(true);
      const code = b.code.split('\n').slice(1).join('\n');
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      if (excerpt) expect(text, where).toContain(code);
      else expect(`${code}\n`, where).toBe(text);
    }
  });

  it('type-check against the current restgen, the runtime and the generated code they import', async () => {
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    const files = layout(compiled);
    const ownApis: string[] = [];
    for (const [file, b] of files) {
      const folder = path.join(DIR, path.dirname(file));
      if (!existsSync(folder)) {
        mkdirSync(folder);
        if (files.has(`${path.dirname(file)}/api.ts`)) ownApis.push(path.dirname(file));
        else symlinkSync(path.join(ROOT, 'examples/shop/generated'), path.join(folder, 'generated'), 'dir');
      }
      // The header is one line, so line n of the module is line n - 1 of the block.
      writeFileSync(path.join(DIR, file), `// ${b.file}:${b.line}\n${b.code}\nexport {};\n`);
    }
    for (const folder of ownApis.filter((f) => importsGenerated(files, f))) {
      const result = await generate({ apiPath: path.join(DIR, folder, 'api.ts') });
      const errors = result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${files.get(`${folder}/api.ts`)!.file}: ${d.code} ${d.message}`);
      expect(errors, folder).toEqual([]);
    }
    writeFileSync(
      path.join(DIR, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../../tsconfig.json',
        // Examples show values they do not use (`const old = await ...`), and handlers that end without a return
        // (a delete), as users write them; everything else stays as strict as the repository. restgen's declared
        // entries resolve to its build, as in a user's project (`restgen` does so by the package's own name).
        compilerOptions: {
          noUnusedLocals: false,
          noUnusedParameters: false,
          noImplicitReturns: false,
          paths: { ...rootPaths(), 'restgen/contract': [path.join(ROOT, 'dist/contract.d.ts')] },
        },
        include: ['*/*.ts'],
        exclude: [],
      }),
    );
    let output = '';
    try {
      execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript-native/bin/tsc'), '--noEmit', '-p', path.join(DIR, 'tsconfig.json')], {
        cwd: ROOT,
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    // Point each error at the Markdown line it comes from.
    const located = output.replace(/^(?:.*?docs-examples\/)?([\w.-]+\/[\w.-]+\.ts)\((\d+),(\d+)\)/gm, (whole, name: string, line: string, col: string) => {
      const b = files.get(name);
      return b ? `${b.file}:${b.line + Number(line) - 2}:${col}` : whole;
    });
    expect(located).toBe('');
  }, 180_000);
});
