/**
 * @module Writes the TypeScript type of a field's value at one version, for the signatures of migration
 * hooks (the zod types describe whole resources; a hook converts one field). One writer per type kind.
 */
import type { FieldIR, FieldShape, TypeIR, TypeKind } from '../../model/ir.ts';
import { projectFields, shapeAt } from '../../model/project.ts';
import { t as ty, type Type } from '../../printer/ast.ts';
import { SCALAR_WRITERS } from '../scalar-types.ts';

type Writers = { [K in TypeKind]: (type: Extract<TypeIR, { kind: K }>, versions: readonly string[], at: number) => Type };

const writers: Writers = {
  ...SCALAR_WRITERS,
  enum: (t) => ty.union(t.values.map(ty.str)),
  array: (t, versions, at) => {
    const item = typeText(t.of, versions, at);
    return ty.ref('Array', [t.itemsNullable ? ty.union([item, ty.ref('null')]) : item]);
  },
  object: (t, versions, at) => {
    // Nested fields as the version sees them (names, presence); their shapes come from the projection.
    const byName = new Map(t.fields.map((x: FieldIR) => [x.name, x]));
    const members = projectFields(versions, at, t.fields).map((f) => {
      const shape = shapeAt(versions, at, byName.get(f.key)!);
      return ty.prop(f.name, valueText(shape, versions, at), shape.optional);
    });
    return ty.lit(members);
  },
  // What handlers keep of an upload (no hook converts a file: check-file.ts refuses the markers that would need one).
  file: () => ty.ref('$.StoredFile'),
};

/** The type of a value of `type` at version index `at` (no null or undefined). */
export function typeText(type: TypeIR, versions: readonly string[], at: number): Type {
  return (writers[type.kind] as (t: TypeIR, v: readonly string[], a: number) => Type)(type, versions, at);
}

/** The type of a present value of a field of this shape: its type, `| null` when nullable. */
export function valueText(shape: FieldShape, versions: readonly string[], at: number): Type {
  const type = typeText(shape.type, versions, at);
  return shape.nullable ? ty.union([type, ty.ref('null')]) : type;
}
