/**
 * The generated code of every example compiles where users compile it: under TypeScript 5.9 and the current major
 * (7, native), each with `lib: ["es2023", "dom"]` (a common setting without `dom.iterable`), with `dom.iterable`,
 * and with Node's types only (no DOM lib, the generated servers too), at the strictest common settings. One tsc
 * program per cell, over the committed output of the examples (test/golden keeps it fresh); the cells run at once.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-api.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const EXAMPLES = ['shop', 'header-versioning', 'ledger'];

/** The compilers: the repository's `typescript` (5.9) and `typescript-native` (the current major). */
const COMPILERS = ['typescript', 'typescript-native'].map((name) => {
  const version = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  return { name, version, tsc: path.join(ROOT, 'node_modules', name, 'bin/tsc') };
});

/** The `lib` settings: a client compiles under each; a server needs Node's types, so it compiles in the Node cell. */
const LIBS = [
  { name: 'es2023 + dom', lib: ['es2023', 'dom'], types: [] as string[], servers: false },
  { name: 'es2023 + dom + dom.iterable', lib: ['es2023', 'dom', 'dom.iterable'], types: [] as string[], servers: false },
  { name: "es2023 + Node's types", lib: ['es2023'], types: ['node'], servers: true },
];

const STRICTEST = {
  target: 'es2022',
  module: 'nodenext',
  moduleResolution: 'nodenext',
  strict: true,
  noUnusedLocals: true,
  noUnusedParameters: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noImplicitReturns: true,
  noFallthroughCasesInSwitch: true,
  noPropertyAccessFromIndexSignature: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  // Fastify's and zod's own declarations are theirs to check; the generated code is checked in full.
  skipLibCheck: true,
  noEmit: true,
};

const CELLS = COMPILERS.flatMap((compiler) => LIBS.map((lib) => ({ compiler, lib, name: `TypeScript ${compiler.version}, ${lib.name}` })));

let tmp: { dir: string; cleanup: () => void };
const outputs = new Map<string, Promise<string>>();

/** Runs one cell's program; resolves with tsc's output (empty when clean). */
async function compile(cell: (typeof CELLS)[number], i: number): Promise<string> {
  const entries = EXAMPLES.flatMap((example) => {
    const generated = path.join(ROOT, 'examples', example, 'generated');
    return [path.join(generated, 'client/index.ts'), ...(cell.lib.servers ? [path.join(generated, 'server/index.ts')] : [])];
  });
  const config = path.join(tmp.dir, `tsconfig.${i}.json`);
  writeFileSync(config, JSON.stringify({ compilerOptions: { ...STRICTEST, lib: cell.lib.lib, types: cell.lib.types }, files: entries }));
  try {
    await promisify(execFile)(process.execPath, [cell.compiler.tsc, '-p', config], { cwd: ROOT });
    return '';
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return `${stdout ?? ''}${stderr ?? ''}` || String(error);
  }
}

beforeAll(() => {
  // Inside the repository, so that the servers' packages and Node's types resolve as in a project.
  tmp = tempDir('compile-matrix');
  CELLS.forEach((cell, i) => outputs.set(cell.name, compile(cell, i)));
});
afterAll(async () => {
  await Promise.allSettled(outputs.values());
  tmp?.cleanup();
});

describe('the examples\u2019 generated code compiles', () => {
  it('under TypeScript 5.9 and the current major', () => {
    expect(COMPILERS.map((c) => Number(c.version.split('.')[0]))).toEqual([5, 7]);
    expect(COMPILERS[0]!.version).toMatch(/^5\.9\./);
  });

  // The six programs share the machine (about 5 s of CPU together on a quiet one, most of it TypeScript 5.9 on the
  // servers' zod schemas): the wait is bounded generously, since a loaded machine stretches it.
  it.each(CELLS.map((c) => c.name))('%s', { timeout: 180_000 }, async (name) => {
    expect(await outputs.get(name)).toBe('');
  });
});
