/**
 * @module Field masks: a get and a list with `?fields=` (a random few of the version's readable fields) answer
 * only those fields and the id, each with the value the unmasked resource has; naming a write-only field or a
 * field the version does not have answers 400 at `/query/fields`, listing what is allowed. (That no answer, masked
 * or not, carries a write-only field is judged on every exchange: `write-only-hidden`.)
 */
import { differences, show } from '../compare.js';
import type { CheckContext } from '../context.js';
import type { Exchange } from '../types.js';
import type { CheckDefinition } from './definition.js';
import { ownScope, walk } from './helpers.js';
import { expectRefusal, UNKNOWN_NAME } from './query-helpers.js';

/** A random few (one to three) of the readable fields other than the id. */
function maskOf(ctx: CheckContext): string[] {
  const names = ctx.c.query.fields.map((f) => f.name).filter((n) => n !== ctx.idField);
  const count = Math.min(names.length, 1 + ctx.values.below(3));
  const out = new Set<string>();
  while (out.size < count) out.add(names[ctx.values.below(names.length)]!);
  return [...out];
}

/** Records what is wrong with `item`, answered for `mask`, against the unmasked `full`. */
function judgeMasked(
  ctx: CheckContext,
  mask: readonly string[],
  item: Readonly<Record<string, unknown>>,
  full: Readonly<Record<string, unknown>>,
  exchange: Exchange,
): void {
  const operation = exchange.operation ?? 'get';
  const extra = Object.keys(item).filter((k) => k !== ctx.idField && !mask.includes(k));
  if (extra.length > 0) ctx.fail(operation, `asked for fields=${mask.join(',')}, the answer also holds ${extra.join(', ')}`, exchange);
  if (item[ctx.idField] !== full[ctx.idField])
    ctx.fail(operation, `asked for fields=${mask.join(',')}, the answer's ${ctx.idField} is ${show(item[ctx.idField])}`, exchange);
  const named = ctx.c.fields.filter((f) => mask.includes(f.name));
  const changed = differences(named, full, item);
  if (changed.length > 0)
    ctx.fail(operation, `asked for fields=${mask.join(',')}, the masked answer differs from the whole resource: ${changed.join('; ')}`, exchange);
}

/** Masks keep exactly the named fields and the id; a write-only or unknown name answers 400. */
export const fieldMasks: CheckDefinition = {
  needs: ['create'],
  applies: (ctx) =>
    ctx.c.operations.includes('get') || ctx.c.operations.includes('list') ? undefined : `${ctx.c.name} has neither get nor list in ${ctx.v.name}`,
  async run(ctx) {
    const own = await ownScope(ctx);
    const made = await ctx.create(own?.overrides ?? {});
    const hasGet = ctx.c.operations.includes('get');
    const full = hasGet ? ctx.resource(await ctx.api.get(made.id), 'reading the record') : made.resource;
    const mask = maskOf(ctx);
    if (hasGet) {
      const masked = await ctx.api.get(made.id, { query: { fields: mask.join(',') } });
      ctx.expect(masked, [200], `reading the record with fields=${mask.join(',')}`);
      judgeMasked(ctx, mask, ctx.resource(masked, 'reading a masked record'), full, masked);
    }
    if (ctx.c.operations.includes('list')) {
      const listed = await walk(ctx, { ...(own?.query ?? {}), fields: mask.join(',') }, ctx.c.pagination.maxLimit);
      for (const { item, page } of listed.items) {
        const extra = Object.keys(item).filter((k) => k !== ctx.idField && !mask.includes(k));
        if (extra.length > 0)
          ctx.fail('list', `listed with fields=${mask.join(',')}, record ${show(item[ctx.idField])} also holds ${extra.join(', ')}`, listed.pages[page - 1]);
      }
      const ours = listed.items.find(({ item }) => item[ctx.idField] === made.id);
      if (ours) judgeMasked(ctx, mask, ours.item, full, listed.pages[ours.page - 1]!);
      else if (listed.complete) ctx.fail('list', `listed with fields=${mask.join(',')}, the list lacks record ${made.id}`, listed.pages.at(-1));
    }
    const refused = [...ctx.c.fields.filter((f) => f.writeOnly).map((f) => f.name), UNKNOWN_NAME];
    for (const name of refused) {
      const what = `fields=${name} (${name === UNKNOWN_NAME ? 'no such field' : 'a write-only field'})`;
      const answer = hasGet ? await ctx.api.get(made.id, { query: { fields: name } }) : await ctx.api.list({ ...(own?.query ?? {}), fields: name });
      expectRefusal(ctx, answer, 'fields', what, true);
    }
  },
};
