/**
 * @module Writes the TypeScript type of a field's value at one version, for the signatures of migration
 * hooks (the zod types describe whole resources; a hook converts one field). One writer per type kind.
 */
import type { FieldIR, FieldShape, TypeIR, TypeKind } from '../../model/ir.ts';
import { projectFields, shapeAt } from '../../model/project.ts';
import { propertyKey } from '../zod/zod-expression.ts';

type Writers = { [K in TypeKind]: (type: Extract<TypeIR, { kind: K }>, versions: readonly string[], at: number) => string };

const text = () => 'string';
const writers: Writers = {
  string: text,
  int: () => 'number',
  number: () => 'number',
  boolean: () => 'boolean',
  enum: (t) => t.values.map((v) => JSON.stringify(v)).join(' | '),
  datetime: text,
  date: text,
  uuid: text,
  email: text,
  url: text,
  id: text,
  ref: text,
  array: (t, versions, at) => `Array<${typeText(t.of, versions, at)}${t.itemsNullable ? ' | null' : ''}>`,
  object: (t, versions, at) => {
    // Nested fields as the version sees them (names, presence); their shapes come from the projection.
    const members = projectFields(versions, at, t.fields).map((f) => {
      const shape = shapeAt(versions, at, t.fields.find((x: FieldIR) => x.name === f.key)!);
      return `${propertyKey(f.name)}${shape.optional ? '?' : ''}: ${valueText(shape, versions, at)}`;
    });
    return `{ ${members.join('; ')} }`;
  },
};

/** The type of a value of `type` at version index `at` (no null or undefined). */
export function typeText(type: TypeIR, versions: readonly string[], at: number): string {
  return (writers[type.kind] as (t: TypeIR, v: readonly string[], a: number) => string)(type, versions, at);
}

/** The type of a present value of a field of this shape: its type, `| null` when nullable. */
export function valueText(shape: FieldShape, versions: readonly string[], at: number): string {
  return typeText(shape.type, versions, at) + (shape.nullable ? ' | null' : '');
}
