/**
 * @module The import graph of restgen's own TypeScript sources, for the cycle check: every module of the given
 * folders and the modules it names in `import` and `export ... from` (type-only ones included: a type cycle still
 * ties two modules into one unit a reader must take in together), in `import(...)` calls and in `import('...')`
 * types. oxc-parser reads each file (it is already restgen's dependency, and parses the 500 files in well under a
 * second); specifiers resolve as TypeScript resolves them here: relative paths (`.ts` as written, or `.js` standing
 * for the `.ts` beside it, as the runtime package writes them) and the tsconfig `paths` aliases
 * (`@restgen/runtime`...). Package imports are not edges: they cannot lead back into these folders.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from 'oxc-parser';

/** The folders that must hold no import cycle: the generator, every workspace package's sources, the copied runtimes. */
export function cycleFreeFolders(root: string): string[] {
  const packages = readdirSync(path.join(root, 'packages'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(root, 'packages', d.name, 'src')))
    .map((d) => `packages/${d.name}/src`);
  return ['generator', ...packages.sort(), 'runtime'];
}

/** How one module names another. */
export type EdgeKind = 'value' | 'type' | 'dynamic';

/** One import of a module: the module it resolves to and how. */
export interface Edge {
  readonly to: string;
  readonly kind: EdgeKind;
}

/** Modules by path relative to the root, each with its imports inside the graph (sorted, one per target). */
export type ImportGraph = ReadonlyMap<string, readonly Edge[]>;

/** Every `.ts` file under `dir` (declaration files and `generated/` output excepted), relative to `root`, sorted. */
function sourcesUnder(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'generated' && entry.name !== 'dist') walk(child);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(child);
    }
  };
  walk(dir);
  return out.sort();
}

/** The specifiers a module names, each with the strongest way it names it (a value import wins over a type one). */
export function specifiersOf(file: string, text: string): Map<string, EdgeKind> {
  const parsed = parseSync(file, text);
  if (parsed.errors.length > 0) throw new Error(`${file}: ${parsed.errors[0]?.message ?? 'cannot be parsed'}`);
  const found = new Map<string, EdgeKind>();
  const add = (spec: string, kind: EdgeKind): void => {
    const had = found.get(spec);
    if (had === undefined || had === 'type' || (had === 'dynamic' && kind === 'value')) found.set(spec, kind);
  };
  for (const imp of parsed.module.staticImports) {
    // `import './x'` and `import { type A, b }` load the module; only a declaration whose every entry is a type does not.
    const typeOnly = imp.entries.length > 0 && imp.entries.every((e) => e.isType);
    add(imp.moduleRequest.value, typeOnly ? 'type' : 'value');
  }
  for (const exp of parsed.module.staticExports) {
    for (const entry of exp.entries) if (entry.moduleRequest) add(entry.moduleRequest.value, entry.isType ? 'type' : 'value');
  }
  for (const dyn of parsed.module.dynamicImports) {
    const literal = /^(['"])(.*)\1$/s.exec(text.slice(dyn.moduleRequest.start, dyn.moduleRequest.end));
    if (literal?.[2] !== undefined) add(literal[2], 'dynamic');
  }
  walk(parsed.program, (node) => {
    if (node['type'] !== 'TSImportType') return;
    // oxc gives the specifier as `source`, a string literal (TS-ESTree's `argument`, a TSLiteralType, elsewhere).
    const source = node['source'] as { value?: unknown } | undefined;
    const argument = node['argument'] as { literal?: { value?: unknown } } | undefined;
    const value = source?.value ?? argument?.literal?.value;
    if (typeof value === 'string') add(value, 'type');
  });
  return found;
}

type AstNode = Record<string, unknown>;

/** Calls `visit` on every node of an oxc AST. */
function walk(value: unknown, visit: (node: AstNode) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit);
  } else if (value !== null && typeof value === 'object') {
    const node = value as AstNode;
    if (typeof node['type'] === 'string') visit(node);
    for (const key in node) if (key !== 'parent') walk(node[key], visit);
  }
}

/** tsconfig `paths` as exact aliases (`@restgen/runtime` → `packages/runtime/src/index.ts`), relative to the root. */
export function aliasesOf(root: string): Map<string, string> {
  const text = readFileSync(path.join(root, 'tsconfig.json'), 'utf8');
  const config = JSON.parse(text) as { compilerOptions?: { paths?: Record<string, string[]> } };
  const aliases = new Map<string, string>();
  for (const [name, targets] of Object.entries(config.compilerOptions?.paths ?? {})) {
    const target = targets[0];
    if (target !== undefined && !name.includes('*')) aliases.set(name, path.posix.normalize(target));
  }
  return aliases;
}

/** The module `spec` names from `from` (both relative to the root), or undefined for a package outside the graph. */
function resolve(root: string, from: string, spec: string, aliases: ReadonlyMap<string, string>): string | undefined {
  const alias = aliases.get(spec);
  if (alias !== undefined) return alias;
  if (!spec.startsWith('.')) return undefined;
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  if (joined.endsWith('.ts')) return joined;
  const asTs = joined.replace(/\.js$/, '.ts');
  if (existsSync(path.join(root, asTs))) return asTs;
  return existsSync(path.join(root, joined)) ? joined : undefined;
}

/** A relative import that reaches into a workspace package's folder from outside it. */
export interface Crossing {
  readonly from: string;
  readonly spec: string;
  /** The package's folder (`packages/runtime`). */
  readonly into: string;
}

/**
 * Every relative import in a module under `dirs` that reaches into a workspace package (`packages/<name>/...`) from
 * outside that package: a package is read through the entries its `exports` declare (`@restgen/runtime/contract`),
 * never by a path into its sources.
 */
export function packageCrossings(root: string, dirs: readonly string[]): Crossing[] {
  const found: Crossing[] = [];
  for (const file of dirs.flatMap((dir) => sourcesUnder(root, dir))) {
    const own = /^packages\/[^/]+\//.exec(file)?.[0];
    for (const spec of specifiersOf(file, readFileSync(path.join(root, file), 'utf8')).keys()) {
      if (!spec.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      const into = /^packages\/[^/]+\//.exec(target)?.[0];
      if (into !== undefined && into !== own) found.push({ from: file, spec, into: into.slice(0, -1) });
    }
  }
  return found;
}

/** The import graph of every module under `dirs` (relative to `root`); edges to modules outside them are dropped. */
export function importGraph(root: string, dirs: readonly string[]): ImportGraph {
  const aliases = aliasesOf(root);
  const files = dirs.flatMap((dir) => sourcesUnder(root, dir));
  const inGraph = new Set(files);
  const graph = new Map<string, Edge[]>();
  for (const file of files) {
    const edges = new Map<string, EdgeKind>();
    for (const [spec, kind] of specifiersOf(file, readFileSync(path.join(root, file), 'utf8'))) {
      const to = resolve(root, file, spec, aliases);
      if (to === undefined || !inGraph.has(to)) continue;
      const had = edges.get(to);
      if (had === undefined || had === 'type' || (had === 'dynamic' && kind === 'value')) edges.set(to, kind);
    }
    graph.set(
      file,
      [...edges].map(([to, kind]) => ({ to, kind })).sort((a, b) => (a.to < b.to ? -1 : a.to > b.to ? 1 : 0)),
    );
  }
  return graph;
}
