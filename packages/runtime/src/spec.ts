/**
 * The shape of the data a generated `routes.ts` holds: the API, its versions, and each collection's routes
 * with their schemas and migration plans. `mountApi` reads it.
 */
import type { z } from 'zod';
import type { CreateJwtVerifier } from './jwt-claims.js';
import type { OperationName } from './types.js';

/** A rate limit: `max` requests per `windowMs`. */
export interface LimitSpec {
  readonly max: number;
  readonly windowMs: number;
}
/** A conversion the version markers cannot express; `id` is `<version>.<collection>.<field>`. */
export interface HookSpec {
  readonly id: string;
  /** The functions the routes call: `up`/`down` (type change), `value` (removed), `whenMissing` (made optional). */
  readonly members: readonly string[];
  readonly why: string;
}
/** How a request of an older version becomes the newest shape (keys are that version's names); empty parts are left out. */
export interface UpPlan {
  readonly renames?: Readonly<Record<string, string>>;
  /** Fields that no longer exist: not stored. */
  readonly drop?: readonly string[];
  /** Type-change hooks to run, oldest first, by newest name. */
  readonly hooks?: Readonly<Record<string, readonly string[]>>;
  /** Defaults of fields the version lacks or leaves optional, by newest name (create and replace only). */
  readonly fill?: Readonly<Record<string, unknown>>;
  /** Plans of nested objects (or of each object of an array) whose fields changed, by newest name. */
  readonly nested?: Readonly<Record<string, UpPlan>>;
}
/** A response field of an older version that is not a copy of the same newest key: a newest key (converted), a fallback, or a hook. */
export type DownStep =
  | {
      readonly key: string;
      readonly hooks?: readonly string[];
      readonly whenMissing?: string;
      readonly nested?: NestedDown;
      /** Enum values the version lacks, each with the value it shows instead (applied to each item of an array). */
      readonly values?: Readonly<Record<string, string>>;
    }
  | { readonly fallback: unknown }
  | { readonly hook: string };
/** A nested object (or each object of an array) of an older version: its fields by that version's names, in order, and those that are not copies. */
export interface NestedDown {
  readonly fields: readonly string[];
  readonly down?: Readonly<Record<string, DownStep>>;
}
/** A transition of a lifecycle, the same in every version that offers it (newest state names). */
export interface TransitionSpec {
  readonly from: readonly string[];
  readonly to: string;
  /** The scopes it needs (the collection's write scopes when it declares none). */
  readonly scopes: readonly string[];
  /** Its own limit, counted besides the API's and the collection's. */
  readonly rateLimit: LimitSpec | null;
}
/** A collection's lifecycle: the state field (newest name), the state a new resource starts in, the transitions. */
export interface LifecycleSpec {
  readonly field: string;
  readonly initial: string;
  readonly transitions: Readonly<Record<string, TransitionSpec>>;
}
/** Settings of one collection shared by its versions, and the hooks its version changes need. */
export interface CollectionSpec {
  readonly key: string;
  readonly scopes: {
    readonly read: readonly string[];
    readonly write: readonly string[];
  };
  readonly rateLimit: LimitSpec | null;
  readonly hooks: readonly HookSpec[];
  readonly lifecycle: LifecycleSpec | null;
  /** Writes (replace, update, delete, transitions) without If-Match answer 428. */
  readonly requireIfMatch: boolean;
}
/** A transition as one version offers it: its input schema, and how its input moves up to the newest version (absent: nothing to move). */
export interface TransitionRouteSpec {
  readonly input: z.ZodType;
  readonly up?: UpPlan | null;
}
/**
 * One collection's routes in every version it exists in, as generated (`server/collections/<c>.ts`): what its
 * versions share written once (the newest version's), and per version what it has of its own.
 */
export interface CollectionRoutes<V extends string = string> {
  readonly collection: CollectionSpec;
  readonly path: string;
  readonly operations: readonly OperationName[];
  /** The operations that need no credential (every one when the API takes no credential). */
  readonly public: readonly OperationName[];
  /** The id field's name. */
  readonly id: string;
  /** The lifecycle state field's name (absent without a lifecycle). */
  readonly stateField?: string;
  /** Each version the collection exists in, oldest first. */
  readonly versions: { readonly [K in V]: VersionRoute };
}
/** What one version of a collection has of its own; a member absent here is the collection's. */
export interface VersionRoute {
  /** `response` is the resource as this version answers it: its keys are the fields of a response, in order. */
  readonly schemas: RouteSpec['schemas'];
  /** How a request moves up to the newest version (absent: this is the newest, nothing to migrate). */
  readonly up?: UpPlan;
  /** The response fields that are not plain copies of the same newest key, by this version's name (absent: none). */
  readonly down?: Readonly<Record<string, DownStep>>;
  /** The transitions this version offers, by name (absent: none). */
  readonly transitions?: Readonly<Record<string, TransitionRouteSpec>>;
  readonly path?: string;
  readonly operations?: readonly OperationName[];
  readonly public?: readonly OperationName[];
  readonly id?: string;
  readonly stateField?: string;
}
/** One collection in one version, as the runtime serves it (built from {@link CollectionRoutes} at mount). */
export interface RouteSpec {
  readonly collection: CollectionSpec;
  readonly path: string;
  readonly operations: readonly OperationName[];
  /** The operations that need no credential in this version (every one when the API takes no credential). */
  readonly public: readonly OperationName[];
  /** The id field's name in this version. */
  readonly id: string;
  /** `response` is the resource as this version answers it: its keys are the fields of a response, in order. */
  readonly schemas: {
    readonly response: z.ZodObject;
    readonly create?: z.ZodType;
    readonly replace?: z.ZodType;
    readonly patch?: z.ZodType;
    readonly query?: z.ZodType;
  };
  /** null: the version is the newest for this collection, nothing to migrate up. */
  readonly up: UpPlan | null;
  /** The response fields that are not plain copies of the same newest key, by this version's name. */
  readonly down: Readonly<Record<string, DownStep>>;
  /** The lifecycle state field's name in this version (null without a lifecycle). */
  readonly stateField: string | null;
  /** The transitions this version offers, by name. */
  readonly transitions: Readonly<Record<string, TransitionRouteSpec>>;
}
/** A window `[start, end)` (ms since the epoch) in which a version answers 410 `version_brownout`. */
export interface BrownoutSpec {
  readonly start: number;
  readonly end: number;
}
/** One version: lifecycle headers and its document (its routes are the collections' `versions` entries). */
export interface VersionSpec {
  readonly name: string;
  /** Whether the version is released (a 410 after a sunset recommends the newest released version). */
  readonly released: boolean;
  /** `Deprecation` header value (`@<unix seconds>`). */
  readonly deprecation: string | null;
  /** `Sunset` header value (HTTP-date) and the same instant in ms. */
  readonly sunset: string | null;
  readonly sunsetAt: number | null;
  /**
   * The `Link` header of a deprecated version with a `docs` page: `<url>; rel="deprecation"` (RFC 9745), and
   * `<url>; rel="sunset"` (RFC 8594) when it has a sunset. Absent in tables generated before it existed.
   */
  readonly link?: string | null;
  /** Brownout windows in time order, none overlapping (absent: none). */
  readonly brownouts?: readonly BrownoutSpec[];
  /** The generated OpenAPI document of the version (`openapi/<version>.json`), served unless turned off. */
  readonly document: URL;
}
/** A derived event: the collection it is about and what happened (`transition`: into `state`). */
export interface ResourceEventSpec {
  readonly collection: string;
  readonly action: 'created' | 'updated' | 'deleted' | 'transition';
  readonly state: string | null;
}
/** A custom event's payload in one version: its schema, and the fields that are not copies of the newest key. */
export interface PayloadSpec {
  readonly schema: z.ZodObject;
  readonly down: Readonly<Record<string, DownStep>>;
}
/** The events of an API and the collection of webhook endpoints. */
export interface WebhooksSpec {
  /** The key of the webhook endpoints collection. */
  readonly collection: string;
  /** The event types each version delivers. */
  readonly versions: Readonly<Record<string, readonly string[]>>;
  /** Derived events by type. */
  readonly resources: Readonly<Record<string, ResourceEventSpec>>;
  /** Custom events by type: the payload per version it exists in. */
  readonly custom: Readonly<Record<string, Readonly<Record<string, PayloadSpec>>>>;
}
/** The whole API as generated (`server/routes.ts`): its versions, and its collections' routes in every version. */
export interface ApiSpec {
  /** The runtime contract the generated code was written against (must equal `RUNTIME_CONTRACT`, `contract.ts`). */
  readonly contract: number;
  readonly name: string;
  readonly versioning:
    | { readonly in: 'path' }
    | {
        readonly in: 'header';
        readonly header: string;
        /** The version of a request without the header (after `pinnedVersion`); absent: such a request is 400. */
        readonly default?: string;
      };
  readonly bearer: boolean;
  /** Verifies JWT access tokens (`createJwtVerifier` of `@restgen/runtime/jwt`); given when the API takes bearer tokens. */
  readonly jwt?: CreateJwtVerifier;
  readonly apiKeyHeader: string | null;
  readonly rateLimit: LimitSpec | null;
  readonly versions: readonly VersionSpec[];
  /** Every collection's routes, in the API's order; each version serves those whose `versions` name it. */
  readonly collections: readonly CollectionRoutes[];
  /** Events and webhook endpoints; absent when the API declares no event. */
  readonly webhooks?: WebhooksSpec | null;
}

/** A version as the runtime serves it: its routes, one per collection it has, in the API's order. */
export interface MountedVersion extends VersionSpec {
  readonly routes: readonly RouteSpec[];
}

/** The API as the runtime serves it: the generated {@link ApiSpec} with every version's routes laid out. */
export interface MountedSpec extends Omit<ApiSpec, 'versions' | 'collections'> {
  readonly versions: readonly MountedVersion[];
}
