/**
 * What the in-memory store does with a list query: every filter operator, the sort (absent values last in either
 * direction, ties broken by the keys that follow, the id last), keyset cursors and field masks. Values compare as
 * their kinds do: numbers by value, date-times by instant (a stored `+02:00` and a `Z` of the same instant are
 * equal), other strings by Unicode code point (the order of PostgreSQL's `COLLATE "C"` on UTF-8).
 */
import type { FilterOf, SortKey } from './types.js';

type Row = Readonly<Record<string, unknown>>;

const INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i;

/** A date-time as comparable parts: whole seconds since the epoch (in ms), then the fraction's digits. */
function instantOf(text: string): readonly [number, string] | null {
  const m = INSTANT.exec(text);
  if (m === null) return null;
  const ms = Date.parse(`${m[1]}${m[3]!.toUpperCase()}`);
  return Number.isNaN(ms) ? null : [ms, (m[2] ?? '').padEnd(12, '0').slice(0, 12)];
}

/** A UTF-16 code unit mapped so that comparing mapped units compares code points (surrogates above U+FFFF's units). */
const unit = (c: number): number => (c >= 0xd800 && c <= 0xdfff ? c + 0x2000 : c >= 0xe000 ? c - 0x800 : c);

/** Compares two strings by Unicode code point. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unit(x) - unit(y);
  }
  return a.length - b.length;
}

/** Compares two present values of one field (`instant`: a date-time field); NaN when they cannot be compared. */
function compareValues(a: unknown, b: unknown, instant: boolean): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (typeof a !== 'string' || typeof b !== 'string') return Number.NaN;
  if (instant) {
    const x = instantOf(a);
    const y = instantOf(b);
    if (x !== null && y !== null) return x[0] !== y[0] ? x[0] - y[0] : compareText(x[1], y[1]);
  }
  return compareText(a, b);
}

const absent = (v: unknown): boolean => v === undefined || v === null;

/** Whether a row's value passes one operator (a filter never matches an absent or null value). */
function passes(value: unknown, op: string, operand: unknown, instant: boolean): boolean {
  if (absent(value)) return false;
  switch (op) {
    case 'eq':
      return compareValues(value, operand, instant) === 0;
    case 'ne':
      return compareValues(value, operand, instant) !== 0;
    case 'in':
      return Array.isArray(operand) && operand.some((x) => compareValues(value, x, instant) === 0);
    case 'gt':
      return compareValues(value, operand, instant) > 0;
    case 'gte':
      return compareValues(value, operand, instant) >= 0;
    case 'lt':
      return compareValues(value, operand, instant) < 0;
    case 'lte':
      return compareValues(value, operand, instant) <= 0;
    default:
      return false;
  }
}

/** The test of a list's filters: every operator of every field (AND). `instants`: the date-time fields. */
export function createMatcher(filter: Readonly<Record<string, FilterOf<unknown> | undefined>>, instants: ReadonlySet<string>): (row: Row) => boolean {
  const tests: [field: string, op: string, operand: unknown][] = [];
  for (const [field, ops] of Object.entries(filter))
    for (const [op, operand] of Object.entries(ops ?? {})) if (operand !== undefined) tests.push([field, op, operand]);
  return (row) => tests.every(([field, op, operand]) => passes(row[field], op, operand, instants.has(field)));
}

/** The order of a sort: key by key, absent values last in either direction. */
export function createComparator(sort: readonly SortKey[], instants: ReadonlySet<string>): (a: Row, b: Row) => number {
  return (a, b) => {
    for (const { field, direction } of sort) {
      const x = a[field];
      const y = b[field];
      if (absent(x) || absent(y)) {
        if (absent(x) && absent(y)) continue;
        return absent(x) ? 1 : -1;
      }
      const c = compareValues(x, y, instants.has(field)) || 0;
      if (c !== 0) return direction === 'desc' ? -c : c;
    }
    return 0;
  };
}

/** The keyset cursor after `row` in `sort`: its values of the sort's fields. */
export const encodeKeyset = (row: Row, sort: readonly SortKey[]): string =>
  `k${Buffer.from(JSON.stringify(sort.map((k) => row[k.field] ?? null))).toString('base64url')}`;

/** The row a keyset cursor stands for (its sort fields only), or null when it is not one for `sort`. */
export function decodeKeyset(cursor: string, sort: readonly SortKey[]): Row | null {
  if (!cursor.startsWith('k') || cursor.length > 8192) return null;
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor.slice(1), 'base64url').toString());
  } catch {
    return null;
  }
  const scalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  if (!Array.isArray(values) || values.length !== sort.length || !values.every(scalar)) return null;
  return Object.fromEntries(sort.map((k, i) => [k.field, values[i]]));
}

/** `row` with only the fields of a mask (null: all of them). */
export function masked<T>(row: T, fields: readonly string[] | null): T {
  if (fields === null) return row;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (Object.hasOwn(row as object, f)) out[f] = (row as Record<string, unknown>)[f];
  return out as T;
}
