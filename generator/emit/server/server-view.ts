/**
 * @module The view models of the server's assembling modules: `routes.ts` (every version's list of route
 * entries), `types.ts` (the API's handler, seed, migration and option types) and `index.ts` (the entry
 * points). They only name collections, so they change when a collection is added or removed, not when a
 * field changes; the per-collection views are in `collection-view.ts`. The templates only lay them out.
 */
import { takesBearer, takesCredentials, type ApiIR } from '../../model/ir.ts';
import { pascalCase } from '../../model/names.ts';
import { project } from '../../model/project.ts';
import { buildCollectionFiles, type CollectionFiles, type ServerContext } from './collection-view.ts';
import { buildEventsView, type EventsView } from './events-view.ts';

interface Import {
  readonly alias: string;
  readonly path: string;
}
interface VersionView {
  readonly name: string;
  readonly released: boolean;
  readonly deprecation: string | null;
  readonly sunset: string | null;
  readonly sunsetAt: number | null;
  /** The version's OpenAPI document relative to `server/` (the OpenAPI emitter writes `openapi/<version>.json`). */
  readonly document: string;
  /** The imported route entries of the version's collections, in declaration order. */
  readonly routes: readonly string[];
}
/** The view of `server/routes.ts`. */
export interface RoutesView {
  readonly name: string;
  readonly specName: string;
  readonly collections: readonly Import[];
  readonly versioning: ApiIR['versioning'];
  readonly bearer: boolean;
  readonly apiKeyHeader: string | null;
  readonly rateLimit: { readonly max: number; readonly windowMs: number } | null;
  readonly versions: readonly VersionView[];
  /** The constant of `events.ts`, or null without events. */
  readonly webhooks: string | null;
}
interface CollectionRef extends Import {
  readonly key: string;
  /** The module declares `Transitions` (the collection has a lifecycle). */
  readonly hasTransitions: boolean;
}
/** The view of `server/types.ts`. */
export interface TypesView {
  readonly name: string;
  readonly collections: readonly CollectionRef[];
  readonly versions: string;
  /** The intersection of the `Migrations` types of the collections that have hooks. */
  readonly migrations: string;
  readonly needsCredentials: boolean;
  readonly needsMigrations: boolean;
  /** Whether the API takes bearer tokens (then `jwt` can verify them). */
  readonly bearer: boolean;
}
/** The view of `server/index.ts`. */
export interface IndexView {
  readonly name: string;
  readonly specName: string;
  readonly collections: readonly CollectionRef[];
  readonly optionsOptional: boolean;
  readonly versioning: string;
  /** The API declares events: `createWebhookDispatcher` is exported. */
  readonly hasEvents: boolean;
}

/** Everything the server templates need, computed once. */
export interface ServerViews {
  readonly routes: RoutesView;
  readonly types: TypesView;
  readonly index: IndexView;
  readonly collections: readonly CollectionFiles[];
  readonly events: EventsView | null;
}

const identifier = (s: string) => s.replace(/[^A-Za-z0-9_$]/g, '_').replace(/^(\d)/, '_$1');

/** Names a collection module declares; a version's alias must not be one of them. */
const TAKEN = ['Handlers', 'MemorySpec', 'Migrations', 'Resource'];

/** A distinct identifier per version (`V1`, `V_202506`), for its imported schema module. */
function aliases(api: ApiIR): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>(TAKEN);
  for (const v of api.versions) {
    let alias = identifier(pascalCase(v.name));
    if (!/^[A-Z]/.test(alias)) alias = 'V' + alias;
    while (used.has(alias)) alias += '_';
    used.add(alias);
    out.set(v.name, alias);
  }
  return out;
}

const dayMs = (date: string): number => Date.parse(`${date}T00:00:00Z`);

/** Builds the views of every server template from the IR. */
export function buildServerViews(api: ApiIR): ServerViews {
  const name = pascalCase(api.name);
  const specName = `${api.name.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}_API`;
  const versions = api.versions.map((v) => v.name);
  const alias = aliases(api);
  const ctx: ServerContext = {
    api,
    name,
    versions,
    projections: api.versions.map((v) => project(api, v.name)),
    hasAuth: takesCredentials(api.auth),
    alias,
  };
  const collections = api.collections.map((c) => buildCollectionFiles(ctx, c));
  // Collection names are identifiers without `$`: `$orders` collides with nothing.
  const refs: CollectionRef[] = collections.map((c) => ({ key: c.key, alias: `$${c.key}`, path: `./collections/${c.key}.js`, hasTransitions: c.hasTransitions }));
  const routeOf = (key: string, version: string) => `$${key}${/^[A-Za-z_$][\w$]*$/.test(version) ? `.${version}` : `[${JSON.stringify(version)}]`}`;
  // The built-in collection's handlers come with the runtime: users neither write nor seed them.
  const userRefs = refs.filter((_, i) => api.collections[i]!.builtin === undefined);
  const events = buildEventsView(api, name, specName);
  const needsCredentials = collections.some((c) => c.needsCredentials);
  const needsMigrations = collections.some((c) => c.hasMigrations);

  return {
    routes: {
      name,
      specName,
      collections: refs,
      versioning: api.versioning,
      bearer: takesBearer(api.auth),
      apiKeyHeader: api.auth.apiKey?.header ?? null,
      rateLimit: api.rateLimit ? { max: api.rateLimit.limit, windowMs: api.rateLimit.windowMs } : null,
      versions: api.versions.map((v) => ({
        name: v.name,
        released: v.released !== undefined,
        deprecation: v.deprecated ? `@${dayMs(v.deprecated) / 1000}` : null,
        sunset: v.sunset ? new Date(dayMs(v.sunset)).toUTCString() : null,
        sunsetAt: v.sunset ? dayMs(v.sunset) : null,
        document: `../openapi/${v.name}.json`,
        routes: collections.filter((c) => c.versions.includes(v.name)).map((c) => routeOf(c.key, v.name)),
      })),
      webhooks: events?.constName ?? null,
    },
    types: {
      name,
      collections: userRefs,
      versions: versions.map((v) => JSON.stringify(v)).join(' | '),
      migrations: refs.filter((_, i) => collections[i]!.hasMigrations).map((r) => `${r.alias}.Migrations`).join(' & '),
      needsCredentials,
      needsMigrations,
      bearer: takesBearer(api.auth),
    },
    index: {
      name,
      specName,
      collections: userRefs,
      optionsOptional: !needsCredentials && !needsMigrations,
      versioning: api.versioning.in === 'path' ? `under ${versions.map((v) => `/${v}`).join(', ')}` : `selected by the ${api.versioning.header} header`,
      hasEvents: events !== null,
    },
    collections,
    events,
  };
}
