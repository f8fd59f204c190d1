/**
 * @module Checks a literal value (a default, an example, a fallback) against a field's type and
 * constraints, with the same rules the generated zod schemas apply.
 */
import { createRequire } from 'node:module';
import type * as Zod from 'zod';
import type { FieldShape, TypeIR } from './ir.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
// The formats are checked with zod itself, so a default that passes here passes the generated schemas. zod
// is loaded on the first such check (its modules take about 0.1 s to load): most runs check no format value.
let zod: typeof Zod.z | undefined;
const z = (): typeof Zod.z => (zod ??= (createRequire(import.meta.url)('zod') as typeof Zod).z);
const isDatetime = (s: string) => z().iso.datetime({ offset: true }).safeParse(s).success;
const isUuid = (s: string) => z().uuid().safeParse(s).success;
const isEmail = (s: string) => z().email().safeParse(s).success;
const isUrl = (s: string) => z().url().safeParse(s).success;

/** True when `text` is a real calendar date in `YYYY-MM-DD` form. */
export function isIsoDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

function bounds(what: string, n: number, min?: number, max?: number): string | undefined {
  if (min !== undefined && n < min) return `${what} ${n} is below the minimum ${min}`;
  if (max !== undefined && n > max) return `${what} ${n} is above the maximum ${max}`;
  return undefined;
}

function formatted(value: unknown, ok: (s: string) => boolean, what: string): string | undefined {
  return typeof value === 'string' && ok(value) ? undefined : `${JSON.stringify(value)} is not ${what}`;
}

/** Why `value` does not fit `type`, or undefined when it does. */
export function checkTypeValue<F extends FieldShape<F>>(type: TypeIR<F>, value: unknown): string | undefined {
  switch (type.kind) {
    case 'string':
      if (typeof value !== 'string') return `${JSON.stringify(value)} is not a string`;
      if (type.pattern !== undefined && !new RegExp(type.pattern, 'u').test(value)) return `${JSON.stringify(value)} does not match /${type.pattern}/`;
      return bounds('length', [...value].length, type.min, type.max);
    case 'int':
      if (!Number.isInteger(value)) return `${JSON.stringify(value)} is not an integer`;
      return bounds('value', value as number, type.min, type.max);
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${JSON.stringify(value)} is not a number`;
      return bounds('value', value, type.min, type.max);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${JSON.stringify(value)} is not a boolean`;
    case 'enum':
      return typeof value === 'string' && type.values.includes(value)
        ? undefined
        : `${JSON.stringify(value)} is not one of ${type.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'datetime':
      return formatted(value, isDatetime, 'an RFC 3339 date-time');
    case 'date':
      return formatted(value, isIsoDate, 'a YYYY-MM-DD date');
    case 'uuid':
    case 'id':
    case 'ref':
      return formatted(value, isUuid, 'a UUID');
    case 'email':
      return formatted(value, isEmail, 'an email address');
    case 'url':
      return formatted(value, isUrl, 'an absolute URL');
    case 'array': {
      if (!Array.isArray(value)) return `${JSON.stringify(value)} is not an array`;
      for (const [i, item] of value.entries()) {
        if (item === null && type.itemsNullable) continue;
        const why = item === null ? 'null is not allowed (the items are not nullable)' : checkTypeValue(type.of, item);
        if (why) return `item ${i}: ${why}`;
      }
      return bounds('item count', value.length, type.min, type.max);
    }
    case 'file':
      // Only an upload makes a file: no default, example or fallback can stand for one.
      return 'a file field takes no literal value (its files are uploaded)';
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${JSON.stringify(value)} is not an object`;
      const record = value as Record<string, unknown>;
      const known = new Set<string>();
      for (const field of type.fields) {
        const name = (field as unknown as { name: string }).name;
        known.add(name);
        const why = checkFieldValue(field, record[name], name in record);
        if (why) return `${name}: ${why}`;
      }
      const unknown = Object.keys(record).find((k) => !known.has(k));
      return unknown === undefined ? undefined : `${unknown} is not a field of this object`;
    }
  }
}

/** Why `value` does not fit the field (modifiers included), or undefined when it does. */
export function checkFieldValue<F extends FieldShape<F>>(shape: FieldShape<F>, value: unknown, present = true): string | undefined {
  if (!present || value === undefined) return shape.optional || shape.default ? undefined : 'a value is required';
  if (value === null) return shape.nullable ? undefined : 'null is not allowed (the field is not nullable)';
  return checkTypeValue(shape.type, value);
}
