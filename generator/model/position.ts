/**
 * @module Positions in a source text, as diagnostics print them (1-based line and column, as V8's call sites and
 * editors count them), and a walk over an oxc syntax tree: what locating a builder call, a load failure or a
 * package.json key all need.
 */
import type { Node } from 'oxc-parser';

/** A 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** The 1-based line and column of `offset` (UTF-16 code units, as oxc reports them) in `text`. */
export function positionOf(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Every node under `node`, depth first, with a callback (a plain walk over the ESTree's child properties). */
export function walk(node: unknown, visit: (node: Node) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (typeof node !== 'object' || node === null || typeof (node as { type?: unknown }).type !== 'string') return;
  visit(node as Node);
  for (const [key, value] of Object.entries(node)) if (key !== 'parent' && typeof value === 'object' && value !== null) walk(value, visit);
}
