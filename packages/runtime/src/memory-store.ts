/**
 * A complete in-memory implementation of one collection's handlers: ids and read-only fields assigned,
 * unique fields checked (409) through an index (O(1) per request), cursor pagination (in creation order, or
 * keyset pages in a query's sort), every filter operator, field masks, reads of several ids at once (for the
 * refs other collections expand), lifecycle transitions, and write preconditions (412) checked in the same step
 * as the write. For trying an API out and for tests: data lives as long as the process, at most `maxRecords` per
 * collection (a create beyond answers 507); a sorted page sorts every matching record (fine at that size).
 */
import { randomUUID } from 'node:crypto';
import { createComparator, createMatcher, decodeKeyset, encodeKeyset, masked } from './memory-query.js';
import { BadRequest, Conflict, HttpProblem, InvalidTransition, NotFound, PreconditionFailed } from './problems.js';
import type { CollectionHandlers, HandlerContext, ListQuery, Page } from './types.js';

/** How the store assigns a read-only field: a new uuid, the current time or date, or a fixed value. */
export type Assign = readonly [key: string, how: 'uuid' | 'now' | 'today'] | readonly [key: string, how: 'value', value: unknown];

/** What the store knows about a collection (newest field names). */
export interface MemorySpec {
  readonly name: string;
  readonly id: string;
  readonly assign: readonly Assign[];
  readonly unique: readonly string[];
  /** Read-only fields: kept on replace and update. */
  readonly readOnly: readonly string[];
  /** The date-time fields: filters and sorts compare them by instant (absent: none). */
  readonly instants?: readonly string[];
  /** The lifecycle: the state field and each transition's states (null without one). */
  readonly lifecycle: {
    readonly field: string;
    readonly transitions: Readonly<Record<string, { readonly from: readonly string[]; readonly to: string }>>;
  } | null;
}

/** An in-memory transition: moves the stored resource (the input is not stored) and answers it. */
export type MemoryTransition<T> = (resource: T, input: unknown, ctx: HandlerContext) => T | HttpProblem;

/** Options of the in-memory handlers. */
export interface MemoryOptions {
  /** The clock for `now`/`today` read-only fields (tests inject one). */
  readonly now?: () => Date;
  /** The most records a collection keeps (default 100 000); a create beyond answers 507. */
  readonly maxRecords?: number;
}

type Row = Record<string, unknown>;

/** A cursor in creation order: the sequence number of the last record served. */
export const encodeCursor = (seq: number): string => `s${seq}`;

/** The sequence number of a cursor in creation order, or null when it is not one. */
export function decodeCursor(cursor: string): number | null {
  const match = /^s(\d{1,15})$/.exec(cursor);
  return match ? Number(match[1]) : null;
}

/** 400 for a cursor this store did not issue (the runtime already checked that it was issued for this query). */
const badCursor = () =>
  new BadRequest('The cursor is not one this server issued.', [{ pointer: '/query/cursor', detail: 'unknown cursor', parameter: 'cursor' }]);

const defined = (input: object): Row => {
  const out: Row = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined) out[key] = value;
  return out;
};

/**
 * In-memory handlers for one collection. `T` is the newest resource type: records are built from validated
 * bodies plus the assigned read-only fields, so they have its shape. `X` types the transitions the spec
 * lists (the generated module's `Transitions`), which the store implements.
 */
export function createMemoryCollection<T extends object, X extends object = Record<never, never>>(
  spec: MemorySpec,
  seed: readonly T[] = [],
  options: MemoryOptions = {},
): CollectionHandlers<T, object, object, object, ListQuery> & X {
  const rows = new Map<string, { seq: number; row: Row }>();
  // Per unique field: value -> id of the record holding it.
  const owners = new Map(spec.unique.map((field) => [field, new Map<unknown, string>()]));
  let seq = 0;
  // Records in the order they were created (ascending `seq`), so a cursor seeks its place by binary search
  // instead of walking every earlier record; a deleted record stays until half of the entries are deleted.
  let order: { readonly seq: number; readonly id: string }[] = [];
  let deleted = 0;
  const clock = options.now ?? (() => new Date());
  const instants: ReadonlySet<string> = new Set(spec.instants ?? []);
  const maxRecords = options.maxRecords ?? 100_000;
  const out = (row: Row): T => structuredClone(row) as T;
  const index = (id: string, row: Row | null, old: Row | null) => {
    for (const [field, owner] of owners) {
      if (old && old[field] !== undefined && owner.get(old[field]) === id) owner.delete(old[field]);
      if (row && row[field] !== undefined) owner.set(row[field], id);
    }
  };
  const taken = (row: Row, self: string | null): Conflict | null => {
    for (const [field, owner] of owners) {
      const value = row[field];
      if (value === undefined) continue;
      const holder = owner.get(value);
      if (holder !== undefined && holder !== self) return new Conflict(`${spec.name}.${field} ${JSON.stringify(value)} is taken by another resource.`, field);
    }
    return null;
  };
  const put = (id: string, row: Row, old: Row | null) => {
    index(id, row, old);
    const found = rows.get(id);
    if (found) found.row = row;
    else {
      rows.set(id, { seq: ++seq, row });
      order.push({ seq, id });
    }
  };
  const remove = (id: string) => {
    rows.delete(id);
    if (++deleted * 2 <= order.length) return;
    order = order.filter((e) => rows.get(e.id)?.seq === e.seq);
    deleted = 0;
  };
  /** The index in `order` of the first record created after sequence number `after`. */
  const seek = (after: number): number => {
    let low = 0;
    let high = order.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (order[mid]!.seq <= after) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  for (const item of seed) {
    const row = defined(structuredClone(item));
    put(String(row[spec.id]), row, null);
  }
  const assigned = (): Row => {
    const row: Row = {};
    for (const [key, how, value] of spec.assign) {
      if (how === 'uuid') row[key] = randomUUID();
      else if (how === 'now') row[key] = clock().toISOString();
      else if (how === 'today') row[key] = clock().toISOString().slice(0, 10);
      else row[key] = structuredClone(value);
    }
    return row;
  };
  const keep = (row: Row): Row => {
    const kept: Row = {};
    for (const key of spec.readOnly) if (row[key] !== undefined) kept[key] = row[key];
    return kept;
  };
  const missing = (id: string) => new NotFound(`No ${spec.name} resource has id ${id}.`);
  /**
   * The stored row of `id` when the write may go on: a missing one answers 404 (412 under `If-Match`, which
   * no missing resource satisfies: a concurrent delete won), a failed precondition 412.
   */
  const current = (id: string, ctx: HandlerContext | undefined) => {
    const found = rows.get(id);
    if (!found) return ctx?.condition && !ctx.condition.matches(null) ? new PreconditionFailed() : missing(id);
    if (ctx?.condition && !ctx.condition.matches(found.row)) return new PreconditionFailed();
    return found;
  };
  const transitions: Record<string, MemoryTransition<T>> = {};
  const lifecycle = spec.lifecycle;
  for (const [name, t] of Object.entries(lifecycle?.transitions ?? {}))
    transitions[name] = (resource, _input, ctx) => {
      const id = String((resource as Row)[spec.id]);
      const found = current(id, ctx);
      if (found instanceof HttpProblem) return found;
      // Checked again here, in the same step as the write: the state may have moved since it was loaded.
      const state = String(found.row[lifecycle!.field]);
      if (!t.from.includes(state)) return new InvalidTransition(state);
      const row = { ...found.row, [lifecycle!.field]: t.to };
      put(id, row, found.row);
      return out(row);
    };
  const crud: CollectionHandlers<T, object, object, object, ListQuery> = {
    list(query): Page<T> | BadRequest {
      const match = createMatcher(query.filter ?? {}, instants);
      const sort = query.sort ?? [];
      const fields = query.fields ?? null;
      const data: T[] = [];
      if (sort.length === 0) {
        // Creation order: a cursor seeks its place among the records by binary search.
        const after = query.cursor === undefined ? 0 : decodeCursor(query.cursor);
        if (after === null) return badCursor();
        let last = 0;
        for (let i = seek(after); i < order.length; i++) {
          const { seq: at, id } = order[i]!;
          const row = rows.get(id);
          if (row === undefined || row.seq !== at || !match(row.row)) continue;
          if (data.length === query.limit) return { data, next_cursor: encodeCursor(last) };
          data.push(masked(out(row.row), fields));
          last = at;
        }
        return { data, next_cursor: null };
      }
      const compare = createComparator(sort, instants);
      const after = query.cursor === undefined ? null : decodeKeyset(query.cursor, sort);
      if (query.cursor !== undefined && after === null) return badCursor();
      const matching: Row[] = [];
      for (const { row } of rows.values()) if (match(row) && (after === null || compare(row, after) > 0)) matching.push(row);
      matching.sort(compare);
      for (const row of matching.slice(0, query.limit)) data.push(masked(out(row), fields));
      const last = matching[query.limit - 1];
      return { data, next_cursor: matching.length > query.limit && last ? encodeKeyset(last, sort) : null };
    },
    getMany(ids) {
      const found: T[] = [];
      for (const id of new Set(ids)) {
        const row = rows.get(id);
        if (row) found.push(out(row.row));
      }
      return found;
    },
    get(id) {
      const found = rows.get(id);
      return found ? out(found.row) : missing(id);
    },
    create(body) {
      if (rows.size >= maxRecords) return new HttpProblem(507, 'storage_full', `The in-memory store keeps at most ${maxRecords} ${spec.name}.`);
      const row = { ...defined(body), ...assigned() };
      const conflict = taken(row, null);
      if (conflict) return conflict;
      put(String(row[spec.id]), row, null);
      return out(row);
    },
    replace(id, body, ctx) {
      const found = current(id, ctx);
      if (found instanceof HttpProblem) return found;
      const row = { ...defined(body), ...keep(found.row) };
      const conflict = taken(row, id);
      if (conflict) return conflict;
      put(id, row, found.row);
      return out(row);
    },
    update(id, patch, ctx) {
      const found = current(id, ctx);
      if (found instanceof HttpProblem) return found;
      const row = { ...found.row, ...defined(patch), ...keep(found.row) };
      const conflict = taken(row, id);
      if (conflict) return conflict;
      put(id, row, found.row);
      return out(row);
    },
    delete(id, ctx) {
      const found = current(id, ctx);
      if (found instanceof HttpProblem) return found;
      index(id, null, found.row);
      remove(id);
      return undefined;
    },
  };
  // The spec lists exactly the transitions `X` types (both are generated from one lifecycle).
  return { ...crud, ...transitions } as CollectionHandlers<T, object, object, object, ListQuery> & X;
}
