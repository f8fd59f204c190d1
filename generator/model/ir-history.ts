/**
 * @module The IR of an API with its whole history: fields, collections, events and versions, each with the
 * markers that say when it changed. Built once from the DSL; `project()` turns it into the views of
 * `ir-at.ts`. Re-exported by `ir.ts`.
 */
import type { OperationName } from '../dsl/defs.ts';
import type { AuthIR } from './ir-auth.ts';
import type { FilterOpIR, LifespanIR, SortKeyIR } from './ir-query.ts';

/** The six operations, in the order they are always emitted, and the facts of each (method, path, body, status). */
export { OPERATIONS, OPERATION_FACTS } from '@restgen/runtime/contract';

/** Where something was written: file, line, the builder member called, and an optional property path into it. */
export interface SourceRef {
  readonly file: string;
  readonly line: number;
  readonly member: string;
  /** Property names from the call's first argument down to the offending property, e.g. `['versions', 'v1']`. */
  readonly path?: readonly string[];
}

/** A value type. `F` is the field type of nested objects: {@link FieldIR} in the IR, {@link FieldAt} after projection. */
export type TypeIR<F = FieldIR> =
  | { readonly kind: 'string'; readonly min?: number; readonly max?: number; readonly pattern?: string }
  | { readonly kind: 'int'; readonly min?: number; readonly max?: number }
  | { readonly kind: 'number'; readonly min?: number; readonly max?: number }
  | { readonly kind: 'boolean' }
  | {
      readonly kind: 'enum';
      readonly values: readonly string[];
      /** Values that exist only from a later version on (`valueAddedIn`); never set after projection. */
      readonly added?: readonly EnumValueAdded[];
    }
  | { readonly kind: 'datetime' }
  | { readonly kind: 'date' }
  | { readonly kind: 'uuid' }
  | { readonly kind: 'email' }
  | { readonly kind: 'url' }
  | { readonly kind: 'id' }
  | { readonly kind: 'ref'; readonly collection: string }
  | {
      readonly kind: 'array';
      readonly of: TypeIR<F>;
      readonly min?: number;
      readonly max?: number;
      /** The items may be `null` (`f.array(f.string().nullable())`). */
      readonly itemsNullable?: boolean;
    }
  | { readonly kind: 'object'; readonly fields: readonly F[] }
  | {
      readonly kind: 'file';
      /** The largest upload accepted, in bytes. */
      readonly maxBytes: number;
      /** The media types an upload may have, as written. */
      readonly types: readonly string[];
    };

/** An enum value that exists from `version` on; older versions answer `fallback` (a value they know) instead. */
export interface EnumValueAdded {
  readonly value: string;
  readonly version: string;
  readonly fallback: string;
  readonly loc: SourceRef;
}

/** The kinds of {@link TypeIR}; tables keyed by it make a missing kind a compile error. */
export type TypeKind = TypeIR['kind'];

/** What a field is at one point in time: type, constraints and modifiers. */
export interface FieldShape<F = FieldIR> {
  readonly type: TypeIR<F>;
  readonly optional: boolean;
  readonly nullable: boolean;
  readonly default?: { readonly value: unknown };
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
  readonly unique: boolean;
  /** Whether the list filters on the field: `filterable()` was called (IR); some operator holds (projection). */
  readonly filterable: boolean;
  /** The filter's operators: as written, each with its versions (IR); those of the version (projection). */
  readonly ops: readonly FilterOpIR[];
  /** A sort key of the list (`sortable()`), in the versions it holds in (a projection's: `{}` when it holds there). */
  readonly sortable: LifespanIR | false;
  /** `?expand=` may replace the ref with the resource (`expandable()`), in the versions it holds in. */
  readonly expandable: LifespanIR | false;
  readonly deprecated: boolean;
  readonly description?: string;
  readonly example?: { readonly value: unknown };
}

/** A field with its history. `name` is its newest name (the key the user wrote). */
export interface FieldIR extends FieldShape {
  readonly kind: 'field';
  readonly name: string;
  readonly addedIn?: string;
  readonly removedIn?: { readonly version: string; readonly fallback?: { readonly value: unknown } };
  /** Older names, each valid before `version`; sorted by version, oldest first. */
  readonly renames: readonly Rename[];
  /** Complete older shapes, each valid before `version`; sorted by version, oldest first. */
  readonly typeChanges: readonly { readonly version: string; readonly before: FieldShape; readonly loc: SourceRef }[];
  /**
   * Optionality changes: before `version` the field was the opposite of `to`. Sorted, oldest first. A field
   * made required may carry a `fallback`: what a create sent to an older version (where it was optional) gets.
   */
  readonly optionality: readonly {
    readonly version: string;
    readonly to: 'optional' | 'required';
    readonly loc: SourceRef;
    readonly fallback?: { readonly value: unknown };
  }[];
  readonly loc: SourceRef;
  /** Where each modifier or marker was last called, by member name (for diagnostics). */
  readonly calls: Readonly<Record<string, SourceRef>>;
}

/** An older name, valid before `version`. */
export interface Rename {
  readonly from: string;
  readonly version: string;
  readonly loc: SourceRef;
}

/** An operation of a collection and the versions it exists in. */
export interface OperationIR {
  readonly kind: 'operation';
  readonly name: OperationName;
  readonly addedIn?: string;
  readonly removedIn?: string;
}

/** A rate limit: `limit` requests per `windowMs`. `window` is the text the user wrote. */
export interface RateLimitIR {
  readonly limit: number;
  readonly window: string;
  readonly windowMs: number;
}

/**
 * One move of a lifecycle: a resource in one of the `from` states goes to `to`. Served as the custom method
 * `POST /vN/<collection>/{id}:<name>`; `input` is its request body.
 */
export interface TransitionIR {
  readonly kind: 'transition';
  readonly name: string;
  /** Newest state names, in the order written. */
  readonly from: readonly string[];
  readonly to: string;
  /** The body's fields, with their history (markers). */
  readonly input: readonly FieldIR[];
  /** The scopes it needs, as written; undefined: the collection's write scopes. */
  readonly scopes?: readonly string[];
  readonly rateLimit?: RateLimitIR;
  readonly addedIn?: string;
  readonly removedIn?: string;
  readonly description?: string;
  /** The transition's entry in `collection({ lifecycle: { transitions: {...} } })`. */
  readonly loc: SourceRef;
}

/** A collection's lifecycle: the field holding the state (newest name), the state a new resource starts in, and the moves. */
export interface LifecycleIR {
  readonly kind: 'lifecycle';
  readonly field: string;
  readonly initial: string;
  readonly transitions: readonly TransitionIR[];
  readonly loc: SourceRef;
}

/** A collection with its history. `name` is its newest name. */
export interface CollectionIR {
  readonly kind: 'collection';
  readonly name: string;
  /** Path segment in the newest version. */
  readonly path: string;
  /** Whether `path` was set explicitly (then renames do not change it). */
  readonly explicitPath: boolean;
  readonly singular?: string;
  readonly description?: string;
  readonly fields: readonly FieldIR[];
  readonly operations: readonly OperationIR[];
  readonly scopes: { readonly read: readonly string[]; readonly write: readonly string[] };
  readonly rateLimit?: RateLimitIR;
  /** The operations that need no credential, each in the versions it names (all by default). */
  readonly public: readonly OperationIR[];
  readonly pagination: { readonly defaultLimit: number; readonly maxLimit: number };
  /** The order of a list without `?sort=` (newest names); empty: the handlers' own (creation order in memory). */
  readonly defaultSort: readonly SortKeyIR[];
  readonly lifecycle?: LifecycleIR;
  /** Writes without `If-Match` answer 428. */
  readonly requireIfMatch: boolean;
  /** Derived events (`created`, `updated`, `deleted`, lifecycle states), in the order written. */
  readonly events?: readonly CollectionEventIR[];
  /** Set on the collection restgen adds itself (the webhook endpoints): its handlers are built in. */
  readonly builtin?: 'webhook-endpoints';
  readonly addedIn?: string;
  readonly removedIn?: string;
  readonly renames: readonly Rename[];
  readonly loc: SourceRef;
  /** Where each marker was last called, by member name. */
  readonly calls: Readonly<Record<string, SourceRef>>;
}

/** What happened to a resource for a derived event to be sent. */
export type ResourceAction = 'created' | 'updated' | 'deleted' | 'transition';

/**
 * A derived event of a collection: `created`, `updated`, `deleted`, or the name of a lifecycle state (a
 * transition into that state happened). Its type is `<singular>.<name>` (`order.cancelled`).
 */
export interface CollectionEventIR {
  readonly kind: 'collection-event';
  readonly name: string;
  readonly action: ResourceAction;
  /** The event type, `order.created`. */
  readonly type: string;
  readonly addedIn?: string;
  readonly removedIn?: string;
  readonly loc: SourceRef;
}

/** An API-level event with its own payload, sent by handlers with `ctx.emit(type, data)`. */
export interface CustomEventIR {
  readonly kind: 'custom-event';
  /** The event type as written, `invoice.overdue`. */
  readonly type: string;
  readonly payload: readonly FieldIR[];
  readonly description?: string;
  readonly addedIn?: string;
  readonly removedIn?: string;
  readonly loc: SourceRef;
}

/** A version and its lifecycle dates (`YYYY-MM-DD`). */
export interface VersionIR {
  readonly kind: 'version';
  readonly name: string;
  /** Position, oldest first. */
  readonly index: number;
  readonly released?: string;
  readonly deprecated?: string;
  readonly sunset?: string;
  /** Windows in which the version answers 410 (`version_brownout`), as written (ISO 8601 instants), in time order. */
  readonly brownouts?: readonly BrownoutIR[];
  /** Where clients read how to move off the version (an absolute https URL, normalized). */
  readonly docs?: string;
}

/** A brownout window `[start, end)`, ISO 8601 instants as written. */
export interface BrownoutIR {
  readonly start: string;
  readonly end: string;
}

/**
 * How clients select a version. With a header, `default` is the version a request without it gets (the
 * version `'latest'` named when the API was generated: the newest released one); absent, such a request is 400.
 */
export type VersioningIR = { readonly in: 'path' } | { readonly in: 'header'; readonly header: string; readonly default?: string };

/** A format requests and answers may have besides JSON: `xml` (the API's `formats` option). */
export type WireFormat = 'json' | 'xml';

/** The whole API. */
export interface ApiIR {
  readonly kind: 'api';
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  readonly versions: readonly VersionIR[];
  readonly versioning: VersioningIR;
  readonly auth: AuthIR;
  readonly rateLimit?: RateLimitIR;
  /** The formats of bodies and answers, `['json', 'xml']`; absent: JSON only. */
  readonly formats?: readonly WireFormat[];
  readonly collections: readonly CollectionIR[];
  /** Events with their own payload, in the order written. */
  readonly events?: readonly CustomEventIR[];
  /** Set when `defineApi({ mcp: false })` asks for no MCP server. */
  readonly mcp?: false;
  /** Where the API is served, the default first; empty: not declared (the documents name `/`). */
  readonly servers: readonly ServerIR[];
  /** How the OpenAPI documents are written. */
  readonly openapi: OpenApiIR;
  /** The API module's path. */
  readonly source: string;
  /** Where `defineApi` was called (findings about versions, auth and rate limits point into it). */
  readonly loc?: SourceRef;
}

/** A place the API is served (`defineApi({ servers })`): an absolute http(s) URL without a trailing slash. */
export interface ServerIR {
  readonly url: string;
  readonly description?: string;
}

/** How the OpenAPI documents are written (`defineApi({ openapi })`). */
export interface OpenApiIR {
  /** Declare `head` beside every `get` and `options` on every path. */
  readonly implicitMethods: boolean;
}
