/**
 * @module Prints JSON the way prettier's `json` parser prints `JSON.stringify(value, null, 2)`: objects
 * one member per line, an array on one line when it fits in 80 columns and holds no object. A document
 * of a large API runs to megabytes, and formatting them is most of a cold run; output that prettier
 * leaves unchanged lets the writer skip that work (the tests compare the two byte for byte).
 */
import { PrintedJson, type Json, type JsonObject } from './json.ts';

const WIDTH = 80;

/** The value on one line, or undefined when it cannot sit on one line (it holds a non-empty object). */
function flat(value: Json): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (value instanceof PrintedJson) return undefined;
  if (!Array.isArray(value)) {
    for (const _ in value) return undefined;
    return '{}';
  }
  let text = '';
  for (const item of value as readonly Json[]) {
    const one = flat(item);
    if (one === undefined) return undefined;
    text += text === '' ? one : `, ${one}`;
  }
  return `[${text}]`;
}

/** prettier breaks an array of two or more arrays that each hold two or more items, fit or not. */
function mustBreak(items: readonly Json[]): boolean {
  return items.length > 1 && items.every((item) => Array.isArray(item) && item.length > 1);
}

// One newline-and-indentation string per depth, shared by every line at that depth.
const breaks: string[] = [];
const lineBreak = (depth: number): string => (breaks[depth] ??= `\n${'  '.repeat(depth)}`);

/**
 * Appends `value` printed at `depth`, starting at `column`, followed on its line by `tail` characters, to
 * `out`, and every `$ref` it holds to `refs`. Pieces are collected and joined once: concatenating megabytes
 * piece by piece would build a rope of millions of nodes first.
 */
function print(value: Json, depth: number, column: number, tail: number, out: string[], refs: Set<string> | undefined): void {
  if (value === null || typeof value !== 'object') {
    out.push(JSON.stringify(value));
    return;
  }
  if (value instanceof PrintedJson) {
    out.push(value.text);
    if (refs) for (const r of value.refs) refs.add(r);
    return;
  }
  const inner = lineBreak(depth + 1);
  const width = 2 * (depth + 1);
  if (Array.isArray(value)) {
    const items = value as readonly Json[];
    // A flat array holds no object with members, so no `$ref`.
    const oneLine = mustBreak(items) ? undefined : flat(items);
    if (oneLine !== undefined && column + oneLine.length + tail <= WIDTH) {
      out.push(oneLine);
      return;
    }
    out.push('[');
    items.forEach((item, i) => {
      const last = i === items.length - 1;
      out.push(inner);
      print(item, depth + 1, width, last ? 0 : 1, out, refs);
      if (!last) out.push(',');
    });
    out.push(lineBreak(depth), ']');
    return;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) {
    out.push('{}');
    return;
  }
  out.push('{');
  keys.forEach((key, i) => {
    const last = i === keys.length - 1;
    const prefix = `${JSON.stringify(key)}: `;
    out.push(inner, prefix);
    const member = (value as JsonObject)[key]!;
    if (refs && key === '$ref' && typeof member === 'string') refs.add(member);
    print(member, depth + 1, width + prefix.length, last ? 0 : 1, out, refs);
    if (!last) out.push(',');
  });
  out.push(lineBreak(depth), '}');
}

/**
 * A non-empty object printed as it is printed as a member value at `depth` (an object's layout depends only
 * on its depth, not on the column it starts at), for a {@link PrintedJson}; every `$ref` it holds is added to
 * `refs`.
 */
export function printJsonAt(value: JsonObject, depth: number, refs?: Set<string>): string {
  const out: string[] = [];
  print(value, depth, 0, 0, out, refs);
  return out.join('');
}

/** The JSON text of a value, as prettier would format it, with a final newline. */
export function printJson(value: Json): string {
  const out: string[] = [];
  print(value, 0, 0, 0, out, undefined);
  out.push('\n');
  return out.join('');
}
