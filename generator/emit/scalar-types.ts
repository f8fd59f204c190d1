/**
 * @module The TypeScript type of every scalar field kind, shared by the client's types and the server's
 * hook signatures (enums, arrays, objects and files are written by each emitter, by its own rules).
 */
import type { TypeKind } from '../model/ir.ts';
import { t, type Type } from '../printer/ast.ts';

/** The kinds whose TypeScript type does not depend on the field (a file's depends on the side of the wire). */
export type ScalarKind = Exclude<TypeKind, 'enum' | 'array' | 'object' | 'file'>;

const text = (): Type => t.ref('string');
const numeric = (): Type => t.ref('number');

/** One writer per scalar kind, to spread into an emitter's table of writers. */
export const SCALAR_WRITERS: { readonly [K in ScalarKind]: () => Type } = {
  string: text,
  int: numeric,
  number: numeric,
  boolean: () => t.ref('boolean'),
  datetime: text,
  date: text,
  uuid: text,
  email: text,
  url: text,
  id: text,
  ref: text,
};
