/**
 * The operators table: what each list filter operator is on the wire and what it asks of a value. The
 * generator (DSL checks, zod query schemas, OpenAPI, the client), the diff engine and this runtime (query
 * structure, the memory store) all read it, so an operator's facts are written once.
 */

/** The operators a filterable field can offer, in the order they are always listed. */
export const FILTER_OPS = ['eq', 'ne', 'in', 'gt', 'gte', 'lt', 'lte'] as const;

/** One filter operator. */
export type FilterOp = (typeof FILTER_OPS)[number];

/** What one operator is. */
export interface FilterOpFacts {
  /** Whether it compares by order, and so needs a kind with one (int, number, date, datetime, string). */
  readonly ordered: boolean;
  /** Whether its value is a comma-separated list (`?genre[in]=poetry,drama`). */
  readonly list: boolean;
  /** What it keeps, for docs and messages: `equals`, `is greater than`. */
  readonly reads: string;
}

/** Every operator's facts. */
export const FILTER_OP_FACTS: { readonly [K in FilterOp]: FilterOpFacts } = {
  eq: { ordered: false, list: false, reads: 'equals' },
  ne: { ordered: false, list: false, reads: 'differs from' },
  in: { ordered: false, list: true, reads: 'is one of' },
  gt: { ordered: true, list: false, reads: 'is greater than' },
  gte: { ordered: true, list: false, reads: 'is at least' },
  lt: { ordered: true, list: false, reads: 'is less than' },
  lte: { ordered: true, list: false, reads: 'is at most' },
};

/** The query parameter of an operator on a field: `genre` for `eq`, `price[gte]` for the others. */
export const filterParameter = (field: string, op: FilterOp): string => (op === 'eq' ? field : `${field}[${op}]`);

/** The most values an `in` filter takes (a longer list answers 400). */
export const MAX_IN_VALUES = 100;

/** The query parameters every list reads besides its filters. */
export const LIST_PARAMETERS = ['limit', 'cursor', 'sort', 'fields', 'expand'] as const;
