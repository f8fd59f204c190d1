/**
 * @module Literals as prettier prints them with its default options: strings in double quotes unless the
 * text holds more double than single quotes, property keys unquoted when they are identifier names
 * (`quoteProps: "as-needed"`; numeric-looking keys stay quoted in TypeScript), numbers without `e+`.
 */

const IDENTIFIER_NAME = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

/** A string literal: `JSON.stringify`'s escapes, in the quotes prettier prefers for its content. */
export function quoteString(value: string): string {
  const raw = JSON.stringify(value);
  if (!raw.includes('\\"')) return raw;
  let doubles = 0;
  let singles = 0;
  for (let i = 1; i < raw.length - 1; i++) {
    const c = raw.charCodeAt(i);
    if (c === 34) doubles++;
    else if (c === 39) singles++;
  }
  if (doubles <= singles) return raw;
  // Single quotes: `\"` needs no escape any more, `'` now does.
  return `'${raw.slice(1, -1).replace(/\\(.)|'/gs, (match: string, escaped: string | undefined) => (escaped === '"' ? '"' : escaped !== undefined ? match : "\\'"))}'`;
}

/** True when `name` can be written as a bare property key. */
export function isIdentifierName(name: string): boolean {
  return IDENTIFIER_NAME.test(name);
}

/** A property key as prettier prints it: bare for identifier names, else a string literal. */
export function printKey(name: string): string {
  return isIdentifierName(name) ? name : quoteString(name);
}

/** A number literal (`1e21`, not `1e+21`). */
export function printNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`internal error: ${value} has no literal`);
  return String(value).replace('e+', 'e');
}

const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

/**
 * Columns a short text takes (east Asian wide characters two, combining marks none). Used only to tell
 * whether a property key is shorter than five columns; whole lines are measured by prettier's own printer.
 */
export function textWidth(text: string): number {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0x300 && cp <= 0x36f)) continue;
    width += WIDE.some(([lo, hi]) => cp >= lo && cp <= hi) ? 2 : 1;
  }
  return width;
}
