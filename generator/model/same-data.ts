/**
 * @module Whether two pieces of DSL data are the same to building: `--watch` reuses a collection built from an
 * equal definition (see `collection-reuse.ts`), so the comparison is strict: every value kind counts (`1` and
 * `'1'` differ, so do `0` and `-0`), keys keep their order (building walks them in order), a field builder counts
 * by its `def` alone (building reads nothing else of it, and its methods are restgen's), and anything whose
 * meaning is not plain data (a function, a class instance, a `Date`, a `Map`, a symbol, a property
 * `Object.keys` does not list, a cycle) is never the same as anything, itself included: its collection is built
 * afresh every run. A getter counts by the value it gives; symbol-keyed properties are not read (building never
 * reads them).
 */
import { isFieldBuilder } from '../dsl/arguments.ts';

/** Deeper than this is taken for a cycle (the DSL's data nests a few levels). */
const MAX_DEPTH = 100;

/** True when `value` has no own property that `Object.keys` does not list, besides `extra` (an array's `length`). */
const allEnumerable = (value: object, keys: number, extra = 0): boolean => Object.getOwnPropertyNames(value).length === keys + extra;

/** The kind of object {@link sameData} can compare, or undefined for one that is more than plain data. */
function shapeOf(value: object): 'object' | 'array' | 'builder' | 'regexp' | undefined {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return allEnumerable(value, Object.keys(value).length) ? 'object' : undefined;
  if (proto === Array.prototype) {
    const items = value as readonly unknown[];
    return allEnumerable(items, items.length, 1) && Object.keys(items).length === items.length ? 'array' : undefined;
  }
  if (isFieldBuilder(value) && allEnumerable(value, Object.keys(value).length) && Object.keys(value).length === 1) return 'builder';
  if (proto === RegExp.prototype && value instanceof RegExp && allEnumerable(value, Object.keys(value).length, 1) && Object.keys(value).length === 0)
    return 'regexp';
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

/** True when building reads the same plain data from `a` as from `b` (see the module's rules). */
export function sameData(a: unknown, b: unknown): boolean {
  try {
    return same(a, b, 0);
  } catch (error) {
    // A structure too deep for the stack: no answer, so not the same.
    if (error instanceof RangeError) return false;
    throw error;
  }
}
