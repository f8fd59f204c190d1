/**
 * @module What a field offers the list query, compared between two sides: each filter operator is a query
 * parameter of the list (`?status=`, `?total[gte]=`), added (safe) or removed (breaking: unknown parameters answer
 * 400; safe when the field was deprecated first); each sort key and expansion likewise. A field added or removed
 * as a whole brings or takes its parameters with it (`before` or `after` absent).
 */
import { filterParameter, type FieldAt, type SourceRef } from '../model/ir.ts';
import type { FindingCollector, RouteOp, Touches } from './collector.ts';

/** What the comparison needs of the field differ: the routes a parameter is read on, and where to point. */
export interface QueryDiffSide {
  readonly out: FindingCollector;
  /** `path.field` of the finding. */
  readonly at: string;
  /** The collection's path for messages (`orders`). */
  readonly path: string;
  /** The list route (when both sides have it). */
  readonly list: readonly RouteOp[];
  /** The routes that answer the resource (where `?expand=` is read). */
  readonly answers: readonly RouteOp[];
  readonly touches: (request: readonly RouteOp[], response: readonly RouteOp[]) => Touches;
  /** Where the change was written: the field's modifier call (`filterable`, `sortable`, `expandable`). */
  readonly locOf: (modifier: 'filterable' | 'sortable' | 'expandable') => SourceRef;
}

const opsOf = (f: FieldAt | undefined): string[] => (f && !f.writeOnly ? f.ops.map((o) => o.op) : []);

/** Compares the filter operators, sort key and expansion of one field (`before`/`after` absent: added or removed). */
export function compareFieldQuery(side: QueryDiffSide, before: FieldAt | undefined, after: FieldAt | undefined): void {
  const { out, at, path } = side;
  const name = (after ?? before)!.name;
  const deprecated = before?.deprecated === true;
  if (side.list.length > 0) {
    const was = opsOf(before);
    const is = opsOf(after);
    const param = (op: string, f: FieldAt) => filterParameter(f.name, op as Parameters<typeof filterParameter>[1]);
    for (const op of was)
      if (!is.includes(op))
        out.add(
          deprecated ? 'deprecated-query-parameter-removed' : 'query-parameter-removed',
          at,
          `${path} list no longer accepts the filter ?${param(op, before!)}=`,
          side.touches(side.list, []),
          side.locOf('filterable'),
          { aspect: 'filter', before: param(op, before!) },
        );
    for (const op of is)
      if (!was.includes(op))
        out.add(
          'query-parameter-added',
          at,
          `${path} list accepts the new filter ?${param(op, after!)}=`,
          side.touches(side.list, []),
          side.locOf('filterable'),
          {
            aspect: 'filter',
            after: param(op, after!),
          },
        );
    const sortedBefore = before !== undefined && before.sortable !== false && !before.writeOnly;
    const sortedAfter = after !== undefined && after.sortable !== false && !after.writeOnly;
    if (sortedBefore && !sortedAfter)
      out.add(
        'sort-key-removed',
        at,
        `${path} list can no longer be sorted by ${before.name} (?sort=${before.name})`,
        side.touches(side.list, []),
        side.locOf('sortable'),
        {
          aspect: 'sort',
          before: before.name,
        },
      );
    if (!sortedBefore && sortedAfter)
      out.add('sort-key-added', at, `${path} list can be sorted by ${after.name} (?sort=${after.name})`, side.touches(side.list, []), side.locOf('sortable'), {
        aspect: 'sort',
        after: after.name,
      });
  }
  if (side.answers.length === 0) return;
  const expandedBefore = before !== undefined && before.expandable !== false && !before.writeOnly;
  const expandedAfter = after !== undefined && after.expandable !== false && !after.writeOnly;
  if (expandedBefore && !expandedAfter)
    out.add('expansion-removed', at, `${path}: ?expand=${name} is no longer accepted`, side.touches(side.answers, []), side.locOf('expandable'), {
      aspect: 'expand',
      before: before.name,
    });
  if (!expandedBefore && expandedAfter)
    out.add(
      'expansion-added',
      at,
      `${path}: ?expand=${name} replaces the id with the referenced resource`,
      side.touches(side.answers, []),
      side.locOf('expandable'),
      {
        aspect: 'expand',
        after: after.name,
      },
    );
}
