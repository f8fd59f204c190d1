/**
 * @module The generated route tables (contract 3) as the runtime serves them: each collection writes what its
 * versions share once and per version only what differs, and mounting lays every version's routes out in full
 * (`RouteSpec`), so the code that serves a request reads one route, never the table.
 */
import type { ApiSpec, CollectionRoutes, MountedSpec, MountedVersion, RouteSpec } from './spec.js';

/** The route of `table` in `version`, or null when the collection does not exist there. */
export function routeOf(table: CollectionRoutes, version: string): RouteSpec | null {
  if (!Object.hasOwn(table.versions, version)) return null;
  const own = table.versions[version]!;
  // A version's own file fields (`{}`: it has none) or the collection's.
  const files = own.files ?? table.files;
  return {
    collection: table.collection,
    path: own.path ?? table.path,
    operations: own.operations ?? table.operations,
    public: own.public ?? table.public,
    id: own.id ?? table.id,
    schemas: own.schemas,
    query: own.query ?? {},
    up: own.up ?? null,
    down: own.down ?? {},
    stateField: own.stateField ?? table.stateField ?? null,
    transitions: own.transitions ?? {},
    ...(files !== undefined && Object.keys(files).length > 0 ? { files } : {}),
    ...(table.xml ? { xml: table.xml } : {}),
  };
}

/** `spec` with every version's routes laid out, in the order of its collections. */
export function mountedSpec(spec: ApiSpec): MountedSpec {
  const { collections, versions, ...rest } = spec;
  return {
    ...rest,
    versions: versions.map((version): MountedVersion => ({ ...version, routes: collections.flatMap((table) => routeOf(table, version.name) ?? []) })),
  };
}
