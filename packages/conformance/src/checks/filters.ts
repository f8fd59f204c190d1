/**
 * @module Filters: for every filterable field, two records with different values; the list filtered by one
 * value answers only records with it, that record among them and the other not. Where the collection has a
 * filterable ref, the list is narrowed to the run's own parent as well (unless that ref is the field tested),
 * so a shared database does not have to be walked.
 */
import type { FieldAt } from 'restgen/contract';
import { sameValue, show } from '../compare.js';
import type { CheckContext, Made } from '../context.js';
import type { CheckDefinition } from './definition.js';
import { filterableKind, narrowingField, walk } from './helpers.js';
import { pathsFrom, reach, shownState } from './lifecycle.js';

/** Two records that differ in `field`, and the value of each. */
interface Pair {
  readonly a: { readonly id: string; readonly value: unknown };
  readonly b: { readonly id: string; readonly value: unknown } | null;
}

async function pairFor(ctx: CheckContext, field: FieldAt, scope: Readonly<Record<string, unknown>>): Promise<Pair> {
  const lc = ctx.c.lifecycle;
  if (lc && field.name === lc.field) {
    const first = await ctx.create(scope);
    const other = [...pathsFrom(ctx).keys()].find((s) => s !== lc.initial);
    const second = other === undefined ? null : await reach(ctx, other, scope);
    return {
      a: { id: first.id, value: shownState(ctx, lc.initial) },
      b: second && other !== undefined ? { id: second.id, value: shownState(ctx, other) } : null,
    };
  }
  if (field.readOnly) {
    const [first, second] = [await ctx.create(scope), await ctx.create(scope)];
    return { a: { id: first.id, value: first.resource[field.name] }, b: { id: second.id, value: second.resource[field.name] } };
  }
  const valueFor = async (made?: unknown): Promise<unknown> =>
    field.type.kind === 'ref'
      ? ctx.parent(field.type.collection, true)
      : made === undefined
        ? ctx.values.field(field, () => '')
        : ctx.values.other(field, made, () => '');
  const a = await valueFor();
  const b = await valueFor(a);
  const first: Made = await ctx.create({ ...scope, [field.name]: a });
  const second = b === undefined ? null : await ctx.create({ ...scope, [field.name]: b });
  return { a: { id: first.id, value: first.resource[field.name] }, b: second ? { id: second.id, value: second.resource[field.name] } : null };
}

/** Each filterable field answers only matching records. */
export const filters: CheckDefinition = {
  needs: ['create', 'list'],
  applies: (ctx) => (ctx.c.fields.some(filterableKind) ? undefined : `${ctx.c.name} has no filterable fields`),
  async run(ctx) {
    const narrow = narrowingField(ctx);
    for (const field of ctx.c.fields.filter(filterableKind)) {
      let scope: Record<string, unknown> = {};
      let query: Record<string, string> = {};
      if (narrow && narrow !== field && narrow.type.kind === 'ref') {
        const parent = await ctx.parent(narrow.type.collection, true);
        scope = { [narrow.name]: parent };
        query = { [narrow.name]: parent };
      }
      const pair = await pairFor(ctx, field, scope);
      const filter = { ...query, [field.name]: String(pair.a.value) };
      const listed = await walk(ctx, filter, ctx.c.pagination.maxLimit);
      const wrong = listed.items.filter(({ item }) => !sameValue(field.type, pair.a.value, item[field.name]));
      if (wrong.length > 0)
        ctx.fail(
          'list',
          `filtered by ${field.name}=${String(pair.a.value)}, the list answered ${wrong.length} record(s) with another value, e.g. ${show(wrong[0]!.item[ctx.idField])} with ${field.name} ${show(wrong[0]!.item[field.name])}`,
          listed.pages[wrong[0]!.page - 1],
        );
      const ids = new Set(listed.items.map(({ item }) => item[ctx.idField]));
      if (listed.complete && !ids.has(pair.a.id))
        ctx.fail('list', `filtered by ${field.name}=${String(pair.a.value)}, the list lacks record ${pair.a.id}, which has that value`, listed.pages.at(-1));
      if (pair.b && !sameValue(field.type, pair.a.value, pair.b.value) && ids.has(pair.b.id))
        ctx.fail(
          'list',
          `filtered by ${field.name}=${String(pair.a.value)}, the list answered record ${pair.b.id}, whose ${field.name} is ${show(pair.b.value)}`,
          listed.pages[0],
        );
    }
  },
};
