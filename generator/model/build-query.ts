/**
 * @module What a field offers a list query, as written: the operators of `filterable({ ops })`, and the
 * lifespans of `sortable()` and `expandable()`; each checked on its own (operators known and listed once,
 * versions declared, a lifespan that holds somewhere) and against the field's kind and modifiers. Rules that
 * need the collection (defaultSort, a readable referenced collection) are in `check-query.ts`.
 */
import { FILTER_OP_FACTS, FILTER_OPS, type FilterOp } from '@restgen/runtime/contract';
import { describeValue } from '../dsl/arguments.ts';
import type { FieldDef } from '../dsl/defs.ts';
import type { FieldContext } from './field-context.ts';
import { refOf } from './diagnostics.ts';
import type { FieldShape, FilterOpIR, LifespanIR, SourceRef } from './ir.ts';
import { kindOf } from './kinds.ts';
import { closest } from './option-shapes.ts';
import { emptyRange } from './project.ts';

/** The query parameters every list reads: a filter's equality parameter must not take one of these names. */
const RESERVED = ['limit', 'cursor', 'sort', 'fields', 'expand'];

/** The list-query capabilities of a shape. */
export type QueryShape = Pick<FieldShape, 'ops' | 'sortable' | 'expandable'>;

/** A lifespan's `addedIn`/`removedIn`, each a declared version, holding in some version; the bad parts reported. */
function lifespanOf(options: unknown, what: string, ctx: FieldContext, loc: SourceRef): LifespanIR | undefined {
  const o = (typeof options === 'object' && options !== null ? options : {}) as { addedIn?: unknown; removedIn?: unknown };
  const out: { addedIn?: string; removedIn?: string } = {};
  let ok = true;
  for (const member of ['addedIn', 'removedIn'] as const) {
    const v = o[member];
    if (v === undefined) continue;
    if (typeof v === 'string' && ctx.versions.includes(v)) out[member] = v;
    else {
      ok = false;
      ctx.diagnostics.error(
        'RG150',
        `${what}: ${member} ${typeof v === 'string' ? `'${v}'` : describeValue(v)} names no declared version; the API declares ${ctx.versions.join(', ')}.`,
        loc,
      );
    }
  }
  const empty = emptyRange(ctx.versions, out.addedIn, out.removedIn);
  if (empty) {
    ctx.diagnostics.error(empty.code, `${what} ${empty.text}.`, loc);
    return undefined;
  }
  return ok ? out : undefined;
}

/** The operators of `filterable()`: `eq` without options, else each entry of `ops` checked (RG341, RG150). */
function opsOf(def: FieldDef, where: string, ctx: FieldContext, loc: SourceRef): FilterOpIR[] {
  if (!def.filterable) return [];
  if (def.ops === undefined) return [{ op: 'eq' }];
  const d = ctx.diagnostics;
  const known = FILTER_OPS.join(', ');
  if (def.ops.length === 0) {
    d.error('RG341', `${where}: filterable({ ops: [] }) offers no operator; list at least one of ${known}, or remove filterable().`, loc);
    return [];
  }
  const out: FilterOpIR[] = [];
  for (const [i, entry] of def.ops.entries()) {
    const named = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : undefined;
    const extra = named ? Object.keys(named).filter((k) => k !== 'op' && k !== 'addedIn' && k !== 'removedIn') : [];
    const op = named ? named['op'] : entry;
    if (typeof op !== 'string' || !(FILTER_OPS as readonly string[]).includes(op) || extra.length > 0) {
      const guess = typeof op === 'string' ? closest(op, FILTER_OPS) : undefined;
      const got = extra.length > 0 ? `an entry with ${extra.map((k) => `'${k}'`).join(', ')}` : typeof op === 'string' ? `'${op}'` : describeValue(entry);
      d.error(
        'RG341',
        `${where}: ops[${i}] is ${got}${guess ? ` (did you mean '${guess}'?)` : ''}; an entry is one of ${known}, or { op, addedIn, removedIn }.`,
        loc,
      );
      continue;
    }
    if (out.some((o) => o.op === op)) {
      d.error('RG341', `${where}: operator '${op}' is listed twice in ops; keep one (with addedIn/removedIn for the versions it holds in).`, loc);
      continue;
    }
    const span = named ? lifespanOf(named, `${where}: operator '${op}'`, ctx, loc) : {};
    if (span) out.push({ op: op as FilterOp, ...span });
  }
  return out;
}

/** The query capabilities of a field as written (see {@link QueryShape}). */
export function queryShapeOf(def: FieldDef, where: string, ctx: FieldContext, ref: SourceRef): QueryShape {
  const at = (member: string) => refOf(def.calls[member], ref);
  const flag = (member: 'sortable' | 'expandable'): LifespanIR | false => {
    const written = def[member];
    return written ? (lifespanOf(written.options, `${where}: ${member}()`, ctx, at(member)) ?? false) : false;
  };
  return { ops: opsOf(def, where, ctx, at('filterable')), sortable: flag('sortable'), expandable: flag('expandable') };
}

/**
 * Checks a field's query capabilities against its kind and modifiers: ordered operators and sort keys need a
 * kind with an order (RG340, RG342), a write-only field is never answered (RG343), only a ref expands (RG344),
 * only a collection's own fields take any of them (RG348), and a filter must not take a list parameter's name
 * (RG347). `name` is the field's key; `nested`: a field of an object, an array item or a transition input.
 */
export function checkQueryShape(shape: FieldShape, def: FieldDef, name: string, where: string, ctx: FieldContext, ref: SourceRef, nested: boolean): void {
  const d = ctx.diagnostics;
  const at = (member: string) => refOf(def.calls[member], ref);
  const used = (['filterable', 'sortable', 'expandable'] as const).filter((m) => (m === 'filterable' ? shape.filterable : shape[m] !== false));
  if (nested) {
    for (const m of used)
      d.error('RG348', `${where}: .${m}() applies to a collection's own fields only; lists filter, sort and expand by those. Remove it here.`, at(m));
    return;
  }
  if (shape.writeOnly)
    for (const m of used)
      d.error('RG343', `${where}: a write-only field is never answered, so a list cannot ${m.replace(/able$/, '')} by it; remove ${m}().`, at(m));
  const facts = kindOf(shape.type);
  const scalar = facts.wire !== 'array' && facts.wire !== 'object';
  const kind = shape.type.kind;
  if (scalar && !facts.ordered)
    for (const o of shape.ops)
      if (FILTER_OP_FACTS[o.op].ordered)
        d.error(
          'RG340',
          `${where}: operator '${o.op}' compares by order, and ${kind} values have none; a ${kind} field takes eq, ne and in (ordered: int, number, date, datetime, string).`,
          at('filterable'),
        );
  if (shape.sortable !== false && !facts.ordered)
    d.error(
      'RG342',
      `${where}: sortable() needs a kind with an order (int, number, date, datetime, string); ${kind} values have none. Remove it.`,
      at('sortable'),
    );
  if (shape.expandable !== false && kind !== 'ref')
    d.error('RG344', `${where}: expandable() applies to f.ref('collection') fields; ${kind} values reference nothing. Remove it.`, at('expandable'));
  if (shape.filterable && RESERVED.includes(name))
    d.error(
      'RG347',
      `${where}: a filter on '${name}' would be ?${name}=, which every list reads as its own parameter (${RESERVED.join(', ')}); rename the field or remove filterable().`,
      at('filterable'),
    );
}
