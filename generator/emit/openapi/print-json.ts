/**
 * @module Prints JSON the way prettier's `json` parser prints `JSON.stringify(value, null, 2)`: objects
 * one member per line, an array on one line when it fits in 80 columns and holds no object. A document
 * of a large API runs to megabytes, and formatting them is most of a cold run; output that prettier
 * leaves unchanged lets the writer skip that work (the tests compare the two byte for byte).
 */
import type { Json, JsonObject } from './json.ts';

const WIDTH = 80;

/** The value on one line, or undefined when it cannot sit on one line (it holds a non-empty object). */
function flat(value: Json): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
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

/** `value` printed at `indent`, starting at `column`, followed on its line by `tail` characters. */
function print(value: Json, indent: string, column: number, tail: number): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const items = value as readonly Json[];
    const oneLine = mustBreak(items) ? undefined : flat(items);
    if (oneLine !== undefined && column + oneLine.length + tail <= WIDTH) return oneLine;
    let text = '[';
    items.forEach((item, i) => {
      const last = i === items.length - 1;
      text += `\n${inner}${print(item, inner, inner.length, last ? 0 : 1)}${last ? '' : ','}`;
    });
    return `${text}\n${indent}]`;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return '{}';
  let text = '{';
  keys.forEach((key, i) => {
    const last = i === keys.length - 1;
    const prefix = `${JSON.stringify(key)}: `;
    const item = print((value as JsonObject)[key]!, inner, inner.length + prefix.length, last ? 0 : 1);
    text += `\n${inner}${prefix}${item}${last ? '' : ','}`;
  });
  return `${text}\n${indent}}`;
}

/** The JSON text of a value, as prettier would format it, with a final newline. */
export function printJson(value: Json): string {
  return `${print(value, '', 0, 0)}\n`;
}
