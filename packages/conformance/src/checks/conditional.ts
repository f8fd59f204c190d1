/**
 * @module ETags and conditional requests: the ETag stays while the resource does and changes with it; a stale
 * If-Match answers 412 and changes nothing; If-None-Match answers 304; a collection that requires If-Match
 * answers 428 without it; N concurrent writes or deletes with one If-Match: exactly one succeeds.
 */
import { operationOf, successOf, type CollectionClient } from '../client.js';
import type { CheckContext } from '../context.js';
import type { Exchange } from '../types.js';
import type { CheckDefinition } from './definition.js';
import { changeableField, changed, statusesOf } from './helpers.js';
import { inputOf } from './lifecycle.js';

/** A write that changes `resource` (update, else replace, else a transition open from its state); undefined when none can. */
async function changeOf(
  ctx: CheckContext,
  resource: Readonly<Record<string, unknown>>,
): Promise<((api: CollectionClient, ifMatch?: string) => Promise<Exchange>) | undefined> {
  const id = String(resource[ctx.idField]);
  const field = changeableField(ctx);
  if (field && ctx.c.operations.includes('update')) {
    const patch = { [field.name]: changed(ctx, field, resource[field.name]) };
    ctx.ensureValid('update', patch);
    return (api, ifMatch) => api.update(id, patch, ifMatch ? { ifMatch } : {});
  }
  if (field && ctx.c.operations.includes('replace')) {
    const body = await ctx.body('all', { [field.name]: changed(ctx, field, resource[field.name]) });
    ctx.ensureValid('replace', body);
    return (api, ifMatch) => api.replace(id, body, ifMatch ? { ifMatch } : {});
  }
  const lc = ctx.c.lifecycle;
  const t = lc?.transitions.find((x) => x.from.includes(String(resource[lc.field])));
  if (!t) return undefined;
  const input = await inputOf(ctx, t);
  return (api, ifMatch) => api.transition(id, t.name, input, ifMatch ? { ifMatch } : {});
}

const etagOf = (exchange: Exchange): string | undefined => exchange.answer?.headers['etag'];

/** Same resource, same ETag (create, gets); a change, a new one; a stale If-Match, 412 and nothing changed. */
export const etag: CheckDefinition = {
  needs: ['create', 'get'],
  async run(ctx) {
    const made = await ctx.create();
    const first = await ctx.api.get(made.id);
    const tag = etagOf(first);
    ctx.succeeded(first, 'reading the new resource');
    if (tag === undefined) return ctx.stop('get', 'get answered no ETag', first);
    if (made.etag !== undefined && made.etag !== tag)
      ctx.fail('get', `create answered ETag ${made.etag}, a get right after it ${tag}: the resource did not change`, first);
    const second = await ctx.api.get(made.id);
    if (etagOf(second) !== tag) ctx.fail('get', `two gets of an unchanged resource answered ETags ${tag} and ${etagOf(second) ?? '(none)'}`, second);
    const change = await changeOf(ctx, ctx.resource(first, 'reading the new resource'));
    if (!change) return;
    const written = await change(ctx.api);
    ctx.succeeded(written, 'changing the resource');
    const after = etagOf(written);
    if (after === tag) ctx.fail(operationOf(written), `the resource changed, but the ETag is still ${tag}`, written);
    const read = await ctx.api.get(made.id);
    ctx.succeeded(read, 'reading the changed resource');
    if (etagOf(read) !== after) ctx.fail('get', `the write answered ETag ${after ?? '(none)'}, a get right after it ${etagOf(read) ?? '(none)'}`, read);
    if (etagOf(read) === tag) ctx.fail('get', `after a change, get still answers the old ETag ${tag}`, read);
    // A write conditional on the old ETag must fail, and leave the resource as it was.
    const stale = await changeOf(ctx, ctx.resource(read, 'reading the changed resource'));
    if (!stale) return;
    const refused = await stale(ctx.api, tag);
    if (refused.answer?.status !== 412)
      ctx.fail(operationOf(refused), `a write with a stale If-Match ${tag} answered ${refused.answer?.status ?? 'nothing'}; expected 412`, refused);
    const last = await ctx.api.get(made.id);
    if (refused.answer?.status === 412 && etagOf(last) !== etagOf(read))
      ctx.fail('get', `a write refused with 412 changed the resource (ETag ${etagOf(read) ?? ''} → ${etagOf(last) ?? ''})`, last);
  },
};

/** If-None-Match with the current ETag answers 304 (with the ETag); with an old one, 200. */
export const ifNoneMatch: CheckDefinition = {
  needs: ['create', 'get'],
  async run(ctx) {
    const made = await ctx.create();
    const first = await ctx.api.get(made.id);
    ctx.succeeded(first, 'reading the new resource');
    const tag = etagOf(first) ?? ctx.stop('get', 'get answered no ETag', first);
    const cached = await ctx.api.get(made.id, { headers: { 'if-none-match': tag } });
    if (cached.answer?.status !== 304)
      ctx.fail('get', `If-None-Match with the current ETag ${tag} answered ${cached.answer?.status ?? 'nothing'}; expected 304`, cached);
    else if (etagOf(cached) !== tag) ctx.fail('get', `the 304 answer carries ETag ${etagOf(cached) ?? '(none)'}, not ${tag}`, cached);
    const change = await changeOf(ctx, ctx.resource(first, 'reading the new resource'));
    if (!change) return;
    ctx.succeeded(await change(ctx.api), 'changing the resource');
    const fresh = await ctx.api.get(made.id, { headers: { 'if-none-match': tag } });
    if (fresh.answer?.status !== 200)
      ctx.fail(
        'get',
        `after a change, If-None-Match with the old ETag answered ${fresh.answer?.status ?? 'nothing'}; expected 200 with the new resource`,
        fresh,
      );
  },
};

/** Where the collection requires If-Match, a write without one answers 428 and changes nothing. */
export const ifMatchRequired: CheckDefinition = {
  needs: ['create'],
  applies: (ctx) => (ctx.c.requireIfMatch ? undefined : `${ctx.c.name} does not require If-Match`),
  async run(ctx) {
    const made = await ctx.create();
    const change = await changeOf(ctx, made.resource);
    if (change) {
      const without = await change({
        ...ctx.api,
        update: (id, body) => ctx.api.update(id, body, { ifMatch: null }),
        replace: (id, body) => ctx.api.replace(id, body, { ifMatch: null }),
        transition: (id, n, body) => ctx.api.transition(id, n, body, { ifMatch: null }),
      });
      if (without.answer?.status !== 428)
        ctx.fail(operationOf(without), `a write without If-Match answered ${without.answer?.status ?? 'nothing'}; expected 428`, without);
    }
    if (ctx.c.operations.includes('delete')) {
      const removed = await ctx.api.remove(made.id, { ifMatch: null });
      if (removed.answer?.status !== 428)
        ctx.fail('delete', `a delete without If-Match answered ${removed.answer?.status ?? 'nothing'}; expected 428`, removed);
    }
  },
};

/** Judges N concurrent conditional requests: exactly one success, 412 for the rest. */
function oneWinner(ctx: CheckContext, answers: readonly Exchange[], success: readonly number[], what: string): Exchange | undefined {
  const won = answers.filter((e) => success.includes(e.answer?.status ?? 0));
  const lost = answers.filter((e) => e.answer?.status === 412);
  if (won.length !== 1 || lost.length !== answers.length - 1) {
    const odd = won.length > 1 ? won[1] : (answers.find((e) => !success.includes(e.answer?.status ?? 0) && e.answer?.status !== 412) ?? answers[0]);
    ctx.fail(
      operationOf(odd),
      `${answers.length} concurrent ${what} with the same If-Match answered ${statusesOf(answers)}; expected exactly one ${success.join(' or ')} and ${answers.length - 1} × 412 (make the write conditional on the ETag in the same statement as the write)`,
      odd,
    );
    return undefined;
  }
  return won[0];
}

/** N concurrent updates with one If-Match: one succeeds, the rest answer 412, and the stored resource is the winner's. */
export const ifMatchUpdate: CheckDefinition = {
  needs: ['create', 'get'],
  applies: (ctx) =>
    ctx.c.operations.includes('update') || ctx.c.operations.includes('replace') ? undefined : `${ctx.c.name} has neither update nor replace in ${ctx.v.name}`,
  async run(ctx) {
    const made = await ctx.create();
    const read = await ctx.api.get(made.id);
    ctx.succeeded(read, 'reading the new resource');
    const tag = etagOf(read) ?? ctx.stop('get', 'get answered no ETag', read);
    const resource = ctx.resource(read, 'reading the new resource');
    const writes: ((api: CollectionClient, ifMatch?: string) => Promise<Exchange>)[] = [];
    for (let i = 0; i < ctx.concurrency; i++) writes.push((await changeOf(ctx, resource)) ?? ctx.skip('no write can change the resource'));
    await ctx.warm(made.id);
    const answers = await Promise.all(writes.map((write) => write(ctx.api, tag)));
    const winner = oneWinner(ctx, answers, [successOf('update')], 'writes');
    if (!winner) return;
    const after = await ctx.api.get(made.id);
    ctx.succeeded(after, 'reading the resource after the writes');
    if (etagOf(after) !== etagOf(winner))
      ctx.fail('get', `the stored resource (ETag ${etagOf(after) ?? ''}) is not what the successful write answered (ETag ${etagOf(winner) ?? ''})`, after);
  },
};

/**
 * N concurrent deletes with one If-Match, the last of them a write where the collection has one: exactly one
 * succeeds and the rest answer 412; afterwards the resource is gone, or holds the write that won. A delete that
 * checks If-Match and deletes later also deletes a resource that a concurrent write changed meanwhile.
 */
export const ifMatchDelete: CheckDefinition = {
  needs: ['create', 'get', 'delete'],
  async run(ctx) {
    const made = await ctx.create();
    const read = await ctx.api.get(made.id);
    ctx.succeeded(read, 'reading the new resource');
    const tag = etagOf(read) ?? ctx.stop('get', 'get answered no ETag', read);
    const change = await changeOf(ctx, ctx.resource(read, 'reading the new resource'));
    const deletes = change ? ctx.concurrency - 1 : ctx.concurrency;
    await ctx.warm(made.id);
    const answers = await Promise.all([
      ...Array.from({ length: deletes }, () => ctx.api.remove(made.id, { ifMatch: tag })),
      ...(change ? [change(ctx.api, tag)] : []),
    ]);
    const winner = oneWinner(ctx, answers, [successOf('delete'), successOf('update')], change ? `deletes and a write` : 'deletes');
    if (!winner) return;
    const after = await ctx.api.get(made.id);
    if (winner.request.method === 'DELETE' && after.answer?.status !== 404)
      ctx.fail('get', `after the delete won, get answered ${after.answer?.status ?? 'nothing'}; expected 404`, after);
    if (winner.request.method !== 'DELETE' && (after.answer?.status !== 200 || etagOf(after) !== etagOf(winner)))
      ctx.fail(
        'get',
        `after the write won, get answered ${after.answer?.status ?? 'nothing'} ${etagOf(after) ?? ''}; expected 200 with ETag ${etagOf(winner) ?? ''}`,
        after,
      );
  },
};
