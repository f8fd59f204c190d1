/**
 * The structure checks `npm run structure` runs on restgen's own sources (`scripts/structure/`): the import graph
 * (type-only, `.js`-for-`.ts`, dynamic and `import()` type imports, tsconfig aliases), cycles in it, cycles between
 * folders, and exported type names declared twice. Each on small folders made here, where the answer is known.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { components, describeCycle, findCycles } from '../../scripts/structure/find-cycles.ts';
import { folderGraph, generatorFolderOf } from '../../scripts/structure/folder-graph.ts';
import { importGraph, type Edge, type ImportGraph } from '../../scripts/structure/import-graph.ts';
import { exportedTypeNames, typeNameClashes } from '../../scripts/structure/type-names.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding `files` (relative path → text) and a tsconfig with one `paths` alias. */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'restgen-structure-'));
  dirs.push(root);
  const all = { 'tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@pkg/lib': ['./pkg/src/index.ts'] } } }), ...files };
  for (const [file, text] of Object.entries(all)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

const graphOf = (edges: Record<string, readonly (string | [string, Edge['kind']])[]>): ImportGraph =>
  new Map(
    Object.entries(edges).map(([from, to]) => [from, to.map((t) => (typeof t === 'string' ? { to: t, kind: 'value' as const } : { to: t[0], kind: t[1] }))]),
  );

describe('the import graph', () => {
  it('follows every way a module names another, and only modules inside the folders', () => {
    const root = project({
      'src/a.ts': "import type { B } from './b.ts';\nimport { readFileSync } from 'node:fs';\nexport type A = B;\n",
      'src/b.ts': "import { c } from './c.js';\nexport type B = typeof c;\n",
      'src/c.ts': "export const c = 1;\nexport const later = () => import('./d.ts');\n",
      'src/d.ts': "export type E = typeof import('./e.ts').e;\nexport * from '@pkg/lib';\n",
      'src/e.ts': "import { helper } from '../outside/helper.ts';\nexport const e = helper;\n",
      'src/f.ts': "import { type B, c } from './mixed.ts';\nimport './side-effect.ts';\nexport type { A } from './a.ts';\n",
      'src/mixed.ts': 'export type B = 1;\nexport const c = 1;\n',
      'src/side-effect.ts': 'globalThis.x = 1;\n',
      'src/types.d.ts': "import './a.ts';\n",
      'pkg/src/index.ts': 'export const lib = 1;\n',
      'outside/helper.ts': 'export const helper = 1;\n',
    });
    const graph = importGraph(root, ['src', 'pkg/src']);
    expect([...graph.keys()]).toEqual([
      'src/a.ts',
      'src/b.ts',
      'src/c.ts',
      'src/d.ts',
      'src/e.ts',
      'src/f.ts',
      'src/mixed.ts',
      'src/side-effect.ts',
      'pkg/src/index.ts',
    ]);
    expect(graph.get('src/a.ts')).toEqual([{ to: 'src/b.ts', kind: 'type' }]);
    expect(graph.get('src/b.ts')).toEqual([{ to: 'src/c.ts', kind: 'value' }]);
    expect(graph.get('src/c.ts')).toEqual([{ to: 'src/d.ts', kind: 'dynamic' }]);
    expect(graph.get('src/d.ts')).toEqual([
      { to: 'pkg/src/index.ts', kind: 'value' },
      { to: 'src/e.ts', kind: 'type' },
    ]);
    // A module outside the folders cannot lead back into them.
    expect(graph.get('src/e.ts')).toEqual([]);
    expect(graph.get('src/f.ts')).toEqual([
      { to: 'src/a.ts', kind: 'type' },
      { to: 'src/mixed.ts', kind: 'value' },
      { to: 'src/side-effect.ts', kind: 'value' },
    ]);
  });

  it('refuses a module it cannot parse, naming it', () => {
    const root = project({ 'src/broken.ts': 'export const = ;\n' });
    expect(() => importGraph(root, ['src'])).toThrow(/src\/broken\.ts/);
  });
});

describe('cycles', () => {
  it('finds a cycle of type-only, value and dynamic imports, as the modules and the way each imports the next', () => {
    const cycles = findCycles(graphOf({ 'a.ts': [['b.ts', 'type']], 'b.ts': ['c.ts'], 'c.ts': [['a.ts', 'dynamic']], 'd.ts': ['a.ts'] }));
    expect(cycles).toEqual([{ modules: ['a.ts', 'b.ts', 'c.ts'], kinds: ['type', 'value', 'dynamic'], component: 3 }]);
    expect(describeCycle(cycles[0]!)).toBe('a.ts → (type) b.ts → c.ts → (dynamic) a.ts');
  });

  it('finds nothing in a graph without cycles, diamonds included', () => {
    expect(findCycles(graphOf({ 'a.ts': ['b.ts', 'c.ts'], 'b.ts': ['d.ts'], 'c.ts': ['d.ts'], 'd.ts': [] }))).toEqual([]);
  });

  it('shows one shortest cycle per group of modules that import each other, and says how many there are', () => {
    const graph = graphOf({
      'a.ts': ['b.ts'],
      'b.ts': ['c.ts', 'a.ts'],
      'c.ts': ['d.ts'],
      'd.ts': ['a.ts'],
      'x.ts': ['x.ts'],
    });
    const cycles = findCycles(graph);
    expect(cycles.map((c) => c.modules)).toEqual([['a.ts', 'b.ts'], ['x.ts']]);
    expect(describeCycle(cycles[0]!)).toBe('a.ts → b.ts → a.ts [4 modules import each other]');
  });

  it('walks a chain of 20,000 modules without running out of stack', () => {
    const edges: Record<string, string[]> = {};
    for (let i = 0; i < 20_000; i++) edges[`m${i}.ts`] = [`m${(i + 1) % 20_000}.ts`];
    expect(components(graphOf(edges))[0]).toHaveLength(20_000);
  });
});

describe('folders', () => {
  it('finds two folders of the generator that import each other, naming a module import behind each direction', () => {
    const graph = graphOf({
      'generator/emit/a.ts': ['generator/report/view.ts', ['generator/emit/b.ts', 'type']],
      'generator/emit/b.ts': [],
      'generator/report/view.ts': [['generator/emit/b.ts', 'type']],
      'generator/model/ir.ts': [],
      'generator/package-root.ts': ['generator/model/ir.ts'],
    });
    const folders = folderGraph(graph, generatorFolderOf);
    expect(findCycles(folders.graph).map((c) => c.modules)).toEqual([['generator/emit', 'generator/report']]);
    expect(folders.witness.get('generator/report\0generator/emit')).toBe('generator/report/view.ts → generator/emit/b.ts');
    expect(
      findCycles(folderGraph(graphOf({ 'generator/emit/a.ts': ['generator/report/view.ts'], 'generator/report/view.ts': [] }), generatorFolderOf).graph),
    ).toEqual([]);
  });
});

describe('type names', () => {
  it('counts declared and exported types, not re-exports, locals or values', () => {
    const text = [
      'export interface Part { a: 1 }',
      'export type Mode = 1;',
      'export class Store {}',
      'export enum Level { A }',
      'interface Local {}',
      "export type { Other } from './other.ts';",
      'export const value = 1;',
    ].join('\n');
    expect(exportedTypeNames('a.ts', text)).toEqual(['Part', 'Mode', 'Store', 'Level']);
  });

  it('finds a name two modules declare', () => {
    const root = project({
      'g/a.ts': 'export interface Part { a: 1 }\n',
      'g/b.ts': "export type Part = 'server' | 'client';\n",
      'g/c.ts': "export type { Part } from './a.ts';\n",
    });
    expect(typeNameClashes(root, ['g/a.ts', 'g/b.ts', 'g/c.ts'])).toEqual([['Part', ['g/a.ts', 'g/b.ts']]]);
  });
});
