/**
 * @module Filter operators against random data: for each filterable field, records with random values of it
 * (the server's own where it assigns them), then each operator the field offers besides equality (`ne`, `in`,
 * `gt`, `gte`, `lt`, `lte`) with an operand taken from those values: every record listed must pass the operator,
 * as the run's own reference compares values, and every record the run made that passes it must be listed.
 * Several operators on one field combine with AND (a range). An operator the field does not offer answers 400
 * at `/query/<field>[<op>]`, listing what is allowed.
 */
import { FILTER_OPS, type FilterOp, filterParameter } from '@restgen/runtime/contract';
import type { FieldAt } from 'restgen/contract';
import { show } from '../compare.js';
import type { CheckContext } from '../context.js';
import type { CheckDefinition } from './definition.js';
import { ownScope, walk } from './helpers.js';
import { compareField, expectRefusal, fieldNamed, wireValue } from './query-helpers.js';

/** Whether `value` of `field` passes `op` with `operand` (a list for `in`); an absent value passes nothing. */
function passes(field: FieldAt, op: FilterOp, value: unknown, operand: unknown): boolean {
  if (value === undefined || value === null) return false;
  const c = (x: unknown) => compareField(field, value, x);
  switch (op) {
    case 'eq':
      return c(operand) === 0;
    case 'ne':
      return c(operand) !== 0;
    case 'in':
      return (operand as unknown[]).some((x) => c(x) === 0);
    case 'gt':
      return c(operand) > 0;
    case 'gte':
      return c(operand) >= 0;
    case 'lt':
      return c(operand) < 0;
    case 'lte':
      return c(operand) <= 0;
  }
}

/** One condition of a filter: the operator and its operand. */
type Condition = readonly [op: FilterOp, operand: unknown];

/** The conditions to try on a field with `values` among the records: each operator alone, then a range of two. */
function conditionsOf(ctx: CheckContext, ops: readonly FilterOp[], values: readonly unknown[]): Condition[][] {
  const pick = () => values[ctx.values.below(values.length)];
  const out: Condition[][] = [];
  for (const op of ops) {
    if (op === 'eq') continue;
    if (op !== 'in') out.push([[op, pick()]]);
    // A list of values without commas (a comma separates them on the wire).
    else out.push([[op, [...new Set([pick(), pick()])].filter((v) => !wireValue(v).includes(','))]]);
  }
  const lower = ops.find((op) => op === 'gte' || op === 'gt');
  const upper = ops.find((op) => op === 'lte' || op === 'lt');
  if (lower && upper)
    out.push([
      [lower, pick()],
      [upper, pick()],
    ]);
  return out.filter((conditions) => conditions.every(([op, operand]) => op !== 'in' || (operand as unknown[]).length > 0));
}

/** Each operator a field offers keeps exactly the records that pass it. */
export const filterOperators: CheckDefinition = {
  needs: ['create', 'list'],
  applies: (ctx) =>
    ctx.c.query.filters.some((f) => f.ops.some((op) => op !== 'eq')) ? undefined : `${ctx.c.name} has no filter operators besides equality in ${ctx.v.name}`,
  async run(ctx) {
    const own = await ownScope(ctx);
    const scoped = new Set(Object.keys(own?.overrides ?? {}));
    const filters = ctx.c.query.filters.filter((f) => f.ops.some((op) => op !== 'eq'));
    const writable = filters.map((f) => fieldNamed(ctx, f.name)).filter((f) => !f.readOnly && !scoped.has(f.name));
    // Random values, a few of them repeated, so that the comparisons meet equal values as well.
    const made: Record<string, unknown>[] = [];
    for (let i = 0; i < 5; i++) {
      const values = Object.fromEntries(
        writable.map((f) => [f.name, i > 0 && ctx.values.below(3) === 0 && !f.unique ? made[i - 1]![f.name] : ctx.values.field(f, () => '')]),
      );
      made.push((await ctx.create({ ...values, ...(own?.overrides ?? {}) })).resource);
    }
    for (const filter of filters) {
      const field = fieldNamed(ctx, filter.name);
      const values = made.map((r) => r[field.name]).filter((v) => v !== undefined && v !== null);
      if (values.length === 0) continue;
      for (const conditions of conditionsOf(ctx, filter.ops, values)) {
        const query: Record<string, string> = { ...(own?.query ?? {}) };
        for (const [op, operand] of conditions)
          query[filterParameter(field.name, op)] = Array.isArray(operand) ? operand.map(wireValue).join(',') : wireValue(operand);
        const text = conditions.map(([op, operand]) => `${filterParameter(field.name, op)}=${show(operand)}`).join('&');
        const keeps = (r: Readonly<Record<string, unknown>>) => conditions.every(([op, operand]) => passes(field, op, r[field.name], operand));
        const listed = await walk(ctx, query, ctx.c.pagination.maxLimit);
        const wrong = listed.items.find(({ item }) => !keeps(item));
        if (wrong)
          ctx.fail(
            'list',
            `filtered by ${text}, the list answered record ${show(wrong.item[ctx.idField])}, whose ${field.name} is ${show(wrong.item[field.name])}`,
            listed.pages[wrong.page - 1],
          );
        const ids = new Set(listed.items.map(({ item }) => item[ctx.idField]));
        const lacking = made.filter((r) => keeps(r) && !ids.has(r[ctx.idField]));
        if (listed.complete && lacking.length > 0)
          ctx.fail(
            'list',
            `filtered by ${text}, the list lacks record ${show(lacking[0]![ctx.idField])}, whose ${field.name} ${show(lacking[0]![field.name])} passes`,
            listed.pages.at(-1),
          );
      }
      const undeclared = FILTER_OPS.find((op) => op !== 'eq' && !filter.ops.includes(op));
      const parameter = undeclared === undefined ? `${field.name}[like]` : filterParameter(field.name, undeclared);
      expectRefusal(
        ctx,
        await ctx.api.list({ ...(own?.query ?? {}), [parameter]: wireValue(values[0]) }),
        parameter,
        `${parameter} (not an operator of ${field.name})`,
        true,
      );
    }
  },
};
