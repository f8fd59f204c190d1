/**
 * @module Sorts and cursors bound to their query. The sort check makes records whose sortable fields tie (writable
 * ones get two values in turn), then walks the list page by page with each sort key ascending and descending, two
 * keys at once where there are two, and without `?sort=` where the collection declares a default order: across
 * pages every record comes once and each neighbour follows the order, ties broken by the id; an undeclared sort key
 * answers 400 at `/query/sort`. The cursor-mismatch check sends a page's cursor with another sort or filter than it
 * was issued under: 400 `cursor_mismatch`.
 */
import type { CheckContext } from '../context.js';
import type { CheckDefinition } from './definition.js';
import { ownScope, smallLimit, walk } from './helpers.js';
import { expectRefusal, fieldNamed, outOfOrder, sortText, UNKNOWN_NAME, type OrderKey } from './query-helpers.js';

/** Records made for the sort walks, and the filter that lists only them (empty: the whole collection). */
async function seed(ctx: CheckContext, count: number): Promise<{ ids: string[]; query: Record<string, string> }> {
  const own = await ownScope(ctx);
  const scoped = new Set(Object.keys(own?.overrides ?? {}));
  // Each writable sortable field alternates between two values (shifted per field), so that keys tie and a second
  // key or the id must decide; a unique one gets fresh values.
  const patterns = ctx.c.query.sortable
    .map((k) => fieldNamed(ctx, k.name))
    .filter((f) => !f.readOnly && !scoped.has(f.name))
    .map((f, n) => {
      const a = ctx.values.field(f, () => '');
      const b = ctx.values.other(f, a, () => '') ?? a;
      return { f, pick: (i: number) => (f.unique ? ctx.values.field(f, () => '') : (i + n) % 2 === 0 ? a : b) };
    });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const values = Object.fromEntries(patterns.map(({ f, pick }) => [f.name, pick(i)]));
    ids.push((await ctx.create({ ...values, ...(own?.overrides ?? {}) })).id);
  }
  return { ids, query: own?.query ?? {} };
}

/** Walks the list in `order` (`null`: without `?sort=`, which must follow `expected`) and records what breaks it. */
async function judgeOrder(
  ctx: CheckContext,
  ids: readonly string[],
  query: Readonly<Record<string, string>>,
  order: readonly OrderKey[] | null,
  expected: readonly OrderKey[],
): Promise<void> {
  const limit = smallLimit(ctx);
  const text = order === null ? 'the default order' : `sort=${sortText(order)}`;
  const walked = await walk(ctx, order === null ? query : { ...query, sort: sortText(order) }, limit);
  if (!walked.complete)
    ctx.skip(
      `the list has more than ${walked.pages.length} pages of ${limit}; run against a database with fewer ${ctx.c.name} records, or give the collection a filterable ref`,
    );
  const seen = new Set<unknown>();
  walked.items.forEach(({ item, page }, i) => {
    const id = item[ctx.idField];
    if (seen.has(id)) ctx.fail('list', `walking ${text} with limit=${limit}: record ${String(id)} comes twice`, walked.pages[page - 1]);
    seen.add(id);
    const before = walked.items[i - 1];
    const wrong = before === undefined ? null : outOfOrder(expected, ctx.idField, before.item, item);
    if (wrong !== null) ctx.fail('list', `walking ${text} with limit=${limit}, page ${page}: ${wrong}`, walked.pages[page - 1]);
  });
  const missing = ids.filter((id) => !seen.has(id));
  if (missing.length > 0)
    ctx.fail('list', `walking ${text} with limit=${limit}: ${missing.length} record(s) never came (${missing.join(', ')})`, walked.pages.at(-1));
}

/** Each sort key orders every page, both ways, ties broken by the id; the default order holds without `?sort=`. */
export const sort: CheckDefinition = {
  needs: ['create', 'list'],
  applies: (ctx) =>
    ctx.c.query.sortable.length > 0 || ctx.c.query.defaultSort.length > 0 ? undefined : `${ctx.c.name} has no sortable fields in ${ctx.v.name}`,
  async run(ctx) {
    const { ids, query } = await seed(ctx, 2 * smallLimit(ctx) + 1);
    const keys = ctx.c.query.sortable.map((k) => fieldNamed(ctx, k.name));
    const orders: OrderKey[][] = keys.flatMap((field) => [[{ field, descending: false }], [{ field, descending: true }]]);
    if (keys.length >= 2)
      orders.push([
        { field: keys[0]!, descending: false },
        { field: keys[1]!, descending: true },
      ]);
    for (const order of orders) await judgeOrder(ctx, ids, query, order, order);
    const declared = ctx.c.query.defaultSort.map((k) => ({ field: fieldNamed(ctx, k.name), descending: k.direction === 'desc' }));
    if (declared.length > 0) await judgeOrder(ctx, ids, query, null, declared);
    const unsortable = ctx.c.query.fields.find((f) => !ctx.c.query.sortable.some((k) => k.name === f.name) && f.name !== ctx.idField)?.name ?? UNKNOWN_NAME;
    expectRefusal(ctx, await ctx.api.list({ ...query, sort: unsortable }), 'sort', `sort=${unsortable} (not a sort key)`, true);
  },
};

/** A filter other than the list's, for a cursor: a dropped or an added one (null when the list has none to change). */
function otherFilter(ctx: CheckContext, query: Readonly<Record<string, string>>): Record<string, string> | null {
  const names = Object.keys(query);
  if (names.length > 0) return Object.fromEntries(names.slice(1).map((n) => [n, query[n]!]));
  const filter = ctx.c.query.filters.find(
    (f) => f.ops.includes('eq') && ['string', 'enum', 'int', 'number', 'boolean'].includes(fieldNamed(ctx, f.name).type.kind),
  );
  if (!filter) return null;
  const value = ctx.values.field(fieldNamed(ctx, filter.name), () => '');
  return { ...query, [filter.name]: typeof value === 'string' ? value : JSON.stringify(value) };
}

/** A cursor sent with another sort or other filters than it was issued under answers 400 `cursor_mismatch`. */
export const cursorMismatch: CheckDefinition = {
  needs: ['create', 'list'],
  applies: (ctx) =>
    ctx.c.query.sortable.length > 0 || ctx.c.query.filters.length > 0 ? undefined : `${ctx.c.name} has neither sort keys nor filters in ${ctx.v.name}`,
  async run(ctx) {
    const limit = smallLimit(ctx);
    const { query } = await seed(ctx, limit + 1);
    const key = ctx.c.query.sortable[0]?.name;
    const issued = key === undefined ? query : { ...query, sort: key };
    const first = await ctx.api.list({ ...issued, limit: String(limit) });
    ctx.expect(first, [200], 'listing the first page');
    const cursor = (first.answer?.body as { next_cursor?: unknown } | undefined)?.next_cursor;
    if (typeof cursor !== 'string') return ctx.stop('list', `the first page of ${limit} has no next_cursor, though there are more records`, first);
    const changes: [string, Record<string, string>][] = [];
    if (key !== undefined) changes.push([`sort=-${key} (the cursor was issued for sort=${key})`, { ...query, sort: `-${key}` }]);
    const other = otherFilter(ctx, query);
    if (other !== null) changes.push([`other filters than the cursor was issued for`, { ...other, ...(key === undefined ? {} : { sort: key }) }]);
    if (changes.length === 0) ctx.skip(`${ctx.c.name} has no sort key, and no filter the run can change, in ${ctx.v.name}`);
    for (const [what, changed] of changes) {
      const answer = await ctx.api.list({ ...changed, limit: String(limit), cursor });
      const code = (answer.answer?.body as { code?: unknown } | undefined)?.code;
      if (answer.answer !== null && (answer.answer.status !== 400 || code !== 'cursor_mismatch'))
        ctx.fail('list', `a cursor sent with ${what} answered ${answer.answer.status} ${String(code ?? '')}; expected 400 cursor_mismatch`.trim(), answer);
    }
  },
};
