/**
 * @module The list query a collection offers in one version ({@link QueryAt}), derived from its projected fields:
 * plain data, built once per projection, that every emitter reads instead of asking each field again.
 */
import type { FieldAt, QueryAt, SortKeyIR } from './ir.ts';
import { kindOf } from './kinds.ts';

/** Whether a list can filter, sort or expand by the field at all: a scalar that responses carry. */
const listable = (f: FieldAt): boolean => !f.writeOnly && kindOf(f.type).wire !== 'array' && kindOf(f.type).wire !== 'object';

/** The list query of a collection whose fields (in one version) are `fields`, and whose default order is `defaultSort` (newest names). */
export function queryOf(fields: readonly FieldAt[], defaultSort: readonly SortKeyIR[]): QueryAt {
  const named = (f: FieldAt) => ({ name: f.name, key: f.key });
  const sortable = fields.filter((f) => f.sortable !== false && listable(f) && kindOf(f.type).ordered);
  return {
    filters: fields.filter((f) => f.ops.length > 0 && listable(f)).map((f) => ({ ...named(f), ops: f.ops.map((o) => o.op) })),
    sortable: sortable.map(named),
    defaultSort: defaultSort.flatMap((k) => {
      const f = sortable.find((x) => x.key === k.field);
      return f ? [{ ...named(f), direction: k.direction }] : [];
    }),
    fields: fields.filter((f) => !f.writeOnly).map(named),
    expandable: fields.flatMap((f) =>
      f.expandable !== false && f.type.kind === 'ref' && !f.writeOnly ? [{ ...named(f), collection: f.type.collection }] : [],
    ),
  };
}
