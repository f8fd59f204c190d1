/**
 * @module The IR of what a collection's list query can do with its fields: filter operators, sort keys and
 * expansions, each in the versions it holds in, and the list query as one version offers it (`QueryAt`, derived
 * once per projection: the zod, server, OpenAPI and client emitters read it, and so can any later emitter).
 * Re-exported by `ir.ts`.
 */
import type { FilterOp } from '@restgen/runtime/contract';

export { FILTER_OPS, FILTER_OP_FACTS, filterParameter, type FilterOp } from '@restgen/runtime/contract';

/** The versions a capability holds in: from `addedIn` (inclusive) until `removedIn` (exclusive); neither: always. */
export interface LifespanIR {
  readonly addedIn?: string;
  readonly removedIn?: string;
}

/** A filter operator of a field, in the versions it holds in (a projection's have no lifespan). */
export interface FilterOpIR extends LifespanIR {
  readonly op: FilterOp;
}

/** A sort direction. */
export type SortDirection = 'asc' | 'desc';

/** A key of a collection's `defaultSort`, by the field's newest name. */
export interface SortKeyIR {
  readonly field: string;
  readonly direction: SortDirection;
}

/** A field as a list query names it in one version: `name` in that version, `key` its newest name. */
export interface QueryName {
  readonly name: string;
  readonly key: string;
}

/** A filterable field of a list in one version and the operators it offers there, in the operators table's order. */
export interface FilterAt extends QueryName {
  readonly ops: readonly FilterOp[];
}

/** A key of a list's default order in one version. */
export interface SortAt extends QueryName {
  readonly direction: SortDirection;
}

/** An expandable reference in one version: `collection` is the referenced collection's newest name. */
export interface ExpansionAt extends QueryName {
  readonly collection: string;
}

/**
 * What a collection's list and read queries offer in one version: the filters with their operators, the sort
 * keys, the order of a list without `?sort=` (empty: the handlers' own), the fields a mask (`?fields=`) may name
 * (every readable field) and the expandable references. Plain data, in the order the fields were written.
 */
export interface QueryAt {
  readonly filters: readonly FilterAt[];
  readonly sortable: readonly QueryName[];
  readonly defaultSort: readonly SortAt[];
  readonly fields: readonly QueryName[];
  readonly expandable: readonly ExpansionAt[];
}
