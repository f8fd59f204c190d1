/**
 * @module Pagination: walking every page (a small page size, over records the run made, narrowed to them when
 * the collection has a filter that can) returns each record exactly once; so does a walk during which records
 * are created and deleted between pages (an offset cursor repeats or skips records there, a keyset or sequence
 * cursor does not); a cursor the server did not issue answers 400.
 */
import type { CheckContext } from '../context.js';
import type { CheckDefinition } from './definition.js';
import { ownScope, smallLimit, walk, type Walk } from './helpers.js';

/** Records made for a walk, and the filter that lists them (empty: the whole collection). */
async function seed(ctx: CheckContext, count: number): Promise<{ ids: string[]; query: Record<string, string>; overrides: Record<string, unknown> }> {
  const own = await ownScope(ctx);
  const overrides = own?.overrides ?? {};
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await ctx.create(overrides)).id);
  return { ids, query: own?.query ?? {}, overrides };
}

/** Records each failure of a walk: an id on two pages, one of `expected` on none, a page over `limit`. */
function judgeWalk(ctx: CheckContext, walked: Walk, expected: readonly string[], limit: number, what: string): void {
  const seen = new Map<unknown, number>();
  for (const { item, page } of walked.items) {
    const id = item[ctx.idField];
    const before = seen.get(id);
    if (before !== undefined) ctx.fail('list', `${what}: record ${String(id)} is on page ${before} and again on page ${page}`, walked.pages[page - 1]);
    else seen.set(id, page);
  }
  walked.pages.forEach((page, i) => {
    const data = (page.answer?.body as { data?: unknown[] } | undefined)?.data;
    if (Array.isArray(data) && data.length > limit) ctx.fail('list', `${what}: page ${i + 1} has ${data.length} items for limit=${limit}`, page);
  });
  const missing = expected.filter((id) => !seen.has(id));
  if (missing.length > 0) ctx.fail('list', `${what}: ${missing.length} of the records never appeared on any page (${missing.join(', ')})`, walked.pages.at(-1));
}

/** Every record exactly once, pages within the limit, the last page's next_cursor null. */
export const pagination: CheckDefinition = {
  needs: ['create', 'list'],
  async run(ctx) {
    const limit = smallLimit(ctx);
    const { ids, query } = await seed(ctx, 2 * limit + 1);
    const walked = await walk(ctx, query, limit);
    if (!walked.complete)
      ctx.skip(
        `the list has more than ${walked.pages.length} pages of ${limit}; run against a database with fewer ${ctx.c.name} records, or give the collection a filterable ref`,
      );
    judgeWalk(ctx, walked, ids, limit, `walking every page with limit=${limit}`);
  },
};

/**
 * Between pages the run creates two records and deletes one it has already seen: every record that stayed
 * appears exactly once, and no record twice.
 */
export const paginationConcurrent: CheckDefinition = {
  needs: ['create', 'list'],
  async run(ctx) {
    const limit = smallLimit(ctx);
    const { ids, query, overrides } = await seed(ctx, 2 * limit + 1);
    const deleted = new Set<string>();
    const ours = new Set(ids);
    const canDelete = ctx.c.operations.includes('delete');
    const walked = await walk(ctx, query, limit, undefined, async (page, items) => {
      // Writes between the first pages, as other clients make them: two new records, and one of the run's records
      // seen already gone. (Writes after every page would let a walk in creation order never end.)
      if (page > 2) return;
      await Promise.all([ctx.create(overrides), ctx.create(overrides)]);
      const victim = items.map(({ item }) => item[ctx.idField]).find((id): id is string => typeof id === 'string' && ours.has(id) && !deleted.has(id));
      if (canDelete && victim !== undefined) {
        ctx.succeeded(await ctx.api.remove(victim), 'deleting a record between pages');
        deleted.add(victim);
      }
    });
    if (!walked.complete)
      ctx.skip(
        `the list has more than ${walked.pages.length} pages of ${limit}; run against a database with fewer ${ctx.c.name} records, or give the collection a filterable ref`,
      );
    judgeWalk(
      ctx,
      walked,
      ids.filter((id) => !deleted.has(id)),
      limit,
      'walking the pages while records were created and deleted between them',
    );
  },
};

/** A cursor the server did not issue (a real one reversed, a random one of the same length) answers 400. */
export const cursorTampered: CheckDefinition = {
  needs: ['create', 'list'],
  async run(ctx) {
    const limit = smallLimit(ctx);
    const { query } = await seed(ctx, limit + 1);
    const first = await ctx.api.list({ ...query, limit: String(limit) });
    ctx.succeeded(first, 'listing the first page');
    const cursor = (first.answer?.body as { next_cursor?: unknown } | undefined)?.next_cursor;
    if (typeof cursor !== 'string') return ctx.stop('list', `the first page of ${limit} has no next_cursor, though there are more records`, first);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    let random = '';
    for (let i = 0; i < cursor.length; i++) random += alphabet[ctx.values.below(alphabet.length)]!;
    const reversed = [...cursor].reverse().join('');
    for (const tampered of [...new Set([reversed, random])].filter((t) => t !== cursor)) {
      const answer = await ctx.api.list({ ...query, limit: String(limit), cursor: tampered });
      if (answer.answer?.status !== 400)
        ctx.fail('list', `a cursor the server did not issue (${tampered}) answered ${answer.answer?.status ?? 'nothing'}; expected 400`, answer);
    }
  },
};
