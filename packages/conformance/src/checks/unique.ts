/**
 * @module Unique fields: a create, update or replace that would give a second record a taken value answers 409
 * and changes nothing.
 */
import { methodOf } from '../client.js';
import { sameValue, show } from '../compare.js';
import type { CheckDefinition } from './definition.js';

/** Every writable unique field answers 409 for a taken value. */
export const unique: CheckDefinition = {
  needs: ['create'],
  applies: (ctx) => (ctx.c.fields.some((f) => f.unique && !f.readOnly) ? undefined : `${ctx.c.name} has no unique fields`),
  async run(ctx) {
    for (const field of ctx.c.fields.filter((f) => f.unique && !f.readOnly)) {
      const first = await ctx.create();
      const taken = first.sent[field.name];
      const body = await ctx.body('all', { [field.name]: taken });
      ctx.ensureValid('create', body);
      const duplicate = await ctx.api.create(body);
      if (duplicate.answer?.status !== 409)
        ctx.fail('create', `a second record with ${field.name} ${show(taken)} answered ${duplicate.answer?.status ?? 'nothing'}; expected 409`, duplicate);
      const write = ctx.c.operations.includes('update') ? 'update' : ctx.c.operations.includes('replace') ? 'replace' : null;
      if (write === null) continue;
      const second = await ctx.create();
      const change = write === 'update' ? { [field.name]: taken } : await ctx.body('all', { [field.name]: taken });
      ctx.ensureValid(write, change);
      const clash = write === 'update' ? await ctx.api.update(second.id, change) : await ctx.api.replace(second.id, change);
      if (clash.answer?.status !== 409)
        ctx.fail(
          write,
          `${methodOf(write)} to ${field.name} ${show(taken)}, which another record has, answered ${clash.answer?.status ?? 'nothing'}; expected 409`,
          clash,
        );
      if (ctx.c.operations.includes('get')) {
        const got = await ctx.api.get(second.id);
        ctx.succeeded(got, 'reading the record after the refused write');
        const now = ctx.resource(got, 'reading the record after the refused write')[field.name];
        if (!sameValue(field.type, second.resource[field.name], now))
          ctx.fail('get', `after the write that should have been refused, ${field.name} is ${show(now)}`, got);
      }
    }
  },
};
