/**
 * @module Idempotent creates: N concurrent creates with one Idempotency-Key and one body make one resource
 * (every answer 201 with its id); the key sent again with another body answers 422.
 */
import type { CheckDefinition } from './definition.js';
import { statusesOf } from './helpers.js';

/** One Idempotency-Key, N concurrent creates: one resource. */
export const idempotentCreate: CheckDefinition = {
  needs: ['create'],
  async run(ctx) {
    const body = await ctx.body('all');
    ctx.ensureValid('create', body);
    const key = ctx.values.token();
    const headers = { 'idempotency-key': key };
    await ctx.warm();
    const answers = await Promise.all(Array.from({ length: ctx.concurrency }, () => ctx.api.create(body, { headers })));
    const ids = new Set(
      answers
        .map((e) => (e.answer?.status === 201 ? (e.answer.body as Record<string, unknown> | undefined)?.[ctx.idField] : undefined))
        .filter((id) => id !== undefined),
    );
    if (answers.some((e) => e.answer?.status !== 201) || ids.size !== 1)
      ctx.fail(
        'create',
        `${answers.length} concurrent creates with Idempotency-Key ${key} answered ${statusesOf(answers)} and made ${ids.size} resource(s)${ids.size > 1 ? ` (${[...ids].map(String).join(', ')})` : ''}; expected 201 for each, all with the same resource`,
        answers.find((e) => e.answer?.status !== 201) ?? answers[1] ?? answers[0],
      );
    const other = await ctx.body('all');
    const reused = await ctx.api.create(other, { headers });
    if (reused.answer?.status !== 422)
      ctx.fail('create', `Idempotency-Key ${key} sent again with another body answered ${reused.answer?.status ?? 'nothing'}; expected 422`, reused);
  },
};
