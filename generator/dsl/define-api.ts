/**
 * @module `defineApi({...})`: the one export of a user's API module.
 */
import { captureCallSite } from './call-site.ts';
import type { CollectionBuilder } from './collection.ts';
import type { ApiDef, AuthDef, CustomEventDef, OpenApiDef, RateLimitDef, ServerDef, VersionDef, VersioningDef, WebhooksDef } from './defs.ts';

/** The options of {@link defineApi}. */
export interface ApiOptions<V extends string> {
  /** Names generated symbols: `shop` gives `registerShopApi`, `createShopClient`. */
  readonly name: string;
  /** Human title for documentation; defaults to the name. */
  readonly title?: string;
  readonly description?: string;
  /** Every version, oldest first, with its lifecycle dates (`YYYY-MM-DD`). A version without `released` may still change. */
  readonly versions: Readonly<Record<V, VersionDef>>;
  /**
   * `{ in: 'path' }` (default: `/v1/...`) or `{ in: 'header', header: 'Api-Version', default: 'latest' }`
   * (`default`: the version of a request without the header; without it such a request is 400).
   */
  readonly versioning?: VersioningDef<V>;
  /** Credentials the API accepts; without `auth` every operation is public. */
  readonly auth?: AuthDef;
  /** Requests per window per credential (per client IP when anonymous), for every collection. */
  readonly rateLimit?: RateLimitDef;
  readonly collections: Readonly<Record<string, CollectionBuilder>>;
  /** Events with their own payload, by type (`'invoice.overdue'`); handlers send them with `ctx.emit`. */
  readonly events?: Readonly<Record<string, CustomEventDef>>;
  /** Who may manage webhook endpoints (they exist when the API declares any event). */
  readonly webhooks?: WebhooksDef;
  /**
   * Where the API is served, first the one clients use by default: `[{ url: 'https://api.example.com', description:
   * 'Production' }]`. The OpenAPI documents list them (without it: `/`, the host serving the document), and the
   * generated client's `baseUrl` defaults to the first. The same for every version.
   */
  readonly servers?: readonly ServerDef[];
  /** How the OpenAPI documents are written: `{ implicitMethods: true }` also declares HEAD and OPTIONS. */
  readonly openapi?: OpenApiDef;
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
  const site = captureCallSite('defineApi');
  // Kept as written for the model to check; only collection builders are reduced to their plain data.
  const raw: unknown = options;
  const collections: unknown = isRecord(raw) ? raw['collections'] : undefined;
  const plain =
    isRecord(raw) && isRecord(collections)
      ? { ...raw, collections: Object.fromEntries(Object.entries(collections).map(([k, c]) => [k, isCollectionBuilder(c) ? c.def : c])) }
      : raw;
  return { kind: 'api-definition', options: plain, ...(site ? { site } : {}) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCollectionBuilder(value: unknown): value is CollectionBuilder {
  if (typeof value !== 'object' || value === null || !('def' in value)) return false;
  const def: unknown = value.def;
  return typeof def === 'object' && def !== null && 'kind' in def && def.kind === 'collection';
}
