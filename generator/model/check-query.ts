/**
 * @module The rules of a collection's list query that need the whole collection or API: `defaultSort` read and
 * checked (fields the collection has, sortable in every version it exists in), and expandable refs readable where
 * they expand (the referenced collection offers `get` in every version the ref is expandable in).
 */
import type { Ctx } from './check-field.ts';
import type { DiagnosticBag } from './diagnostics.ts';
import type { CollectionIR, FieldIR, LifespanIR, SortKeyIR, SourceRef } from './ir.ts';
import { existsAt } from './project.ts';

/** The keys of `defaultSort: '-createdAt,title'` by newest name, or the mistake reported (RG346) and none. */
export function defaultSortOf(written: string | undefined, fields: readonly FieldIR[], where: string, d: DiagnosticBag, loc: SourceRef): SortKeyIR[] {
  if (written === undefined) return [];
  const keys: SortKeyIR[] = [];
  const names = fields.map((f) => f.name);
  for (const part of written.split(',')) {
    const desc = part.startsWith('-');
    const field = desc ? part.slice(1) : part;
    const why =
      field === ''
        ? 'has an empty key'
        : !names.includes(field)
          ? `names '${field}', which is no field of ${where} (newest names: ${names.join(', ')})`
          : keys.some((k) => k.field === field)
            ? `names '${field}' twice`
            : undefined;
    if (why !== undefined) {
      d.error('RG346', `${where}: defaultSort '${written}' ${why}; write sortable fields separated by commas, '-' before a descending one.`, loc);
      return [];
    }
    keys.push({ field, direction: desc ? 'desc' : 'asc' });
  }
  return keys;
}

/** The versions (indexes) in which `span` holds for `field` of `c`. */
function holdsAt(ctx: Ctx, c: CollectionIR, field: FieldIR, span: LifespanIR): number[] {
  const v = ctx.versions;
  return v
    .map((_, i) => i)
    .filter(
      (i) => existsAt(v, i, c.addedIn, c.removedIn) && existsAt(v, i, field.addedIn, field.removedIn?.version) && existsAt(v, i, span.addedIn, span.removedIn),
    );
}

/** The list-query rules of one collection (RG345, RG346). */
export function checkQuery(ctx: Ctx, c: CollectionIR): void {
  const { d, versions } = ctx;
  const alive = versions.map((_, i) => i).filter((i) => existsAt(versions, i, c.addedIn, c.removedIn));
  for (const key of c.defaultSort) {
    const field = c.fields.find((f) => f.name === key.field);
    if (!field) continue;
    const sortable = field.sortable === false ? [] : holdsAt(ctx, c, field, field.sortable);
    const missing = alive.filter((i) => !sortable.includes(i));
    if (missing.length > 0)
      d.error(
        'RG346',
        `${c.name}: defaultSort names '${key.field}', which is not a sort key in ${missing.map((i) => versions[i]).join(', ')}; add .sortable() to it (sortable in every version of ${c.name}), or sort by another field.`,
        field.calls['sortable'] ?? field.loc,
      );
  }
  for (const field of c.fields) {
    if (field.expandable === false || field.type.kind !== 'ref') continue;
    const target = ctx.byName.get(field.type.collection);
    if (!target) continue;
    const unreadable = holdsAt(ctx, c, field, field.expandable).filter(
      (i) =>
        existsAt(versions, i, target.addedIn, target.removedIn) &&
        !target.operations.some((op) => op.name === 'get' && existsAt(versions, i, op.addedIn, op.removedIn)),
    );
    if (unreadable.length > 0)
      d.error(
        'RG345',
        `${c.name}.${field.name}: expandable() reads ${target.name} through its get handler, which ${target.name} does not offer in ${unreadable.map((i) => versions[i]).join(', ')}; add 'get' to its operations, or limit expandable({ removedIn }) to the versions that have it.`,
        field.calls['expandable'] ?? field.loc,
      );
  }
}
