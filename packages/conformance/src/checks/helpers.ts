/**
 * @module What several checks need: which fields a write may not touch, the field an update changes, the
 * filter that narrows a list to the run's own records, and walking a list page by page.
 */
import type { FieldAt } from 'restgen/contract';
import type { CheckContext } from '../context.js';
import type { Exchange } from '../types.js';

/** A page-walk's bound when the list cannot be narrowed to the run's records. */
export const MAX_PAGES = 200;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Kinds a query parameter can carry and a list can filter on. */
const SCALAR = new Set(['string', 'int', 'number', 'boolean', 'enum', 'datetime', 'date', 'uuid', 'email', 'url', 'id', 'ref']);

/** The fields whose values a check compares: all but those a stand-in hook of the server converts (`restgen serve`). */
export const comparedFields = (ctx: CheckContext): FieldAt[] => ctx.c.fields.filter((f) => !ctx.stoodIn(f));

/** The fields a response shows (write-only ones never). */
export const shownFields = (ctx: CheckContext): FieldAt[] => comparedFields(ctx).filter((f) => !f.writeOnly);

/** The fields a write must leave alone unless it sends them: read-write ones, the id and the lifecycle state (only transitions move it). */
export function keptFields(ctx: CheckContext): FieldAt[] {
  const state = ctx.c.lifecycle?.field;
  return comparedFields(ctx).filter((f) => !f.writeOnly && (!f.readOnly || f.type.kind === 'id' || f.name === state));
}

/** Fields a request sends and a response shows the same: writable, not write-only, stored (not removed later). */
export const echoedFields = (ctx: CheckContext): FieldAt[] => comparedFields(ctx).filter((f) => !f.readOnly && !f.writeOnly && f.removedIn === undefined);

/** The field an update or replace changes: writable, shown, top-level, a plain kind; not a ref when another will do. */
export function changeableField(ctx: CheckContext, candidates: readonly FieldAt[] = echoedFields(ctx)): FieldAt | undefined {
  const plain = candidates.filter((f) => SCALAR.has(f.type.kind) && f.type.kind !== 'ref' && f.type.kind !== 'id');
  const score = (f: FieldAt) =>
    (f.unique ? 2 : 0) + ((f.markers ?? []).some((m) => m.member === 'typeChangedFrom' && m.index > ctx.v.api.version.index) ? 1 : 0);
  return [...plain].sort((a, b) => score(a) - score(b)).find((f) => !(f.type.kind === 'enum' && f.type.values.length < 2));
}

/** The value `field` has in `resource`, changed: a fresh valid value other than the current one (the check is skipped when there is none). */
export function changed(ctx: CheckContext, field: FieldAt, current: unknown): unknown {
  const value = ctx.values.other(field, current, () => '');
  if (value === undefined) ctx.skip(`${field.name} allows no value other than ${JSON.stringify(current)}`);
  return value;
}

/** A filterable, writable ref: listing by it answers only the records of one parent, which the run can make its own. */
export function narrowingField(ctx: CheckContext): FieldAt | undefined {
  return ctx.c.fields.find((f) => f.filterable && !f.readOnly && f.type.kind === 'ref');
}

/** Whether a list can filter on `field` (a top-level scalar). */
export const filterableKind = (field: FieldAt): boolean => field.filterable && SCALAR.has(field.type.kind);

/** A filter that lists only records the run makes with `overrides` (a fresh parent, or a run-unique text); null when none exists. */
export async function ownScope(ctx: CheckContext): Promise<{ query: Record<string, string>; overrides: Record<string, unknown> } | null> {
  const ref = narrowingField(ctx);
  if (ref && ref.type.kind === 'ref') {
    const id = await ctx.parent(ref.type.collection, true);
    return { query: { [ref.name]: id }, overrides: { [ref.name]: id } };
  }
  const text = ctx.c.fields.find(
    (f) =>
      f.filterable &&
      !f.readOnly &&
      !f.unique &&
      !f.writeOnly &&
      ((f.type.kind === 'string' && f.type.pattern === undefined) || f.type.kind === 'email' || f.type.kind === 'url'),
  );
  if (text) {
    const value = ctx.values.field(text, () => '');
    return { query: { [text.name]: String(value) }, overrides: { [text.name]: value } };
  }
  return null;
}

/** One walk of a list. */
export interface Walk {
  /** The items of every page, in order, with the page they were on. */
  readonly items: readonly { readonly item: Record<string, unknown>; readonly page: number }[];
  readonly pages: readonly Exchange[];
  /** The `next_cursor` of every page but the last. */
  readonly cursors: readonly string[];
  /** False when the walk stopped at the page bound. */
  readonly complete: boolean;
}

/**
 * Walks a list from the first page while `next_cursor` is not null (at most `maxPages`), with `query` and
 * `limit`; `between(page, items)` runs after each page that has a next one.
 */
export async function walk(
  ctx: CheckContext,
  query: Readonly<Record<string, string>>,
  limit: number,
  maxPages = MAX_PAGES,
  between?: (page: number, items: Walk['items']) => Promise<void>,
): Promise<Walk> {
  const items: { item: Record<string, unknown>; page: number }[] = [];
  const pages: Exchange[] = [];
  const cursors: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const exchange = await ctx.api.list({ ...query, limit: String(limit), ...(cursor !== null ? { cursor } : {}) });
    pages.push(exchange);
    ctx.succeeded(exchange, `listing page ${page + 1}`);
    const body = exchange.answer?.body;
    const data = isObject(body) ? body['data'] : undefined;
    const next = isObject(body) ? body['next_cursor'] : undefined;
    if (!Array.isArray(data) || (next !== null && typeof next !== 'string')) ctx.stop('list', `page ${page + 1} is not { data: [...], next_cursor }`, exchange);
    for (const item of data as unknown[]) if (isObject(item)) items.push({ item, page: page + 1 });
    if (next === null) return { items, pages, cursors, complete: true };
    cursors.push(next as string);
    cursor = next as string;
    await between?.(page + 1, items);
  }
  return { items, pages, cursors, complete: false };
}

/** The page size for walks that must span pages: small, within the collection's maximum. */
export const smallLimit = (ctx: CheckContext): number => Math.max(1, Math.min(2, ctx.c.pagination.maxLimit));

/** The status list of concurrent answers, as a report shows it. */
export const statusesOf = (exchanges: readonly Exchange[]): string => `[${exchanges.map((e) => e.answer?.status ?? 'no answer').join(', ')}]`;

/** Finds the record `id` in the list (narrowed by a unique or ref filter the record has, when there is one). */
export async function findInList(
  ctx: CheckContext,
  id: string,
  resource: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown> | undefined | 'unknown'> {
  const by = ctx.c.fields.find(
    (f) => filterableKind(f) && !f.readOnly && (f.unique || f.type.kind === 'ref') && resource[f.name] !== undefined && resource[f.name] !== null,
  );
  const query = by ? { [by.name]: String(resource[by.name]) } : {};
  const found = await walk(ctx, query, ctx.c.pagination.maxLimit);
  const hit = found.items.find((x) => x.item[ctx.idField] === id);
  return hit ? hit.item : found.complete ? undefined : 'unknown';
}
