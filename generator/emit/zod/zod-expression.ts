/**
 * @module Builds the zod expression of a field as a syntax node (laid out by `generator/printer/`). One
 * builder per type kind, keyed by kind, so a new kind without a builder fails to compile.
 */
import { kindOf } from '../../model/kinds.ts';
import type { FieldAt, TypeIR, TypeKind } from '../../model/ir.ts';
import { e, type Expr } from '../../printer/ast.ts';
import type { SchemaMode } from '../schema-mode.ts';

type Builders = { [K in TypeKind]: (type: Extract<TypeIR<FieldAt>, { kind: K }>, mode: SchemaMode) => Expr };

const z = e.id('z');
const zod = (name: string, ...args: Expr[]): Expr => e.chain(z, [name, ...args]);

function bounded(base: Expr, min?: number, max?: number): Expr {
  let out = base;
  if (min !== undefined) out = e.chain(out, ['min', e.num(min)]);
  if (max !== undefined) out = e.chain(out, ['max', e.num(max)]);
  return out;
}

/** The source of a JavaScript regular expression literal for a pattern. */
export function regexSource(pattern: string): string {
  return new RegExp(pattern).source;
}

const builders: Builders = {
  string: (t) => {
    const base = bounded(zod('string'), t.min, t.max);
    return t.pattern !== undefined ? e.chain(base, ['regex', e.regex(regexSource(t.pattern))]) : base;
  },
  int: (t) => bounded(zod('int'), t.min, t.max),
  number: (t) => bounded(zod('number'), t.min, t.max),
  boolean: () => zod('boolean'),
  enum: (t) => zod('enum', e.arr(t.values.map(e.str))),
  datetime: () => e.chain(e.member(z, 'iso'), ['datetime', e.obj([e.prop('offset', { k: 'lit', text: 'true' })])]),
  date: () => e.chain(e.member(z, 'iso'), ['date']),
  uuid: () => zod('uuid'),
  email: () => zod('email'),
  url: () => zod('url'),
  id: () => zod('uuid'),
  ref: () => zod('uuid'),
  array: (t, mode) => {
    const item = typeExpression(t.of, mode);
    return bounded(zod('array', t.itemsNullable ? e.chain(item, ['nullable']) : item), t.min, t.max);
  },
  object: (t, mode) => objectExpression(t.fields, mode),
};

/** The zod expression for a type (no optional/nullable/default wrappers). */
export function typeExpression(type: TypeIR<FieldAt>, mode: SchemaMode): Expr {
  return (builders[type.kind] as (t: TypeIR<FieldAt>, m: SchemaMode) => Expr)(type, mode);
}

/** A default value as source: primitives inline, objects and arrays as a factory so no two parses share one. */
export function defaultArgument(value: unknown): Expr {
  return typeof value === 'object' && value !== null ? e.arrow(e.json(value)) : e.json(value);
}

/** The expression of a field's value, nullable applied, without optional/default. */
export function baseExpression(field: FieldAt, mode: SchemaMode): Expr {
  const type = typeExpression(field.type, mode);
  return field.nullable ? e.chain(type, ['nullable']) : type;
}

/** The full expression of a field inside an object of the given mode (nested objects only). */
function memberExpression(field: FieldAt, mode: SchemaMode): Expr | undefined {
  if (mode === 'response' && field.writeOnly) return undefined;
  if (mode === 'request' && field.readOnly) return e.id('readOnly');
  const base = baseExpression(field, mode);
  if (mode === 'request' && field.default) return e.chain(base, ['default', defaultArgument(field.default.value)]);
  return field.optional ? e.chain(base, ['optional']) : base;
}

function objectExpression(fields: readonly FieldAt[], mode: SchemaMode): Expr {
  const members = fields.flatMap((f) => {
    const expr = memberExpression(f, mode);
    return expr === undefined ? [] : [e.prop(f.name, expr)];
  });
  return zod(mode === 'request' ? 'strictObject' : 'object', e.obj(members));
}

/** True when a field's type contains a nested object (its request and response schemas then differ). */
export function hasObject(type: TypeIR<FieldAt>): boolean {
  return type.kind === 'object' || (type.kind === 'array' && hasObject(type.of));
}

/** The expression that reads a list filter from its query-string text. */
export function filterExpression(field: FieldAt, ref: Expr): Expr {
  const wire = kindOf(field.type).wire;
  // Decimal digits only: `Number()` would also read `0x10`, `1e3` and blanks.
  if (wire === 'integer' || wire === 'number') return e.chain(e.id('queryNumber'), ['pipe', typeExpression(field.type, 'response')]);
  if (wire === 'boolean') return zod('stringbool');
  return field.nullable ? typeExpression(field.type, 'response') : ref;
}
