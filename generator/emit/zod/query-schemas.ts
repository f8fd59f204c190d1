/**
 * @module The zod schemas of a collection's queries in one version, as syntax nodes: the list's (limit, cursor,
 * one parameter per filter operator, `sort`, `fields`, `expand`), a get's (`fields`, `expand`) and a write's
 * (`expand`). Each reads query-string text into values; the runtime structures their output for the handlers.
 */
import { FILTER_OP_FACTS, filterParameter, type CollectionAt, type FieldAt } from '../../model/ir.ts';
import { e, type Expr, type Prop } from '../../printer/ast.ts';
import { filterExpression } from './zod-expression.ts';

const z = e.id('z');
const optional = (expr: Expr): Expr => e.chain(expr, ['optional']);

/** The zod expression that reads a range operator's bound: the field's kind, without its bounds or pattern. */
function boundExpression(field: FieldAt): Expr {
  switch (field.type.kind) {
    case 'int':
      return e.chain(e.id('queryNumber'), ['pipe', e.chain(z, ['int'])]);
    case 'number':
      return e.chain(e.id('queryNumber'), ['pipe', e.chain(z, ['number'])]);
    case 'date':
      return e.chain(e.member(z, 'iso'), ['date']);
    case 'datetime':
      return e.chain(e.member(z, 'iso'), ['datetime', e.obj([e.prop('offset', { k: 'lit', text: 'true' })])]);
    default:
      return e.chain(z, ['string']);
  }
}

/** The parameters of one field's filter: `status`, `status[eq]` (beside other operators), `status[in]`, `total[gte]`, ... */
function filterProps(field: FieldAt, value: Expr, ops: readonly string[]): Prop[] {
  const props: Prop[] = [];
  for (const op of ops) {
    const param = filterParameter(field.name, op as Parameters<typeof filterParameter>[1]);
    if (op === 'eq' || op === 'ne') props.push(e.prop(param, optional(value)));
    else if (op === 'in') props.push(e.prop(param, optional(e.call('queryList', [value]))));
    else if (FILTER_OP_FACTS[op as keyof typeof FILTER_OP_FACTS].ordered) props.push(e.prop(param, optional(boundExpression(field))));
    // `status[eq]` is `status`, for clients that write every operator alike (OpenAPI's deepObject).
    if (op === 'eq' && ops.length > 1) props.push(e.prop(`${field.name}[eq]`, optional(value)));
  }
  return props;
}

/** The `fields` (every readable field: the keys of the module's map of field schemas, `fieldsVar`) and `expand` parameters (those the version has). */
function viewProps(c: CollectionAt, fieldsVar: string, mask: boolean): Prop[] {
  const refs = c.query.expandable.map((x) => e.str(x.name));
  return [
    ...(mask ? [e.prop('fields', optional(e.call('queryFields', [e.id(fieldsVar)])))] : []),
    ...(refs.length > 0 ? [e.prop('expand', optional(e.call('queryNames', [e.arr(refs), e.str('expansion')])))] : []),
  ];
}

/** The list's query schema; `fieldsVar` names the module's map of field schemas (`orderFields`). */
export function listQueryExpression(c: CollectionAt, fieldsVar: string): Expr {
  const sortable = c.query.sortable.map((f) => f.name);
  return e.call('z.strictObject', [
    e.obj([
      e.prop('limit', e.call('listLimit', [e.num(c.pagination.defaultLimit), e.num(c.pagination.maxLimit)])),
      e.prop('cursor', e.chain(e.call('z.string'), ['min', e.num(1)], ['optional'])),
      ...c.query.filters.flatMap((filter) => {
        const field = c.fields.find((f) => f.name === filter.name)!;
        return filterProps(field, filterExpression(field, e.access(e.id(fieldsVar), field.name)), filter.ops);
      }),
      ...(sortable.length > 0 ? [e.prop('sort', optional(e.call('querySort', [e.arr(sortable.map(e.str))])))] : []),
      ...viewProps(c, fieldsVar, true),
    ]),
  ]);
}

/** A get's query schema (`fields`, and `expand` when the version has expandable refs). */
export const getQueryExpression = (c: CollectionAt, fieldsVar: string): Expr => e.call('z.strictObject', [e.obj(viewProps(c, fieldsVar, true))]);

/** The query schema of writes and transitions (`expand`), or null when the version has no expandable ref. */
export const writeQueryExpression = (c: CollectionAt, fieldsVar: string): Expr | null =>
  c.query.expandable.length === 0 ? null : e.call('z.strictObject', [e.obj(viewProps(c, fieldsVar, false))]);

/** The zod helpers a collection's query schemas use (`masked`: a get or a list reads `?fields=`). */
export function queryHelpers(c: CollectionAt, hasList: boolean, masked: boolean): string[] {
  const ops = hasList ? c.query.filters.flatMap((f) => f.ops) : [];
  const numeric = c.query.filters.some((f) => {
    const kind = c.fields.find((x) => x.name === f.name)?.type.kind;
    return hasList && (kind === 'int' || kind === 'number');
  });
  return [
    ...(masked ? ['queryFields'] : []),
    ...(ops.includes('in') ? ['queryList'] : []),
    ...(c.query.expandable.length > 0 ? ['queryNames'] : []),
    ...(numeric ? ['queryNumber'] : []),
    ...(hasList && c.query.sortable.length > 0 ? ['querySort'] : []),
  ];
}
