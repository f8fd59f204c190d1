/**
 * @module `defineApi({...})`: the one export of a user's API module.
 */
import { captureCallSite } from './call-site.ts';
import type { CollectionBuilder } from './collection.ts';
import type { ApiDef, AuthDef, RateLimitDef, VersionDef, VersioningDef } from './defs.ts';

/** The options of {@link defineApi}. */
export interface ApiOptions<V extends string> {
  /** Names generated symbols: `shop` gives `registerShopApi`, `createShopClient`. */
  readonly name: string;
  /** Human title for documentation; defaults to the name. */
  readonly title?: string;
  readonly description?: string;
  /** Every version, oldest first, with its lifecycle dates (`YYYY-MM-DD`). A version without `released` may still change. */
  readonly versions: Readonly<Record<V, VersionDef>>;
  /** `{ in: 'path' }` (default: `/v1/...`) or `{ in: 'header', header: 'Api-Version' }`. */
  readonly versioning?: VersioningDef;
  /** Credentials the API accepts; without `auth` every operation is public. */
  readonly auth?: AuthDef;
  /** Requests per window per credential (per client IP when anonymous), for every collection. */
  readonly rateLimit?: RateLimitDef;
  readonly collections: Readonly<Record<string, CollectionBuilder>>;
}

/**
 * Defines an API. Export the result as the module's default export.
 * @example
 * export default defineApi({
 *   name: 'shop',
 *   versions: { v1: { released: '2026-01-15' }, v2: {} },
 *   auth: { bearer: {} },
 *   collections: { customers: collection({ fields: { id: f.id(), name: f.string().min(1) } }) },
 * });
 */
export function defineApi<V extends string>(options: ApiOptions<V>): ApiDef {
  return {
    kind: 'api-definition',
    name: options.name,
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(options.description !== undefined ? { description: options.description } : {}),
    versions: options.versions,
    ...(options.versioning ? { versioning: options.versioning } : {}),
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    collections: Object.fromEntries(Object.entries(options.collections).map(([k, c]) => [k, c.def])),
    site: captureCallSite('defineApi'),
  };
}
