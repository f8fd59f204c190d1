/**
 * Every TypeScript example in README.md and the docs compiles against the current restgen: each ```ts block is
 * written to a fresh folder as its own module and type-checked with the repository's strict settings (tsc, as
 * `npm run typecheck` runs it). A block imports `restgen` (the DSL), `@restgen/runtime`, and the shop example's
 * generated code as `./generated/...` (examples/shop/generated, linked into the folder). A block whose first line is
 * a file name comment (`// handlers.ts`) is written under that name, beside the page's other blocks, so examples of
 * several files import each other; a name that comes again starts a new folder. A fragment that cannot stand alone
 * opts out with ```ts no-check; opt-outs are counted, so they stay rare.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { markdownFiles, read, ROOT, typescriptBlocks, type CodeBlock } from './pages.ts';

const DIR = path.join(ROOT, 'test/.tmp/docs-examples');
const blocks = markdownFiles().flatMap((file) => typescriptBlocks(file, read(file)));
const checked = blocks.filter((b) => !/\bno-check\b/.test(b.info));

/** The file a block declares with its first line (`// handlers.ts`), if any. */
const declaredName = (b: CodeBlock): string | undefined => /^\/\/ ([\w.-]+\.ts)\s*$/.exec(b.code.split('\n')[0] ?? '')?.[1];

/** Where each block goes: a folder per page (another when a file name comes again), and its file name there. */
function layout(list: readonly CodeBlock[]): Map<string, CodeBlock> {
  const out = new Map<string, CodeBlock>();
  const folderOf = new Map<string, number>();
  for (const b of list) {
    const page = b.file.replace(/[^a-z0-9]+/gi, '_');
    const name = declaredName(b) ?? `L${b.line}.ts`;
    let n = folderOf.get(page) ?? 0;
    if (out.has(`${page}_${n}/${name}`)) folderOf.set(page, ++n);
    out.set(`${page}_${n}/${name}`, b);
  }
  return out;
}

afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe('the TypeScript examples of the docs', () => {
  it('are found, and few opt out of the check', () => {
    expect(checked.length).toBeGreaterThan(10);
    expect(blocks.length - checked.length).toBeLessThanOrEqual(5);
  });

  it('type-check against the current restgen, the runtime and the shop example', () => {
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    const files = layout(checked);
    for (const [file, b] of files) {
      const folder = path.join(DIR, path.dirname(file));
      if (!existsSync(folder)) {
        mkdirSync(folder);
        symlinkSync(path.join(ROOT, 'examples/shop/generated'), path.join(folder, 'generated'), 'dir');
      }
      // The header is one line, so line n of the module is line n - 1 of the block.
      writeFileSync(path.join(DIR, file), `// ${b.file}:${b.line}\n${b.code}\nexport {};\n`);
    }
    writeFileSync(
      path.join(DIR, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../../tsconfig.json',
        // Examples show values they do not use (`const old = await ...`), and handlers that end without a return
        // (a delete), as users write them; everything else stays as strict as the repository.
        compilerOptions: { noUnusedLocals: false, noUnusedParameters: false, noImplicitReturns: false },
        include: ['*/*.ts'],
        exclude: [],
      }),
    );
    let output = '';
    try {
      execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript-native/bin/tsc'), '--noEmit', '-p', path.join(DIR, 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    // Point each error at the Markdown line it comes from.
    const located = output.replace(/^(?:.*?docs-examples\/)?([\w.-]+\/[\w.-]+\.ts)\((\d+),(\d+)\)/gm, (whole, name: string, line: string, col: string) => {
      const b = files.get(name);
      return b ? `${b.file}:${b.line + Number(line) - 2}:${col}` : whole;
    });
    expect(located).toBe('');
  });
});
