/**
 * @module The view models of the server's assembling modules: `routes.ts` (the versions and every collection's
 * routes), `types.ts` (the API's handler, seed, migration and option types) and `index.ts` (the entry
 * points). They only name collections, so they change when a collection is added or removed, not when a
 * field changes; the per-collection views are in `collection-view.ts`. The templates only lay them out.
 */
import { takesBearer, takesCredentials, type ApiIR, type VersionIR } from '../../model/ir.ts';
import { pascalCase } from '../../model/names.ts';
import { project } from '../../model/project.ts';
import { dayMs } from '../../model/build-versions.ts';
import { e, t, type Expr, type Type } from '../../printer/ast.ts';
import type { CollectionSummary, ServerContext } from './collection-view.ts';
import { RUNTIME } from '../runtime-package.ts';
import { eventsConstOf } from './events-view.ts';

interface Import {
  readonly alias: string;
  readonly path: string;
}
interface RouteImport extends Import {
  /** `{ routes as $orders }`. */
  readonly names: Expr;
}
interface VersionView {
  readonly name: string;
  readonly released: boolean;
  readonly deprecation: string | null;
  readonly sunset: string | null;
  readonly sunsetAt: number | null;
  /** The `Link` header of a deprecated version with a docs page (`<url>; rel="deprecation"`, ...), or null. */
  readonly link: Expr | null;
  /** `[{ start, end }]` in ms, or null without brownouts. */
  readonly brownouts: Expr | null;
  /** `new URL("../openapi/<version>.json", import.meta.url)`: the version's OpenAPI document (the OpenAPI emitter writes it). */
  readonly document: Expr;
}
/** The view of `server/routes.ts`. */
export interface RoutesView {
  readonly name: string;
  readonly specName: string;
  readonly collections: readonly RouteImport[];
  /** The literals of the spec's members. */
  readonly versioning: Expr;
  /** The API takes bearer tokens: the table carries the JWT verifier of `@restgen/runtime/jwt`. */
  readonly bearer: boolean;
  /** The runtime contract the table is written against. */
  readonly contract: number;
  readonly apiKeyHeader: Expr;
  readonly rateLimit: Expr;
  readonly versions: readonly VersionView[];
  /** Every collection's imported routes, in declaration order (`[$customers, $orders]`): each names its versions. */
  readonly collectionRoutes: Expr;
  /** The constant of `events.ts`, or null without events. */
  readonly webhooks: string | null;
}
interface CollectionRef extends Import {
  readonly key: string;
  /** `createMemoryCollection<$c.Resource, $c.Transitions?>($c.memory, seed.c, options)` (`Transitions` when the collection has a lifecycle). */
  readonly memory: Expr;
}
/** The view of `server/types.ts`. */
export interface TypesView {
  readonly name: string;
  readonly collections: readonly CollectionRef[];
  /** The union of the version names. */
  readonly versions: Type;
  /** The intersection of the `Migrations` types of the collections that have hooks. */
  readonly migrations: Type;
  /** `ServerOptions & XCredentials & { readonly migrations: XMigrations }` as the API needs. */
  readonly options: Type;
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
  /** The names `./types.js` exports that the index imports. */
  readonly typeImports: Expr;
  /** `mountApi(app, SPEC, handlers, options)`. */
  readonly mount: Expr;
  /** The parameters of `registerXApi` and of `createMemoryHandlers`. */
  readonly registerParams: Expr;
  readonly memoryParams: Expr;
  readonly versioning: string;
  /** The API declares events: `createWebhookDispatcher` is exported. */
  readonly hasEvents: boolean;
  /** `createWebhookDispatcherFor(SPEC, options)`. */
  readonly dispatch: Expr;
}

/** The views of the assembling modules (the per-collection views are built one by one, see `emit-server.ts`). */
export interface ServerViews {
  readonly routes: RoutesView;
  readonly types: TypesView;
  readonly index: IndexView;
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

/** The constant of the route table (`SHOP_API`). */
export const specNameOf = (api: ApiIR): string => `${api.name.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}_API`;

/**
 * The `Link` header a deprecated version with a docs page sends: `rel="deprecation"` (RFC 9745) and, with a
 * sunset, `rel="sunset"` (RFC 8594), both to the docs page.
 */
function linkOf(v: VersionIR): Expr | null {
  if (!v.docs || !v.deprecated) return null;
  return e.str([`<${v.docs}>; rel="deprecation"`, ...(v.sunset ? [`<${v.docs}>; rel="sunset"`] : [])].join(', '));
}

/** What every per-collection view needs of the API. */
export function buildServerContext(api: ApiIR): ServerContext {
  return {
    api,
    name: pascalCase(api.name),
    versions: api.versions.map((v) => v.name),
    projections: api.versions.map((v) => {
      const at = project(api, v.name);
      return { collections: at.collections, byKey: new Map(at.collections.map((c) => [c.key, c])) };
    }),
    hasAuth: takesCredentials(api.auth),
    alias: aliases(api),
  };
}

/**
 * `ServerOptions` without what the API cannot use (the runtime refuses both at startup too): `jwt` without
 * bearer tokens to verify, `pinnedVersion` with path versioning (the path names every request's version).
 */
function serverOptionsOf(api: ApiIR): Type {
  const omitted = [...(takesBearer(api.auth) ? [] : ['jwt']), ...(api.versioning.in === 'path' ? ['pinnedVersion'] : [])];
  return omitted.length === 0 ? t.ref('ServerOptions') : t.ref('Omit', [t.ref('ServerOptions'), t.union(omitted.map(t.str))]);
}

/**
 * Builds the views of the assembling modules from the context and every collection's summary (in the API's order):
 * of the collections, only the summaries are read.
 */
export function buildServerViews(api: ApiIR, ctx: ServerContext, collections: readonly CollectionSummary[]): ServerViews {
  const { name, versions } = ctx;
  const specName = specNameOf(api);
  // Collection names are identifiers without `$`: `$orders` collides with nothing.
  const refs: CollectionRef[] = collections.map((c) => ({
    key: c.key,
    alias: `$${c.key}`,
    path: `./collections/${c.key}.js`,
    memory: e.call(
      'createMemoryCollection',
      [e.path(`$${c.key}.memory`), e.path(`seed.${c.key}`), e.id('options')],
      [t.ref(`$${c.key}.Resource`), ...(c.hasTransitions ? [t.ref(`$${c.key}.Transitions`)] : [])],
    ),
  }));
  // The built-in collection's handlers come with the runtime: users neither write nor seed them.
  const userRefs = refs.filter((_, i) => collections[i]!.builtin === null);
  // The constant `events.ts` exports (see `events-view.ts`), when the API has events (and so webhook endpoints).
  const events = collections.some((c) => c.builtin === 'webhook-endpoints') ? { constName: eventsConstOf(specName) } : null;
  const needsCredentials = collections.some((c) => c.needsCredentials);
  const needsMigrations = collections.some((c) => c.hasMigrations);

  return {
    routes: {
      name,
      specName,
      collections: refs.map((r) => ({ ...r, names: e.specifiers([`routes as ${r.alias}`]) })),
      versioning: e.json(api.versioning),
      bearer: takesBearer(api.auth),
      contract: RUNTIME.contract,
      apiKeyHeader: e.json(api.auth.apiKey?.header ?? null),
      rateLimit: e.json(api.rateLimit ? { max: api.rateLimit.limit, windowMs: api.rateLimit.windowMs } : null),
      versions: api.versions.map((v) => ({
        name: v.name,
        released: v.released !== undefined,
        deprecation: v.deprecated ? `@${dayMs(v.deprecated) / 1000}` : null,
        sunset: v.sunset ? new Date(dayMs(v.sunset)).toUTCString() : null,
        sunsetAt: v.sunset ? dayMs(v.sunset) : null,
        link: linkOf(v),
        brownouts: v.brownouts ? e.json(v.brownouts.map((w) => ({ start: Date.parse(w.start), end: Date.parse(w.end) }))) : null,
        document: e.construct('URL', [e.str(`../openapi/${v.name}.json`), e.raw('import.meta.url')]),
      })),
      collectionRoutes: e.arr(collections.map((c) => e.id(`$${c.key}`))),
      webhooks: events?.constName ?? null,
    },
    types: {
      name,
      collections: userRefs,
      versions: t.union(versions.map(t.str)),
      migrations: t.inter(refs.filter((_, i) => collections[i]!.hasMigrations).map((r) => t.ref(`${r.alias}.Migrations`))),
      options: t.inter([
        serverOptionsOf(api),
        ...(needsCredentials ? [t.ref(`${name}Credentials`)] : []),
        ...(needsMigrations ? [t.lit([t.prop('migrations', t.ref(`${name}Migrations`), false, true)])] : []),
      ]),
      needsCredentials,
      needsMigrations,
      bearer: takesBearer(api.auth),
    },
    index: {
      name,
      specName,
      collections: userRefs,
      typeImports: e.specifiers([`${name}Handlers`, `${name}Options`, `${name}Seed`]),
      registerParams: e.params([
        'app: FastifyInstance',
        `handlers: ${name}Handlers`,
        `options: ${name}Options${!needsCredentials && !needsMigrations ? ' = {}' : ''}`,
      ]),
      mount: e.call('mountApi', ['app', specName, 'handlers', 'options'].map(e.id)),
      memoryParams: e.params([`seed: ${name}Seed = {}`, 'options: MemoryOptions = {}']),
      versioning: api.versioning.in === 'path' ? `under ${versions.map((v) => `/${v}`).join(', ')}` : `selected by the ${api.versioning.header} header`,
      hasEvents: events !== null,
      dispatch: e.call('createWebhookDispatcherFor', [e.id(specName), e.id('options')]),
    },
  };
}

declare module '../../templates/load-templates.ts' {
  /** The templates this module's views fill. */
  interface TemplateViews {
    'server/index': IndexView;
    'server/routes': RoutesView;
    'server/types': TypesView;
  }
}
