/**
 * @module How the diff engine names a value type: for messages (`describeType`), and as the base type and format
 * that make a removed and an added field a possible rename (`signatureOf`). Read by the type comparison, the rename
 * hints and the field matcher alike.
 */
import type { FieldAt, TypeIR, TypeKind } from '../model/ir.ts';
import { KINDS } from '../model/kinds.ts';

type T = TypeIR<FieldAt>;

/**
 * The JSON Schema format a string-like kind is sent as (`''` for plain strings), from the kinds table; undefined
 * for every other kind (an enum is not string-like here: it has its own rules). Kinds of one format look the
 * same on the wire.
 */
export function formatOf(kind: TypeKind): string | undefined {
  const facts = KINDS[kind];
  return kind === 'enum' || facts.wire !== 'string' ? undefined : (facts.format ?? '');
}

/** A short name of a kind for messages: `string (date-time)`, `int`. */
export function describeType(t: T): string {
  if (t.kind === 'ref') return `ref(${t.collection})`;
  if (t.kind === 'array') return `array of ${describeType(t.of)}${t.itemsNullable ? ' or null' : ''}`;
  // Sorted: a locked contract keeps enum values sorted, and messages and fingerprints must not depend on it.
  if (t.kind === 'enum') return `enum(${[...t.values].sort().join(', ')})`;
  return t.kind;
}

/** Base type and format: equal signatures make a removal plus an addition a possible rename. */
export function signatureOf(t: T): string {
  if (t.kind === 'array') return `array<${signatureOf(t.of)}>`;
  if (t.kind === 'enum') return 'string:enum';
  const format = formatOf(t.kind);
  if (format !== undefined) return `string:${format}`;
  return t.kind === 'int' ? 'integer' : t.kind;
}
