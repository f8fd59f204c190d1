/**
 * @module The list query in a collection's server module: each version's `QuerySpec` (how its query names map to
 * the newest version's, which the handlers read), and the `Query` type a list handler receives: the filters,
 * sort keys and expansions of every version (older versions' requests arrive migrated), in the newest names; and
 * whether other collections expand refs to a collection (its handlers may then offer `getMany`).
 */
import type { QuerySpec } from '@restgen/runtime/contract';
import { filterParameter, type ApiIR, type CollectionAt, type CollectionIR, type FilterOp } from '../../model/ir.ts';
import { FILTER_OPS } from '../../model/ir.ts';
import { existsAt, shapeAt } from '../../model/project.ts';
import { t, type Type } from '../../printer/ast.ts';

/** The query spec of `c` in one version; `newest` is the collection in its newest version (whose keys handlers read). */
export function querySpecOf(c: CollectionAt, newest: CollectionAt): QuerySpec {
  const stored = new Set(newest.fields.map((f) => f.key));
  const filters: Record<string, readonly [string, FilterOp]> = {};
  for (const f of c.query.filters) {
    // A filter on a field the newest version no longer stores filters nothing: the handlers never see it.
    if (!stored.has(f.key)) continue;
    for (const op of f.ops) filters[filterParameter(f.name, op)] = [f.key, op];
    if (f.ops.includes('eq') && f.ops.length > 1) filters[`${f.name}[eq]`] = [f.key, 'eq'];
  }
  const sort = c.query.sortable.filter((f) => stored.has(f.key)).map((f) => [f.name, f.key] as const);
  const renamed = c.query.fields.filter((f) => f.name !== f.key).map((f) => [f.name, f.key] as const);
  const expand = c.query.expandable.map((x) => [x.name, [x.key, x.collection] as const] as const);
  // Only what the version has: most collections offer a few of these at most.
  return {
    ...(Object.keys(filters).length > 0 ? { filters } : {}),
    ...(sort.length > 0 ? { sort: Object.fromEntries(sort) } : {}),
    ...(c.query.defaultSort.length > 0 ? { defaultSort: c.query.defaultSort.map((k) => [k.key, k.direction] as const) } : {}),
    ...(renamed.length > 0 ? { renamed: Object.fromEntries(renamed) } : {}),
    ...(expand.length > 0 ? { expand: Object.fromEntries(expand) } : {}),
  };
}

/**
 * `$.ListQueryOf<resource, { field: operators }, sort keys, expansions>` of `c` across the versions' `projections`,
 * whose newest resource type is `resource` (`V3.Order`).
 */
export function listQueryType(projections: readonly { readonly byKey: ReadonlyMap<string, CollectionAt> }[], c: CollectionIR, resource: string): Type {
  const versions = projections.flatMap((p) => p.byKey.get(c.name) ?? []);
  const newest = versions.at(-1)!;
  const stored = new Set(newest.fields.map((f) => f.key));
  const ops = new Map<string, Set<FilterOp>>();
  for (const v of versions)
    for (const f of v.query.filters) if (stored.has(f.key)) for (const op of f.ops) (ops.get(f.key) ?? ops.set(f.key, new Set()).get(f.key)!).add(op);
  const keys = (pick: (v: CollectionAt) => readonly { readonly key: string }[]) => [
    ...new Set(versions.flatMap((v) => pick(v).map((x) => x.key)).filter((k) => stored.has(k))),
  ];
  const id = newest.fields.find((f) => f.type.kind === 'id')?.key ?? 'id';
  const union = (names: readonly string[]) => (names.length === 0 ? t.ref('never') : t.union(names.map(t.str)));
  // Filters in the order the fields are written, operators in the operators table's order.
  const filters = newest.fields.flatMap((f) => {
    const used = ops.get(f.key);
    return used === undefined ? [] : [t.prop(f.key, union(FILTER_OPS.filter((op) => used.has(op))))];
  });
  return t.ref('$.ListQueryOf', [
    t.ref(resource),
    t.lit(filters),
    union([...keys((v) => v.query.sortable), id].filter((k, i, all) => all.indexOf(k) === i)),
    union(keys((v) => v.query.expandable)),
  ]);
}

/**
 * Whether some collection's ref to `c` is expandable in some version (then `c`'s handlers may offer `getMany`). Read
 * from the whole API's IR, field by field: a collection's module is generated from the API with that collection
 * only, so its emitter is given this, and projecting every collection to learn it would project the unchanged ones.
 */
export function isExpanded(api: ApiIR, c: CollectionIR): boolean {
  const versions = api.versions.map((v) => v.name);
  return api.collections.some((other) =>
    other.fields.some((f) =>
      versions.some((_, at) => {
        if (!existsAt(versions, at, other.addedIn, other.removedIn) || !existsAt(versions, at, f.addedIn, f.removedIn?.version)) return false;
        const shape = shapeAt(versions, at, f);
        return (
          shape.type.kind === 'ref' &&
          shape.type.collection === c.name &&
          shape.expandable !== false &&
          existsAt(versions, at, shape.expandable.addedIn, shape.expandable.removedIn)
        );
      }),
    ),
  );
}
