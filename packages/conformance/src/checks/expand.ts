/**
 * @module Expansion: for each expandable ref, a record pointing at a record of its own; a create, a get and a list
 * with `?expand=<ref>` answer, in place of the id, the referenced resource exactly as a GET of it through the same
 * version answers it, and the rest of the record unchanged; an expansion the version does not declare answers 400
 * at `/query/expand`, listing what is allowed.
 */
import type { CollectionAt } from 'restgen/contract';
import { differences, show } from '../compare.js';
import type { CheckContext } from '../context.js';
import type { Exchange } from '../types.js';
import type { CheckDefinition } from './definition.js';
import { ownScope, walk } from './helpers.js';
import { expectRefusal, UNKNOWN_NAME } from './query-helpers.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Records what is wrong with `ref` (the expanded member of an answer) against `target`, the GET of the record. */
function judgeExpanded(ctx: CheckContext, name: string, into: CollectionAt, ref: unknown, target: Readonly<Record<string, unknown>>, exchange: Exchange): void {
  const operation = exchange.operation ?? 'get';
  if (!isObject(ref)) return ctx.fail(operation, `asked for expand=${name}, the answer's ${name} is ${show(ref)}, not the ${into.name} record`, exchange);
  const changed = differences(
    into.fields.filter((f) => !f.writeOnly),
    target,
    ref,
  );
  const id = target[into.fields.find((f) => f.type.kind === 'id')?.name ?? 'id'];
  if (changed.length > 0)
    ctx.fail(operation, `asked for expand=${name}, ${name} differs from GET ${into.path}/${String(id)} in ${ctx.v.name}: ${changed.join('; ')}`, exchange);
}

/** Each expandable ref answers the referenced resource as its GET in the same version does. */
export const expand: CheckDefinition = {
  needs: ['create'],
  applies: (ctx) => (ctx.c.query.expandable.length > 0 ? undefined : `${ctx.c.name} has no expandable refs in ${ctx.v.name}`),
  async run(ctx) {
    const own = await ownScope(ctx);
    for (const x of ctx.c.query.expandable) {
      const into = ctx.v.api.collections.find((c) => c.key === x.collection);
      if (!into?.operations.includes('get')) continue;
      // The run's own parent when the list is narrowed by this very ref, so that the record is on the narrowed list.
      const scoped = own?.overrides[x.name];
      const parent = typeof scoped === 'string' ? scoped : await ctx.parent(x.collection, true);
      const asked = { query: { expand: x.name } };
      const sent = await ctx.body('all', { ...(own?.overrides ?? {}), [x.name]: parent });
      ctx.ensureValid('create', sent);
      const created = await ctx.api.create(sent, asked);
      ctx.expect(created, [201], `creating a ${ctx.c.name} record with expand=${x.name}`);
      const made = ctx.resource(created, 'creating a record');
      const id = String(made[ctx.idField]);
      const target = ctx.resource(await ctx.clientOf(ctx.v, into).get(parent), `reading the ${into.name} record ${parent}`);
      judgeExpanded(ctx, x.name, into, made[x.name], target, created);
      if (ctx.c.operations.includes('get')) {
        const plain = ctx.resource(await ctx.api.get(id), 'reading the record');
        const got = await ctx.api.get(id, asked);
        const body = ctx.resource(got, `reading the record with expand=${x.name}`);
        judgeExpanded(ctx, x.name, into, body[x.name], target, got);
        const changed = differences(
          ctx.c.fields.filter((f) => f.name !== x.name && !f.writeOnly),
          plain,
          body,
        );
        if (changed.length > 0) ctx.fail('get', `asked for expand=${x.name}, other fields changed: ${changed.join('; ')}`, got);
      }
      if (ctx.c.operations.includes('list')) {
        const listed = await walk(ctx, { ...(own?.query ?? {}), expand: x.name }, ctx.c.pagination.maxLimit);
        const ours = listed.items.find(({ item }) => item[ctx.idField] === id);
        if (ours) judgeExpanded(ctx, x.name, into, ours.item[x.name], target, listed.pages[ours.page - 1]!);
        else if (listed.complete) ctx.fail('list', `listed with expand=${x.name}, the list lacks record ${id}`, listed.pages.at(-1));
      }
    }
    const probe = ctx.c.operations.includes('list') ? await ctx.api.list({ ...(own?.query ?? {}), expand: UNKNOWN_NAME }) : null;
    if (probe) expectRefusal(ctx, probe, 'expand', `expand=${UNKNOWN_NAME} (no such expandable ref)`, true);
  },
};
