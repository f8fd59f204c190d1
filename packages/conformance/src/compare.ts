/**
 * @module Whether two values of a field are the same resource data: by kind, so that a server that stores a
 * date-time in another notation of the same instant (`...00Z` and `...00.000Z`) is not blamed, and nested
 * objects are compared field by field.
 */
import type { FieldAt, TypeIR } from 'restgen/contract';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `a` and `b` are the same value of `type`. */
export function sameValue(type: TypeIR<FieldAt>, a: unknown, b: unknown): boolean {
  if (a === null || b === null || a === undefined || b === undefined) return a === b;
  switch (type.kind) {
    case 'datetime':
      return typeof a === 'string' && typeof b === 'string' && (a === b || (!Number.isNaN(Date.parse(a)) && Date.parse(a) === Date.parse(b)));
    case 'array':
      return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(type.of, x, b[i]));
    case 'object':
      return isObject(a) && isObject(b) && type.fields.filter((f) => !f.writeOnly).every((f) => sameValue(f.type, a[f.name], b[f.name]));
    default:
      return JSON.stringify(a) === JSON.stringify(b);
  }
}

/** The fields whose values differ between `expected` and `actual`, as `name: expected → actual` lines. */
export function differences(fields: readonly FieldAt[], expected: Readonly<Record<string, unknown>>, actual: Readonly<Record<string, unknown>>): string[] {
  return fields
    .filter((f) => !sameValue(f.type, expected[f.name], actual[f.name]))
    .map((f) => `${f.name}: ${show(expected[f.name])} → ${show(actual[f.name])}`);
}

/** A value as a report shows it, shortened. */
export function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
