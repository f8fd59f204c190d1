/**
 * @module Compares two value types of one field: kind (incompatible, widened, narrowed, format, enum),
 * bounds, patterns and enum values. Nested objects are handed back to the field differ through
 * `onObject`, so the recursion lives in one place.
 */
import type { FieldAt, SourceRef, TypeIR, TypeKind } from '../model/ir.ts';
import type { FindingCollector, Touches } from './collector.ts';

type T = TypeIR<FieldAt>;

/** What comparing a type needs: where to report, and how to compare nested objects. */
export interface TypeContext {
  readonly out: FindingCollector;
  readonly loc: SourceRef | undefined;
  /** Compares the fields of two nested objects at `path` (`orders.shipping`, `orders.lines[]`). */
  readonly onObject: (before: readonly FieldAt[], after: readonly FieldAt[], path: string) => void;
}

/** The JSON Schema format a string-like kind is sent as; kinds of one format look the same on the wire. */
const FORMAT: { readonly [K in TypeKind]: string | undefined } = {
  string: '',
  email: 'email',
  url: 'uri',
  uuid: 'uuid',
  id: 'uuid',
  ref: 'uuid',
  datetime: 'date-time',
  date: 'date',
  enum: undefined,
  int: undefined,
  number: undefined,
  boolean: undefined,
  array: undefined,
  object: undefined,
};

/** A short name of a kind for messages: `string (date-time)`, `int`. */
export function describeType(t: T): string {
  if (t.kind === 'ref') return `ref(${t.collection})`;
  if (t.kind === 'array') return `array of ${describeType(t.of)}`;
  if (t.kind === 'enum') return `enum(${t.values.join(', ')})`;
  return t.kind;
}

/** Base type and format: equal signatures make a removal plus an addition a possible rename. */
export function signatureOf(t: T): string {
  if (t.kind === 'array') return `array<${signatureOf(t.of)}>`;
  if (t.kind === 'enum') return 'string:enum';
  const format = FORMAT[t.kind];
  if (format !== undefined) return `string:${format}`;
  return t.kind === 'int' ? 'integer' : t.kind;
}

function boundUnit(kind: 'string' | 'int' | 'number' | 'array'): [string, string] {
  if (kind === 'string') return ['min length', 'max length'];
  if (kind === 'array') return ['min items', 'max items'];
  return ['minimum', 'maximum'];
}

function compareBounds(ctx: TypeContext, path: string, touches: Touches, kind: 'string' | 'int' | 'number' | 'array', b: { min?: number; max?: number }, a: { min?: number; max?: number }): void {
  const [minName, maxName] = boundUnit(kind);
  const report = (name: string, before: number | undefined, after: number | undefined, tighter: boolean) => {
    if (before === after) return;
    if (before === undefined) ctx.out.add('bound-added', path, `${path}: ${name} ${after} set where there was none`, touches, ctx.loc);
    else if (after === undefined) ctx.out.add('bound-loosened', path, `${path}: ${name} ${before} removed`, touches, ctx.loc);
    else ctx.out.add(tighter ? 'bound-tightened' : 'bound-loosened', path, `${path}: ${name} ${before} → ${after}`, touches, ctx.loc);
  };
  if (b.min !== a.min) report(minName, b.min, a.min, (a.min ?? -Infinity) > (b.min ?? -Infinity));
  if (b.max !== a.max) report(maxName, b.max, a.max, (a.max ?? Infinity) < (b.max ?? Infinity));
}

/** Compares the types of one field (or array item) at `path`, reporting into `ctx.out`. */
export function compareTypes(ctx: TypeContext, b: T, a: T, path: string, touches: Touches): void {
  if (b.kind !== a.kind) return compareKinds(ctx, b, a, path, touches);
  switch (b.kind) {
    case 'string': {
      const after = a as typeof b;
      compareBounds(ctx, path, touches, 'string', b, after);
      if (b.pattern !== after.pattern) {
        if (b.pattern === undefined) ctx.out.add('pattern-added', path, `${path}: pattern /${after.pattern}/ added`, touches, ctx.loc);
        else if (after.pattern === undefined) ctx.out.add('pattern-removed', path, `${path}: pattern /${b.pattern}/ removed`, touches, ctx.loc);
        else ctx.out.add('pattern-changed', path, `${path}: pattern /${b.pattern}/ → /${after.pattern}/`, touches, ctx.loc);
      }
      return;
    }
    case 'int':
    case 'number':
      return compareBounds(ctx, path, touches, b.kind, b, a as typeof b);
    case 'enum': {
      const after = (a as typeof b).values;
      const added = after.filter((v) => !b.values.includes(v));
      const removed = b.values.filter((v) => !after.includes(v));
      const list = (vs: readonly string[]) => vs.map((v) => `'${v}'`).join(', ');
      if (added.length) ctx.out.add('enum-value-added', path, `${path}: enum value${added.length > 1 ? 's' : ''} ${list(added)} added`, touches, ctx.loc);
      if (removed.length) ctx.out.add('enum-value-removed', path, `${path}: enum value${removed.length > 1 ? 's' : ''} ${list(removed)} removed`, touches, ctx.loc);
      return;
    }
    case 'ref': {
      const after = a as typeof b;
      if (b.collection !== after.collection)
        ctx.out.add('field-format-changed', path, `${path} now refers to ${after.collection} instead of ${b.collection}`, touches, ctx.loc);
      return;
    }
    case 'array': {
      const after = a as typeof b;
      compareBounds(ctx, path, touches, 'array', b, after);
      return compareTypes(ctx, b.of, after.of, `${path}[]`, touches);
    }
    case 'object':
      return ctx.onObject(b.fields, (a as typeof b).fields, path);
    default:
      return;
  }
}

function compareKinds(ctx: TypeContext, b: T, a: T, path: string, touches: Touches): void {
  const change = `${path}: ${describeType(b)} → ${describeType(a)}`;
  if (b.kind === 'int' && a.kind === 'number') return ctx.out.add('field-type-widened', path, change, touches, ctx.loc);
  if (b.kind === 'number' && a.kind === 'int') return ctx.out.add('field-type-narrowed', path, change, touches, ctx.loc);
  const fb = FORMAT[b.kind];
  const fa = FORMAT[a.kind];
  if (a.kind === 'enum' && fb !== undefined) return ctx.out.add('field-became-enum', path, change, touches, ctx.loc);
  if (b.kind === 'enum' && fa !== undefined) return ctx.out.add('field-no-longer-enum', path, change, touches, ctx.loc);
  if (fb !== undefined && fa !== undefined) {
    // id, uuid and ref are all uuids on the wire: switching between them changes nothing a client sees.
    if (fb !== fa) ctx.out.add('field-format-changed', path, change, touches, ctx.loc);
    return;
  }
  ctx.out.add('field-type-changed', path, change, touches, ctx.loc);
}
