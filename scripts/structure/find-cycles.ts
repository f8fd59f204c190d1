/**
 * @module Import cycles of a graph: its strongly connected components (Tarjan's algorithm, iterative so a deep
 * chain cannot overflow the stack), each shown as one shortest cycle through it, which is what a reader fixes
 * first. Pure: a graph in, cycles out.
 */
import type { EdgeKind, ImportGraph } from './import-graph.ts';

/** One cycle: the modules in import order (the last imports the first), the way each names the next, and the size of its component. */
export interface Cycle {
  readonly modules: readonly string[];
  readonly kinds: readonly EdgeKind[];
  /** How many modules import each other around this cycle (its strongly connected component). */
  readonly component: number;
}

/** The strongly connected components of `graph` with more than one module, or one that imports itself. */
export function components(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    // Each frame: a module and how many of its edges have been followed.
    const frames: [string, number][] = [[start, 0]];
    index.set(start, next), low.set(start, next), next++;
    stack.push(start), onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const [at, i] = frame;
      const edges = graph.get(at) ?? [];
      if (i < edges.length) {
        frame[1]++;
        const to = edges[i]!.to;
        if (!index.has(to)) {
          index.set(to, next), low.set(to, next), next++;
          stack.push(to), onStack.add(to);
          frames.push([to, 0]);
        } else if (onStack.has(to)) low.set(at, Math.min(low.get(at)!, index.get(to)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(at)!));
      if (low.get(at) !== index.get(at)) continue;
      const component: string[] = [];
      for (let m = stack.pop(); m !== undefined; m = stack.pop()) {
        onStack.delete(m);
        component.push(m);
        if (m === at) break;
      }
      const selfLoop = (graph.get(at) ?? []).some((e) => e.to === at);
      if (component.length > 1 || selfLoop) found.push(component.sort());
    }
  }
  return found.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** A shortest cycle through `from` inside `members` (breadth first), as modules and edge kinds. */
function shortestCycle(graph: ImportGraph, from: string, members: ReadonlySet<string>): Cycle {
  const came = new Map<string, { prev: string; kind: EdgeKind }>();
  const queue = [from];
  for (let q = 0; q < queue.length; q++) {
    const at = queue[q]!;
    for (const edge of graph.get(at) ?? []) {
      if (!members.has(edge.to) || came.has(edge.to)) continue;
      came.set(edge.to, { prev: at, kind: edge.kind });
      if (edge.to === from) {
        const modules: string[] = [];
        const kinds: EdgeKind[] = [];
        let cursor = from;
        do {
          const step = came.get(cursor)!;
          modules.unshift(step.prev), kinds.unshift(step.kind);
          cursor = step.prev;
        } while (cursor !== from);
        return { modules, kinds, component: members.size };
      }
      queue.push(edge.to);
    }
  }
  throw new Error(`${from} is in a component but on no cycle`);
}

/** Every import cycle of `graph`: one shortest cycle per strongly connected component, sorted by module. */
export function findCycles(graph: ImportGraph): Cycle[] {
  return components(graph).map((members) => shortestCycle(graph, members[0]!, new Set(members)));
}

/** A cycle as one line: `a.ts → b.ts (type) → a.ts`, with the size of its component when it holds more modules. */
export function describeCycle(cycle: Cycle): string {
  const steps = cycle.modules.map((m, i) => `${m} ${cycle.kinds[i] === 'value' ? '→' : `→ (${cycle.kinds[i]})`}`);
  const more = cycle.component > cycle.modules.length ? ` [${cycle.component} modules import each other]` : '';
  return `${steps.join(' ')} ${cycle.modules[0]}${more}`;
}
