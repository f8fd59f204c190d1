/**
 * @module Declared bounds: a value at each bound the version's document declares for a top-level writable field of a
 * create (`minimum`/`maximum`, `minLength`/`maxLength`, `minItems`/`maxItems`, the implicit 2^53 − 1 of an integer
 * included) must be accepted, stored and read back as sent. A column narrower than the contract (an `integer` for
 * an id the API allows up to 2^53 − 1, a `varchar(100)` for a text of 200) passes every other check and fails the
 * first client that sends such a value. One create carries every field at its upper bound, one at its lower bound;
 * when one is refused, each of its fields is tried alone to name the bound that breaks.
 */
import type { FieldAt } from 'restgen/contract';
import { routeOf, successOf } from '../client.js';
import { sameValue, show } from '../compare.js';
import type { CheckContext } from '../context.js';
import type { Exchange } from '../types.js';
import type { CheckDefinition } from './definition.js';

/** Which end of the bounds. */
type End = 'upper' | 'lower';

/** A field at one of its bounds: the value, and the document's keyword it comes from. */
interface AtBound {
  readonly field: FieldAt;
  readonly value: unknown;
  readonly keyword: string;
  readonly bound: number;
}

const KEYWORDS: Readonly<Record<End, { readonly number: string; readonly length: string; readonly items: string }>> = {
  upper: { number: 'maximum', length: 'maxLength', items: 'maxItems' },
  lower: { number: 'minimum', length: 'minLength', items: 'minItems' },
};

/** `text` made exactly `length` characters long: cut, or padded (its start, which holds the run's tag, kept). */
const sized = (text: string, length: number): string => (text.length >= length ? text.slice(0, length) : text.padEnd(length, 'x'));

/** The field at its `end` bound, when the document declares one the run can reach with a valid value. */
function atBound(ctx: CheckContext, field: FieldAt, schema: Readonly<Record<string, unknown>>, end: End): AtBound | undefined {
  const k = KEYWORDS[end];
  const number = (key: string) => (typeof schema[key] === 'number' && Number.isFinite(schema[key]) ? (schema[key] as number) : undefined);
  const type = field.type;
  if (type.kind === 'int' || type.kind === 'number') {
    const bound = number(k.number);
    // A unique number at a bound is likely taken already (by another run's record): not probed.
    if (bound === undefined || field.unique || (type.kind === 'int' && !Number.isSafeInteger(bound))) return undefined;
    return { field, value: bound, keyword: k.number, bound };
  }
  if (type.kind === 'string') {
    const bound = number(k.length);
    // A pattern or a format decides the text; a unique text at a short length is likely taken.
    if (bound === undefined || type.pattern !== undefined || schema['format'] !== undefined || (field.unique && bound < 16)) return undefined;
    return { field, value: sized(String(ctx.values.field(field, () => '')), bound), keyword: k.length, bound };
  }
  if (type.kind === 'array') {
    const bound = number(k.items);
    if (bound === undefined || bound > 100 || type.of.kind === 'ref' || type.of.kind === 'object') return undefined;
    const item = { ...field, type: type.of, unique: false } as FieldAt;
    return { field, value: Array.from({ length: bound }, () => ctx.values.field(item, () => '')), keyword: k.items, bound };
  }
  return undefined;
}

/** The fields at `end` of their bounds that a create body may carry. */
function probes(ctx: CheckContext, end: End): AtBound[] {
  const members = ctx.v.doc.requestMembers(routeOf(ctx.v, ctx.c, 'create').method, routeOf(ctx.v, ctx.c, 'create').template);
  return ctx.c.fields.flatMap((f) => {
    const schema = members.get(f.name);
    // A field a later version removes is not stored (older versions read it from a fallback or a hook).
    const probe = !f.readOnly && !f.writeOnly && f.removedIn === undefined && !ctx.stoodIn(f) && schema ? atBound(ctx, f, schema, end) : undefined;
    return probe ? [probe] : [];
  });
}

/** A probe as a report names it: `product_id 9007199254740991 (its maximum)`. */
const named = (p: AtBound): string => `${p.field.name} ${show(p.value)} (its ${p.keyword}, ${p.bound})`;

/**
 * Creates a record with `list` at their bounds: the refusing exchange, or null when it was accepted (what did not
 * read back as sent is recorded).
 */
async function tryProbes(ctx: CheckContext, list: readonly AtBound[]): Promise<Exchange | null> {
  const overrides = Object.fromEntries(list.map((p) => [p.field.name, p.value]));
  const body = await ctx.body('all', overrides);
  ctx.ensureValid('create', body);
  const created = await ctx.api.create(body);
  if (created.answer?.status !== successOf('create')) return created;
  const resource = ctx.resource(created, 'creating a record with fields at their bounds');
  const id = resource[ctx.idField];
  const stored = typeof id === 'string' && ctx.c.operations.includes('get') ? await ctx.api.get(id) : created;
  const read = ctx.resource(stored, 'reading the record with fields at their bounds');
  for (const p of list)
    if (!sameValue(p.field.type, p.value, read[p.field.name]))
      ctx.fail(stored.operation ?? 'get', `${named(p)} was sent, and reads back as ${show(read[p.field.name])}: a bound the storage cannot hold`, stored);
  return null;
}

/** Whether `field`'s values in this version reach storage through a migration hook (its type changes later). */
const hooked = (ctx: CheckContext, field: FieldAt): boolean =>
  (field.markers ?? []).some((m) => m.member === 'typeChangedFrom' && m.index > ctx.v.api.version.index);

/** The failure of a create the document allows, with `list` at their bounds. */
function refused(ctx: CheckContext, list: readonly AtBound[], exchange: Exchange): void {
  const through = list.filter((p) => hooked(ctx, p.field)).map((p) => p.field.name);
  const fix =
    through.length > 0
      ? `make the migration hook of ${through.join(', ')} convert every value ${ctx.v.name} allows into one the newest version accepts (widen the newer type where it cannot)`
      : 'store every value the contract allows (a wider column), or declare the narrower bound in the API';
  ctx.fail(
    'create',
    `${list.map(named).join(', ')} ${list.length === 1 ? 'is' : 'are'} allowed by the document, but a create with ${list.length === 1 ? 'it' : 'them'} answered ${exchange.answer?.status ?? 'nothing'}: ${fix}`,
    exchange,
  );
}

/** A create with every field at its upper bound, and one at its lower bound, is accepted and reads back as sent. */
export const bounds: CheckDefinition = {
  needs: ['create'],
  applies: (ctx) => (probes(ctx, 'upper').length + probes(ctx, 'lower').length > 0 ? undefined : `${ctx.c.name} declares no bound a create can reach`),
  async run(ctx) {
    for (const end of ['upper', 'lower'] as const) {
      const list = probes(ctx, end);
      const together = list.length === 0 ? null : await tryProbes(ctx, list);
      if (together === null) continue;
      // Refused together: each alone says which bound breaks (and if none does alone, the combination is blamed).
      let blamed = false;
      for (const p of list.length > 1 ? list : []) {
        const alone = await tryProbes(ctx, [p]);
        if (alone) (blamed = true), refused(ctx, [p], alone);
      }
      if (!blamed) refused(ctx, list, together);
    }
  },
};
