/**
 * @module The checks of single writes: create → get → list round trip, read-only fields assigned, an update
 * that changes only what it sends, a replace that leaves nothing behind, a delete that deletes.
 */
import { methodOf } from '../client.js';
import { differences, sameValue, show } from '../compare.js';
import type { CheckContext } from '../context.js';
import { isRequiredInput } from '../context.js';
import type { CheckDefinition } from './definition.js';
import { changeableField, changed, echoedFields, findInList, keptFields, shownFields } from './helpers.js';

const has = (ctx: CheckContext, ...ops: readonly string[]) => ops.every((op) => (ctx.c.operations as readonly string[]).includes(op));

/** Create → get → list: the new resource is what was sent, at its Location, and reads back the same. */
export const roundTrip: CheckDefinition = {
  needs: ['create'],
  async run(ctx) {
    const made = await ctx.create();
    const location = made.exchange.answer?.headers['location'];
    if (location !== undefined && !new URL(location, made.exchange.request.url).pathname.endsWith(`/${ctx.c.path}/${made.id}`))
      ctx.fail('create', `Location ${location} does not name the new resource (…/${ctx.c.path}/${made.id})`, made.exchange);
    const sent = differences(
      echoedFields(ctx).filter((f) => f.name in made.sent),
      made.sent,
      made.resource,
    );
    if (sent.length > 0) ctx.fail('create', `the created resource is not what was sent: ${sent.join('; ')}`, made.exchange);
    if (has(ctx, 'get')) {
      const got = await ctx.api.get(made.id);
      ctx.succeeded(got, 'reading the new resource');
      const diff = differences(shownFields(ctx), made.resource, ctx.resource(got, 'reading the new resource'));
      if (diff.length > 0) ctx.fail('get', `get answers the new resource differently from create: ${diff.join('; ')}`, got);
    }
    if (has(ctx, 'list')) {
      const item = await findInList(ctx, made.id, made.resource);
      if (item === undefined) ctx.fail('list', `the new resource ${made.id} is on no page of the list`);
      else if (item !== 'unknown') {
        const diff = differences(shownFields(ctx), made.resource, item);
        if (diff.length > 0) ctx.fail('list', `the list shows the new resource differently from create: ${diff.join('; ')}`);
      }
    }
  },
};

/** The server assigns every read-only field on create (the id, timestamps, the initial state), and keeps them. */
export const readOnlyAssigned: CheckDefinition = {
  needs: ['create'],
  applies: (ctx) => (ctx.c.fields.some((f) => f.readOnly && !f.writeOnly) ? undefined : `${ctx.c.name} has no read-only fields`),
  async run(ctx) {
    const made = await ctx.create();
    const missing = (resource: Readonly<Record<string, unknown>>) =>
      ctx.c.fields
        .filter((f) => f.readOnly && !f.writeOnly && !f.optional && (resource[f.name] === undefined || (resource[f.name] === null && !f.nullable)))
        .map((f) => f.name);
    const absent = missing(made.resource);
    if (absent.length > 0)
      ctx.fail(
        'create',
        `the created resource lacks read-only ${absent.join(', ')}: the server must assign ${absent.length === 1 ? 'it' : 'them'}`,
        made.exchange,
      );
    const lc = ctx.c.lifecycle;
    if (lc && made.resource[lc.field] !== lc.initial)
      ctx.fail(
        'create',
        `a new ${ctx.c.name} record starts in ${show(made.resource[lc.field])}, not in the initial state ${JSON.stringify(lc.initial)}`,
        made.exchange,
      );
    if (has(ctx, 'get')) {
      const got = await ctx.api.get(made.id);
      ctx.succeeded(got, 'reading the new resource');
      const later = missing(ctx.resource(got, 'reading the new resource'));
      if (later.length > 0) ctx.fail('get', `the stored resource lacks read-only ${later.join(', ')}`, got);
    }
  },
};

/** PATCH with one field changes that field and nothing else (in its answer, and as stored). */
export const updatePartial: CheckDefinition = {
  needs: ['create', 'update'],
  async run(ctx) {
    const field = changeableField(ctx) ?? ctx.skip(`${ctx.c.name} has no field an update can change`);
    const made = await ctx.create();
    const value = changed(ctx, field, made.resource[field.name]);
    const patch = { [field.name]: value };
    ctx.ensureValid('update', patch);
    const judge = (resource: Readonly<Record<string, unknown>>, operation: string, exchange: Parameters<CheckContext['fail']>[2]) => {
      if (!sameValue(field.type, value, resource[field.name]))
        ctx.fail(operation, `${methodOf('update')} ${JSON.stringify(patch)} did not change ${field.name} (${show(resource[field.name])})`, exchange);
      const others = differences(
        keptFields(ctx).filter((f) => f.name !== field.name),
        made.resource,
        resource,
      );
      if (others.length > 0) ctx.fail(operation, `${methodOf('update')} ${JSON.stringify(patch)} also changed fields it did not send: ${others.join('; ')}`, exchange);
    };
    const updated = await ctx.api.update(made.id, patch);
    ctx.succeeded(updated, 'updating one field');
    judge(ctx.resource(updated, 'updating one field'), 'update', updated);
    if (has(ctx, 'get')) {
      const got = await ctx.api.get(made.id);
      ctx.succeeded(got, 'reading the updated resource');
      judge(ctx.resource(got, 'reading the updated resource'), 'get', got);
    }
  },
};

/** PUT replaces the whole resource: a field it does not send is gone (or back at its default). */
export const replaceComplete: CheckDefinition = {
  needs: ['create', 'replace'],
  async run(ctx) {
    const made = await ctx.create();
    const required = echoedFields(ctx).filter(isRequiredInput);
    const field = changeableField(ctx, required);
    const overrides = field ? { [field.name]: changed(ctx, field, made.resource[field.name]) } : {};
    const body = await ctx.body('required', overrides);
    ctx.ensureValid('replace', body);
    const judge = (resource: Readonly<Record<string, unknown>>, operation: string, exchange: Parameters<CheckContext['fail']>[2]) => {
      const wrong: string[] = [];
      for (const f of echoedFields(ctx)) {
        const actual = resource[f.name];
        // A field left out is stored as the contract says: its default, else what the migrations fill in (a field
        // made required later reads back as its fallback in the versions before), else nothing.
        const left = f.default ?? ctx.omitted(f);
        if (f.name in body) {
          if (!sameValue(f.type, body[f.name], actual)) wrong.push(`${f.name} is ${show(actual)}, but the ${methodOf('replace')} sent ${show(body[f.name])}`);
        } else if (left !== undefined) {
          if (!sameValue(f.type, left.value, actual))
            wrong.push(
              `${f.name} is ${show(actual)}, not ${show(left.value)}, ${f.default ? 'its default' : 'what a request that leaves it out stores'} (the ${methodOf('replace')} did not send it)`,
            );
        } else if (actual !== undefined && actual !== null) wrong.push(`${f.name} is still ${show(actual)} (the ${methodOf('replace')} did not send it)`);
      }
      if (wrong.length > 0) ctx.fail(operation, `${methodOf('replace')} with only the required fields left the old resource behind: ${wrong.join('; ')}`, exchange);
    };
    const replaced = await ctx.api.replace(made.id, body);
    ctx.succeeded(replaced, 'replacing the resource');
    judge(ctx.resource(replaced, 'replacing the resource'), 'replace', replaced);
    if (has(ctx, 'get')) {
      const got = await ctx.api.get(made.id);
      ctx.succeeded(got, 'reading the replaced resource');
      judge(ctx.resource(got, 'reading the replaced resource'), 'get', got);
    }
  },
};

/** DELETE answers 204; afterwards get and a second delete answer 404. */
export const deleteCheck: CheckDefinition = {
  needs: ['create', 'delete'],
  async run(ctx) {
    const made = await ctx.create();
    const removed = await ctx.api.remove(made.id);
    ctx.succeeded(removed, 'deleting the resource');
    if (has(ctx, 'get')) {
      const got = await ctx.api.get(made.id);
      if (got.answer?.status !== 404)
        ctx.fail('get', `after DELETE answered ${removed.answer?.status}, get answered ${got.answer?.status ?? 'nothing'}; expected 404`, got);
    }
    // With If-Match (sent where the collection requires it) a missing resource answers 412 instead.
    const again = await ctx.api.remove(made.id);
    const gone = ctx.c.requireIfMatch ? [404, 412] : [404];
    if (!gone.includes(again.answer?.status ?? 0))
      ctx.fail('delete', `a second DELETE answered ${again.answer?.status ?? 'nothing'}; expected ${gone.join(' or ')}`, again);
  },
};
