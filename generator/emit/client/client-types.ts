/**
 * @module Writes the client's TypeScript types of fields, as source text. One writer per type kind, keyed
 * by kind, so a new kind without a writer fails to compile. The client carries its own types (it does not
 * import zod), so they must match what the zod schemas accept and answer: `response` drops write-only
 * fields and makes fields with defaults required; `request` drops read-only fields and makes fields with
 * defaults optional; `patch` makes every top-level field optional.
 */
import type { FieldAt, TypeIR, TypeKind } from '../../model/ir.ts';

/** Which side of the wire a type describes. */
export type TypeMode = 'response' | 'request' | 'patch';

/** One property of a generated object type. */
export interface MemberView {
  /** The property key as source (quoted when it is not an identifier). */
  readonly key: string;
  readonly optional: boolean;
  readonly type: string;
  /** JSDoc text (description, `@deprecated`), or false. */
  readonly doc: string | false;
}

type Writers = { [K in TypeKind]: (type: Extract<TypeIR<FieldAt>, { kind: K }>, mode: TypeMode) => string };

const writers: Writers = {
  string: () => 'string',
  int: () => 'number',
  number: () => 'number',
  boolean: () => 'boolean',
  enum: (t) => t.values.map((v) => JSON.stringify(v)).join(' | '),
  datetime: () => 'string',
  date: () => 'string',
  uuid: () => 'string',
  email: () => 'string',
  url: () => 'string',
  id: () => 'string',
  ref: () => 'string',
  array: (t, mode) => {
    const item = typeText(t.of, mode);
    if (t.itemsNullable) return `(${item} | null)[]`;
    return item.includes('|') && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
  },
  object: (t, mode) => `{ ${members(t.fields, mode).map(memberText).join(' ')} }`,
};

/**
 * The TypeScript type of a value. Nested objects are written inline with the member rules of `mode`;
 * `patch` applies to the top level only (a nested object is sent whole, as in a create).
 */
export function typeText(type: TypeIR<FieldAt>, mode: TypeMode): string {
  return (writers[type.kind] as (t: TypeIR<FieldAt>, m: TypeMode) => string)(type, mode === 'patch' ? 'request' : mode);
}

/** A property key: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

function fieldDoc(field: FieldAt): string | false {
  const lines = [
    ...(field.description !== undefined ? [field.description] : []),
    ...(field.deprecated ? ['@deprecated'] : []),
  ];
  // A JSDoc tag counts only at the start of a line.
  return lines.length > 0 ? lines.join('\n * ') : false;
}

/** The members of an object type in `mode`, in the order the fields were written. */
export function members(fields: readonly FieldAt[], mode: TypeMode): MemberView[] {
  return fields.flatMap((field): MemberView[] => {
    if (mode === 'response' ? field.writeOnly : field.readOnly) return [];
    const optional =
      mode === 'patch' || (mode === 'response' ? field.optional && !field.default : field.optional || !!field.default);
    const type = typeText(field.type, mode) + (field.nullable ? ' | null' : '');
    return [{ key: propertyKey(field.name), optional, type, doc: fieldDoc(field) }];
  });
}

/** One member as source, for nested object types written inline. */
function memberText(m: MemberView): string {
  return `${m.key}${m.optional ? '?' : ''}: ${m.type};`;
}

/** The filters of a list query: each filterable field, typed as responses carry it. */
export function filterMembers(fields: readonly FieldAt[]): MemberView[] {
  return fields.flatMap((field): MemberView[] =>
    field.filterable && !field.writeOnly
      ? [{ key: propertyKey(field.name), optional: true, type: typeText(field.type, 'response'), doc: fieldDoc(field) }]
      : [],
  );
}
