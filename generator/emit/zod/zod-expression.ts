/**
 * @module Writes the zod expression of a field, as TypeScript source text. One writer per type kind,
 * keyed by kind, so a new kind without a writer fails to compile.
 */
import type { FieldAt, TypeIR, TypeKind } from '../../model/ir.ts';

/** Responses strip unknown keys; requests reject them and enforce read-only/defaults inside objects. */
export type SchemaMode = 'response' | 'request';

type Writers = { [K in TypeKind]: (type: Extract<TypeIR<FieldAt>, { kind: K }>, mode: SchemaMode) => string };

const bounds = (min?: number, max?: number): string =>
  (min !== undefined ? `.min(${min})` : '') + (max !== undefined ? `.max(${max})` : '');

/** A JavaScript regular expression literal for a pattern source. */
export function regexLiteral(pattern: string): string {
  return `/${new RegExp(pattern).source}/`;
}

const writers: Writers = {
  string: (t) => `z.string()${bounds(t.min, t.max)}${t.pattern !== undefined ? `.regex(${regexLiteral(t.pattern)})` : ''}`,
  int: (t) => `z.int()${bounds(t.min, t.max)}`,
  number: (t) => `z.number()${bounds(t.min, t.max)}`,
  boolean: () => 'z.boolean()',
  enum: (t) => `z.enum([${t.values.map((v) => JSON.stringify(v)).join(', ')}])`,
  datetime: () => 'z.iso.datetime({ offset: true })',
  date: () => 'z.iso.date()',
  uuid: () => 'z.uuid()',
  email: () => 'z.email()',
  url: () => 'z.url()',
  id: () => 'z.uuid()',
  ref: () => 'z.uuid()',
  array: (t, mode) => `z.array(${typeExpression(t.of, mode)}${t.itemsNullable ? '.nullable()' : ''})${bounds(t.min, t.max)}`,
  object: (t, mode) => objectExpression(t.fields, mode),
};

/** The zod expression for a type (no optional/nullable/default wrappers). */
export function typeExpression(type: TypeIR<FieldAt>, mode: SchemaMode): string {
  return (writers[type.kind] as (t: TypeIR<FieldAt>, m: SchemaMode) => string)(type, mode);
}

/** A property key: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

/** A default value as source: primitives inline, objects and arrays as a factory so no two parses share one. */
export function defaultArgument(value: unknown): string {
  return typeof value === 'object' && value !== null ? `() => (${JSON.stringify(value)})` : JSON.stringify(value);
}

/** The expression of a field's value, nullable applied, without optional/default. */
export function baseExpression(field: FieldAt, mode: SchemaMode): string {
  return typeExpression(field.type, mode) + (field.nullable ? '.nullable()' : '');
}

/** The full expression of a field inside an object of the given mode (nested objects only). */
function memberExpression(field: FieldAt, mode: SchemaMode): string | undefined {
  if (mode === 'response' && field.writeOnly) return undefined;
  if (mode === 'request' && field.readOnly) return 'readOnly';
  const base = baseExpression(field, mode);
  if (mode === 'request' && field.default) return `${base}.default(${defaultArgument(field.default.value)})`;
  return field.optional ? `${base}.optional()` : base;
}

function objectExpression(fields: readonly FieldAt[], mode: SchemaMode): string {
  const members = fields.flatMap((f) => {
    const expr = memberExpression(f, mode);
    return expr === undefined ? [] : [`${propertyKey(f.name)}: ${expr}`];
  });
  return `${mode === 'request' ? 'z.strictObject' : 'z.object'}(${members.length > 0 ? `{ ${members.join(', ')} }` : '{}'})`;
}

/** True when a field's type contains a nested object (its request and response schemas then differ). */
export function hasObject(type: TypeIR<FieldAt>): boolean {
  return type.kind === 'object' || (type.kind === 'array' && hasObject(type.of));
}

/** The expression that reads a list filter from its query-string text. */
export function filterExpression(field: FieldAt, ref: string): string {
  switch (field.type.kind) {
    case 'int':
    case 'number':
      // Decimal digits only: `Number()` would also read `0x10`, `1e3` and blanks.
      return `queryNumber.pipe(${typeExpression(field.type, 'response')})`;
    case 'boolean':
      return 'z.stringbool()';
    default:
      return field.nullable ? typeExpression(field.type, 'response') : ref;
  }
}
