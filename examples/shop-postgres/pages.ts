/**
 * @module One page of a list on PostgreSQL: the query's filters, sort and cursor in SQL (`list-query.ts`), one row
 * more than the page to learn whether another follows, and the cursor of the next page, after its last row.
 */
import type pg from 'pg';
import { HttpProblem, type ListQuery, type Page } from '../shop/generated/server/index.js';
import type { Cursors } from './cursor.js';
import { listSql, type Table } from './list-query.js';

/** What a page reads of a table: the columns selected, and the resource of a row (whose values the cursor holds). */
export interface PageSource<R extends { readonly seq: string }, T> {
  readonly table: Table;
  readonly select: string;
  readonly resource: (row: R) => T;
}

/** The page `query` asks for, or the 400 of a cursor this server did not issue for it. */
export async function pageOf<R extends { readonly seq: string }, T>(
  db: pg.Pool,
  source: PageSource<R, T>,
  query: ListQuery,
  cursors: Cursors,
): Promise<Page<T> | HttpProblem> {
  const position = cursors.decode(query.cursor, query);
  if (position instanceof HttpProblem) return position;
  const { where, orderBy, params } = listSql(source.table, query, position, 2);
  const { rows } = await db.query<R>(`SELECT ${source.select} FROM ${source.table.name} WHERE ${where} ORDER BY ${orderBy} LIMIT $1`, [query.limit + 1, ...params]);
  const page = rows.slice(0, query.limit);
  const data = page.map(source.resource);
  const last = page.at(-1);
  if (rows.length <= query.limit || last === undefined) return { data, next_cursor: null };
  // In a sort, the next page starts after the last row's values of the sort's keys (as its resource holds them).
  const shown = data.at(-1) as Record<string, unknown>;
  const next = query.sort.length === 0 ? { seq: last.seq } : { after: query.sort.map((k) => shown[k.field] ?? null) };
  return { data, next_cursor: cursors.encode(next, query) };
}
