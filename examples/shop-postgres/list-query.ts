/**
 * @module A list query in SQL: the filters, the sort and the keyset position of a parsed `ListQuery` become a
 * WHERE and an ORDER BY clause in which every value is a bound parameter and every column name comes from the
 * table's own description below, never from the request (a field the description lacks is refused, whatever the
 * query held). The order is the API's: absent values last in either direction, text by code point (`COLLATE "C"`,
 * UTF-8 byte order), date-times by instant, ties broken by the keys that follow, the id last.
 */
import type { FilterOp, ListQuery } from '../shop/generated/server/index.js';

/** How a column's values compare and how a parameter is cast to them. */
export type ColumnType = 'text' | 'integer' | 'bigint' | 'double precision' | 'timestamptz' | 'date' | 'uuid' | 'boolean';

/** A column a list may filter or sort by. */
export interface Column {
  readonly column: string;
  readonly type: ColumnType;
}

/** A table as lists read it: its name, the order of its rows without a sort, and its columns by the field's newest name. */
export interface Table {
  readonly name: string;
  /** The column that holds the order of creation (a keyset of one column). */
  readonly seq: string;
  readonly columns: Readonly<Record<string, Column>>;
}

/** Where a page starts: after a row of creation order (its `seq`), or after the sort keys' values of a row. */
export type Position = { readonly seq: string } | { readonly after: readonly unknown[] };

/** A column, compared as the API compares its values. */
const operand = (c: Column): string => (c.type === 'text' ? `${c.column} COLLATE "C"` : c.column);

/**
 * The type a parameter is cast to: the column's, but `numeric` for an integer column, so that any whole number the
 * API accepts (up to 2^53) compares instead of overflowing `integer` (a `bigint` column holds them all).
 */
const castOf = (c: Column): string => (c.type === 'integer' ? 'numeric' : c.type);

/**
 * A value as the column's parameter: the year 0000, which the API's dates accept and PostgreSQL's do not (its
 * calendar has no year 0), is before every date PostgreSQL can hold, so it compares as `-infinity` does.
 */
function boundValue(c: Column, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => boundValue(c, v));
  return (c.type === 'date' || c.type === 'timestamptz') && typeof value === 'string' && value.startsWith('0000-') ? '-infinity' : value;
}

/** The SQL of each operator on a column and a parameter (`$3`): a null never matches, as the API says. */
const OPS: { readonly [K in FilterOp]: (column: string, param: string, c: Column) => string } = {
  eq: (col, p, c) => `${col} = ${p}::${castOf(c)}`,
  ne: (col, p, c) => `${col} <> ${p}::${castOf(c)}`,
  in: (col, p, c) => `${col} = ANY(${p}::${castOf(c)}[])`,
  gt: (col, p, c) => `${col} > ${p}::${castOf(c)}`,
  gte: (col, p, c) => `${col} >= ${p}::${castOf(c)}`,
  lt: (col, p, c) => `${col} < ${p}::${castOf(c)}`,
  lte: (col, p, c) => `${col} <= ${p}::${castOf(c)}`,
};

/** The column of field `key`, or an error: the runtime only passes fields of the contract, and this table must know each. */
function columnOf(table: Table, key: string): Column {
  if (!Object.hasOwn(table.columns, key)) throw new Error(`internal error: ${table.name} has no column for the list field ${JSON.stringify(key)}`);
  return table.columns[key]!;
}

/** The SQL of a list query over `table`: WHERE (from `first` on, the parameters are numbered after the caller's) and ORDER BY. */
export function listSql(table: Table, query: ListQuery, position: Position | null, first = 1): { where: string; orderBy: string; params: unknown[] } {
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${first + params.length - 1}`;
  };
  const conditions: string[] = [];
  for (const [key, ops] of Object.entries(query.filter)) {
    const c = columnOf(table, key);
    for (const [op, value] of Object.entries(ops ?? {}))
      if (value !== undefined) conditions.push(OPS[op as FilterOp](operand(c), param(boundValue(c, value)), c));
  }
  const sort = query.sort.map((k) => ({ c: columnOf(table, k.field), desc: k.direction === 'desc' }));
  if (position !== null && 'seq' in position) conditions.push(`${table.seq} > ${param(position.seq)}::bigint`);
  if (position !== null && 'after' in position) conditions.push(after(sort, position.after, param));
  const orderBy = sort.length === 0 ? table.seq : sort.map(({ c, desc }) => `${operand(c)} ${desc ? 'DESC' : 'ASC'} NULLS LAST`).join(', ');
  return { where: conditions.length === 0 ? 'TRUE' : conditions.join(' AND '), orderBy, params };
}

/**
 * The rows after a position in a sort, key by key: a greater value (a smaller one, descending), an absent one (they
 * come last), or the same value and the rows after it in the keys that follow. After an absent value, only absent
 * values of that key come, ordered by the keys that follow.
 */
function after(sort: readonly { c: Column; desc: boolean }[], values: readonly unknown[], param: (value: unknown) => string): string {
  if (values.length !== sort.length) throw new Error('internal error: a keyset of another sort');
  const from = (i: number): string => {
    const { c, desc } = sort[i]!;
    const col = operand(c);
    const v = values[i];
    const last = i === sort.length - 1;
    if (v === null || v === undefined) return last ? 'FALSE' : `(${c.column} IS NULL AND ${from(i + 1)})`;
    const p = param(v);
    const beyond = `${col} ${desc ? '<' : '>'} ${p}::${castOf(c)} OR ${c.column} IS NULL`;
    return last ? `(${beyond})` : `(${beyond} OR (${col} = ${p}::${castOf(c)} AND ${from(i + 1)}))`;
  };
  return from(0);
}
