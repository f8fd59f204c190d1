/**
 * @module Writes the client's TypeScript types of fields, as source text. One writer per type kind, keyed
 * by kind, so a new kind without a writer fails to compile. The client carries its own types (it does not
 * import zod), so they must match what the zod schemas accept and answer: `response` drops write-only
 * fields and makes fields with defaults required; `request` drops read-only fields and makes fields with
 * defaults optional; `patch` makes every top-level field optional.
 */
import type { CollectionAt, FieldAt, TypeIR, TypeKind } from '../../model/ir.ts';
import { t as ty, type Type } from '../../printer/ast.ts';
import { SCALAR_WRITERS } from '../scalar-types.ts';

/** Which side of the wire a type describes. */
export type TypeMode = 'response' | 'request' | 'patch';

/** One property of a generated object type. */
export interface MemberView {
  /** The property key as source (quoted when it is not an identifier). */
  readonly key: string;
  readonly optional: boolean;
  readonly type: Type;
  /** JSDoc text (description, `@deprecated`), or false. */
  readonly doc: string | false;
}

type Writers = { [K in TypeKind]: (type: Extract<TypeIR<FieldAt>, { kind: K }>, mode: TypeMode) => Type };

const writers: Writers = {
  ...SCALAR_WRITERS,
  enum: (t) => ty.union(t.values.map(ty.str)),
  // A union element is parenthesised by the printer: `("a" | "b")[]`.
  array: (t, mode) => {
    const item = typeText(t.of, mode);
    return ty.array(t.itemsNullable ? ty.union([item, ty.ref('null')]) : item);
  },
  object: (t, mode) => ty.lit(members(t.fields, mode).map((m) => ty.prop(m.key, m.type, m.optional))),
  // Sent: the file's content (a Blob or File, or a stream); answered: its metadata and where to download it.
  file: (_t, mode) => (mode === 'response' ? ty.ref('$files.FileMetadata') : ty.ref('$files.Upload')),
};

/**
 * The TypeScript type of a value. Nested objects are written inline with the member rules of `mode`;
 * `patch` applies to the top level only (a nested object is sent whole, as in a create).
 */
export function typeText(type: TypeIR<FieldAt>, mode: TypeMode): Type {
  return (writers[type.kind] as (t: TypeIR<FieldAt>, m: TypeMode) => Type)(type, mode === 'patch' ? 'request' : mode);
}

/** A property key: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

function fieldDoc(field: FieldAt): string | false {
  const lines = [...(field.description !== undefined ? [field.description] : []), ...(field.deprecated ? ['@deprecated'] : [])];
  // A JSDoc tag counts only at the start of a line.
  return lines.length > 0 ? lines.join('\n * ') : false;
}

/** The members of an object type in `mode`, in the order the fields were written. */
export function members(fields: readonly FieldAt[], mode: TypeMode): MemberView[] {
  return fields.flatMap((field): MemberView[] => {
    if (mode === 'response' ? field.writeOnly : field.readOnly) return [];
    const optional = mode === 'patch' || (mode === 'response' ? field.optional && !field.default : field.optional || !!field.default);
    const type = typeText(field.type, mode);
    return [{ key: field.name, optional, type: field.nullable ? ty.union([type, ty.ref('null')]) : type, doc: fieldDoc(field) }];
  });
}

/** The filters of a list query: each filterable field and its operators, its values typed as responses carry them. */
export function filterMembers(c: CollectionAt): MemberView[] {
  return c.query.filters.flatMap((f): MemberView[] => {
    const field = c.fields.find((x) => x.name === f.name)!;
    const ops = ty.union(f.ops.map(ty.str));
    return [{ key: propertyKey(field.name), optional: true, type: ty.ref('$.Filter', [typeText(field.type, 'response'), ops]), doc: fieldDoc(field) }];
  });
}
