/**
 * @module Stage "check": rules that need the whole API and its history (markers against the versions a
 * field exists in, renames onto taken names, refs, paths per version, migrations old versions need).
 */
import { checkField, checkNamesPerVersion, checkNestedChanges, type Ctx } from './check-field.ts';
import { checkLifecycle } from './check-lifecycle.ts';
import { checkQuery } from './check-query.ts';
import { checkCollectionScopes } from './check-scopes.ts';
import type { DiagnosticBag } from './diagnostics.ts';
import type { ApiIR, CollectionIR, FieldIR } from './ir.ts';
import { emptyRange, existsAt, nameAt } from './project.ts';

/** Version indexes (in the whole API) at which a field of `c` exists. */
function lifetime(ctx: Ctx, c: CollectionIR, field: FieldIR): number[] {
  return ctx.versions
    .map((_, i) => i)
    .filter((i) => existsAt(ctx.versions, i, c.addedIn, c.removedIn) && existsAt(ctx.versions, i, field.addedIn, field.removedIn?.version));
}

/** Runs every whole-API rule, reporting into `d`. */
export function checkApi(api: ApiIR, d: DiagnosticBag): void {
  const versions = api.versions.map((v) => v.name);
  const ctx: Ctx = { api, versions, d, byName: new Map(api.collections.map((c) => [c.name, c])) };
  checkCollectionScopes(api, d);
  for (const c of api.collections) {
    // A collection that exists in no version is a mistake in its versions (and has nothing to generate).
    const emptyCollection = emptyRange(versions, c.addedIn, c.removedIn);
    if (emptyCollection) d.error(emptyCollection.code, `${c.name} ${emptyCollection.text}.`, c.calls['removedIn'] ?? c.loc);
    for (const r of c.renames)
      if (
        !existsAt(versions, versions.indexOf(r.version) - 1, c.addedIn, c.removedIn) ||
        !existsAt(versions, versions.indexOf(r.version), c.addedIn, c.removedIn)
      )
        d.error(
          'RG160',
          `${c.name}: renamedFrom('${r.from}', '${r.version}') describes a change in ${r.version}, but the collection does not exist both there and in the version before.`,
          r.loc,
        );
    const start = versions.findIndex((_, i) => existsAt(versions, i, c.addedIn, c.removedIn));
    for (const field of c.fields) {
      checkField(ctx, start, field, `${c.name}.${field.name}`, lifetime(ctx, c, field));
      checkNestedChanges(ctx, field, `${c.name}.${field.name}`);
      if (field.type.kind === 'file') checkFileDownloads(ctx, c, field, lifetime(ctx, c, field));
    }
    checkNamesPerVersion(ctx, c.fields, c.name);
    if (c.lifecycle) checkLifecycle(ctx, c, c.lifecycle);
    checkQuery(ctx, c);
  }
  for (const e of api.events ?? []) {
    const where = `event ${e.type}`;
    const emptyEvent = emptyRange(versions, e.addedIn, e.removedIn);
    if (emptyEvent) d.error(emptyEvent.code, `${where} ${emptyEvent.text}.`, e.loc);
    const start = versions.findIndex((_, i) => existsAt(versions, i, e.addedIn, e.removedIn));
    for (const field of e.payload) {
      const alive = versions
        .map((_, i) => i)
        .filter((i) => existsAt(versions, i, e.addedIn, e.removedIn) && existsAt(versions, i, field.addedIn, field.removedIn?.version));
      checkField(ctx, start, field, `${where}.${field.name}`, alive);
      checkNestedChanges(ctx, field, `${where}.${field.name}`);
    }
    checkNamesPerVersion(ctx, e.payload, where);
  }
  versions.forEach((version, i) => {
    const byPath = new Map<string, string>();
    const byName = new Map<string, string>();
    // Each collection's files are named after it: on case-insensitive file systems (macOS, Windows) two names
    // that differ only in case would be one file.
    const byFileName = new Map<string, string>();
    for (const c of api.collections) {
      // Only the name and path matter here: a whole projection (every field) would cost far more.
      if (!existsAt(versions, i, c.addedIn, c.removedIn)) continue;
      const name = nameAt(versions, i, c.name, c.renames);
      const view = { name, path: c.explicitPath ? c.path : name };
      const samePath = byPath.get(view.path);
      if (samePath !== undefined)
        d.error('RG121', `in ${version}, ${samePath} and ${c.name} are both served at /${view.path}; give one a different path: '...'.`, c.loc);
      const sameName = byName.get(view.name);
      if (sameName !== undefined && samePath === undefined)
        d.error(
          'RG152',
          `in ${version}, ${sameName} and ${c.name} are both called ${view.name}; a renamed collection must not take another's name.`,
          c.renames[0]?.loc ?? c.loc,
        );
      const sameFile = byFileName.get(view.name.toLowerCase());
      if (sameFile !== undefined && sameFile !== view.name)
        d.error(
          'RG125',
          `in ${version}, ${sameFile} and ${view.name} differ only in case, and their generated files would be one file on macOS and Windows; rename one.`,
          c.loc,
        );
      byPath.set(view.path, c.name);
      byName.set(view.name, c.name);
      byFileName.set(view.name.toLowerCase(), view.name);
    }
  });
}

/** A file is downloaded through the resource, which the get handler reads: each version with the field offers get (RG413). */
function checkFileDownloads(ctx: Ctx, c: CollectionIR, field: FieldIR, alive: readonly number[]): void {
  const without = alive.filter((i) => !c.operations.some((op) => op.name === 'get' && existsAt(ctx.versions, i, op.addedIn, op.removedIn)));
  if (without.length === 0) return;
  ctx.d.error(
    'RG413',
    `${c.name}.${field.name}: a file field needs the get operation, which its download reads the resource through, but ${without.map((i) => ctx.versions[i]).join(', ')} do${without.length === 1 ? 'es' : ''} not offer it; add 'get' to operations.`,
    field.loc,
  );
}
