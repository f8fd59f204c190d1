/**
 * @module Fingerprints of DSL data, and a comparison by the same rules: a fingerprint is a text that is equal for
 * two values exactly when building reads the same from both, and {@link sameData} answers that question for two
 * values at hand without writing either down (no text, no garbage: what `--watch` asks of every collection on
 * every edit). `--watch` keeps each collection's built IR under the fingerprint of its definition, so it is
 * strict: every value kind is tagged (`1` and `'1'` differ, so do `0` and `-0`), keys keep their order
 * (building walks them in order), a field builder counts by its `def` alone (building reads nothing else of
 * it, and its methods are restgen's), and anything whose meaning is not plain data (a function, a class
 * instance, a `Date`, a `Map`, a symbol, a property `Object.keys` does not list, a cycle) has no fingerprint:
 * its collection is built afresh every run. A getter counts by the value it gives, read once as building reads
 * it; symbol-keyed properties are not read (building never reads them).
 */
import { isFieldBuilder } from '../dsl/arguments.ts';

/** Thrown inside {@link fingerprintOf} when a value has no safe fingerprint. */
class NoFingerprint extends Error {}

/** Deeper than this is taken for a cycle (the DSL's data nests a few levels). */
const MAX_DEPTH = 100;

/** True when `value` has no own property that `Object.keys` does not list, besides `extra` (an array's `length`). */
const allEnumerable = (value: object, keys: number, extra = 0): boolean => Object.getOwnPropertyNames(value).length === keys + extra;

/** Strings carry their length, so no text needs escaping and no two values read alike. */
function fingerprint(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'undefined':
      return 'u';
    case 'boolean':
      return value ? 't' : 'f';
    case 'number':
      return Object.is(value, -0) ? 'n-0;' : `n${value};`;
    case 'bigint':
      return `i${value};`;
    case 'string':
      return `s${value.length}:${value}`;
    case 'object':
      break;
    default:
      // A function or a symbol: what it means is more than what it shows.
      throw new NoFingerprint();
  }
  if (value === null) return 'z';
  if (depth > MAX_DEPTH) throw new NoFingerprint();
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) {
    const keys = Object.keys(value);
    if (!allEnumerable(value, keys.length)) throw new NoFingerprint();
    const record = value as Readonly<Record<string, unknown>>;
    let out = proto === null ? '{0' : '{';
    for (const key of keys) out += `${key.length}:${key}${fingerprint(record[key], depth + 1)}`;
    return `${out}}`;
  }
  if (proto === Array.prototype) {
    const items = value as readonly unknown[];
    // Holes and extra properties fail the count.
    if (!allEnumerable(items, items.length, 1) || Object.keys(items).length !== items.length) throw new NoFingerprint();
    let out = `[${items.length};`;
    for (const item of items) out += fingerprint(item, depth + 1);
    return `${out}]`;
  }
  // A field builder (an instance of restgen's class, whose methods only make new builders): what any reader
  // sees of it is its `def`.
  if (isFieldBuilder(value) && allEnumerable(value, Object.keys(value).length) && Object.keys(value).length === 1) return `B${fingerprint(value.def, depth + 1)}`;
  if (proto === RegExp.prototype && value instanceof RegExp && allEnumerable(value, Object.keys(value).length, 1) && Object.keys(value).length === 0)
    return `r${value.source.length}:${value.source}/${value.flags}/${value.lastIndex};`;
  // A Date, a Map, any other class's instance.
  throw new NoFingerprint();
}

/**
 * The fingerprint of `value` (DSL data as builders recorded it), or undefined when it holds something whose
 * meaning is more than its plain data. Equal fingerprints mean building reads the same data.
 */
export function fingerprintOf(value: unknown): string | undefined {
  try {
    return fingerprint(value, 0);
  } catch (error) {
    if (error instanceof NoFingerprint || error instanceof RangeError) return undefined;
    throw error;
  }
}

/** The kind of object {@link sameData} can compare, or undefined for one without a fingerprint. */
function shapeOf(value: object): 'object' | 'array' | 'builder' | 'regexp' | undefined {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return allEnumerable(value, Object.keys(value).length) ? 'object' : undefined;
  if (proto === Array.prototype) {
    const items = value as readonly unknown[];
    return allEnumerable(items, items.length, 1) && Object.keys(items).length === items.length ? 'array' : undefined;
  }
  if (isFieldBuilder(value) && allEnumerable(value, Object.keys(value).length) && Object.keys(value).length === 1) return 'builder';
  if (proto === RegExp.prototype && value instanceof RegExp && allEnumerable(value, Object.keys(value).length, 1) && Object.keys(value).length === 0) return 'regexp';
  return undefined;
}

function same(a: unknown, b: unknown, depth: number): boolean {
  if (typeof a !== typeof b) return false;
  if (typeof a !== 'object' || a === null || b === null) {
    // A function or a symbol is never the same as anything: what it means is more than what it shows.
    return typeof a !== 'function' && typeof a !== 'symbol' && Object.is(a, b);
  }
  if (depth > MAX_DEPTH) return false;
  const x = a as object;
  const y = b as object;
  const kind = shapeOf(x);
  if (kind === undefined || kind !== shapeOf(y) || Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return false;
  switch (kind) {
    case 'object': {
      const keys = Object.keys(x);
      const others = Object.keys(y);
      if (keys.length !== others.length) return false;
      const left = x as Readonly<Record<string, unknown>>;
      const right = y as Readonly<Record<string, unknown>>;
      for (let i = 0; i < keys.length; i++) if (keys[i] !== others[i] || !same(left[keys[i]!], right[keys[i]!], depth + 1)) return false;
      return true;
    }
    case 'array': {
      const left = x as readonly unknown[];
      const right = y as readonly unknown[];
      if (left.length !== right.length) return false;
      for (let i = 0; i < left.length; i++) if (!same(left[i], right[i], depth + 1)) return false;
      return true;
    }
    case 'builder':
      return same((x as { def: unknown }).def, (y as { def: unknown }).def, depth + 1);
    case 'regexp': {
      const left = x as RegExp;
      const right = y as RegExp;
      return left.source === right.source && left.flags === right.flags && left.lastIndex === right.lastIndex;
    }
  }
}

/**
 * True when building reads the same from `a` as from `b`: exactly when both have fingerprints and they are equal
 * (see {@link fingerprintOf}), found without computing either.
 */
export function sameData(a: unknown, b: unknown): boolean {
  try {
    return same(a, b, 0);
  } catch (error) {
    // A structure too deep for the stack: no answer, so not the same.
    if (error instanceof RangeError) return false;
    throw error;
  }
}
