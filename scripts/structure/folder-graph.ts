/**
 * @module The import graph one level up: folders instead of modules, so "one direction of flow" between the
 * generator's stages (`model` → `emit` → ..., never back) is checked like module cycles are. Each folder edge keeps
 * one module import that makes it, to name in a message.
 */
import type { Edge, ImportGraph } from './import-graph.ts';

/** A graph of folders, and for each folder edge (`from\0to`) one module import behind it (`a.ts → b.ts`). */
export interface FolderGraph {
  readonly graph: ImportGraph;
  readonly witness: ReadonlyMap<string, string>;
}

/**
 * The graph of the folders `folderOf` puts modules in (modules it answers undefined for are left out); imports
 * inside one folder are not edges.
 */
export function folderGraph(graph: ImportGraph, folderOf: (module: string) => string | undefined): FolderGraph {
  const edges = new Map<string, Map<string, Edge>>();
  const witness = new Map<string, string>();
  for (const [module, imports] of graph) {
    const from = folderOf(module);
    if (from === undefined) continue;
    const out = edges.get(from) ?? new Map<string, Edge>();
    edges.set(from, out);
    for (const edge of imports) {
      const to = folderOf(edge.to);
      if (to === undefined || to === from) continue;
      const had = out.get(to);
      // A value import is the one worth naming: it is what a fix must remove.
      if (had === undefined || (had.kind !== 'value' && edge.kind === 'value')) {
        out.set(to, { to, kind: edge.kind });
        witness.set(`${from}\0${to}`, `${module} → ${edge.to}`);
      }
    }
  }
  const sorted = new Map([...edges].map(([from, out]) => [from, [...out.values()].sort((a, b) => (a.to < b.to ? -1 : 1))]));
  return { graph: sorted, witness };
}

/** The generator's folders (`generator/emit`, `generator/model`...): a module's first folder under `generator/`. */
export const generatorFolderOf = (module: string): string | undefined => {
  const parts = module.split('/');
  return parts[0] === 'generator' && parts.length > 2 ? `generator/${parts[1]}` : undefined;
};
