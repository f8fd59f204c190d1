/**
 * @module The plain data that DSL builders produce. The model reads only this; it never calls a builder.
 * Every def records where the user wrote it (`site`, and `calls` per modifier) so that diagnostics can
 * point at the exact builder call.
 */
import type { FilterOp, OperationName } from '@restgen/runtime/contract';

/** Where a builder call was written: file, 1-based line, and the called member (for finding the column). */
export interface CallSite {
  readonly file: string;
  readonly line: number;
  readonly column?: number;
  /** The name of the builder or modifier called, e.g. `renamedFrom`. */
  readonly member: string;
}

/**
 * A builder called with something its TypeScript signature rejects. Builders never throw (an API module
 * may be plain JavaScript, or its author may not run `tsc` on it): they record the slip, carry on with a
 * neutral stand-in, and the model reports it as a diagnostic at the call.
 */
export interface ArgumentSlip {
  /** The builder or modifier that was called, e.g. `array` or `min`. */
  readonly member: string;
  /**
   * `not-called`: a builder function itself where its result belongs (`f.string` instead of `f.string()`);
   * `not-a-field`: some other value where a field builder belongs; `wrong-kind`: an argument of the wrong
   * type; `extra-arguments`: arguments the member does not take.
   */
  readonly problem: 'not-called' | 'not-a-field' | 'wrong-kind' | 'extra-arguments';
  /** What the member takes, e.g. `a number`. */
  readonly expected: string;
  /** What was passed, e.g. `the string '5'` or `the function string`. */
  readonly got: string;
  /** Property names inside the call's first argument that lead to the offending value, e.g. `['zip']`. */
  readonly path?: readonly string[];
  readonly site?: CallSite;
}

/**
 * The kinds of field the DSL knows, one per builder of `f`. The model's kinds table (`model/kinds.ts`) holds
 * what each one means, and is checked against this list by the compiler.
 */
export const FIELD_KINDS = [
  'string',
  'int',
  'number',
  'boolean',
  'enum',
  'datetime',
  'date',
  'uuid',
  'email',
  'url',
  'id',
  'ref',
  'array',
  'object',
  'file',
] as const;

/** A kind of field (see {@link FIELD_KINDS}). */
export type FieldKind = (typeof FIELD_KINDS)[number];

/** A version marker on a field or a collection, as written. */
export type MarkerDef =
  | { readonly kind: 'addedIn'; readonly version: string; readonly site?: CallSite }
  | {
      readonly kind: 'removedIn';
      readonly version: string;
      readonly fallback?: { readonly value: unknown };
      readonly site?: CallSite;
    }
  | { readonly kind: 'renamedFrom'; readonly from: string; readonly version: string; readonly site?: CallSite }
  | { readonly kind: 'typeChangedFrom'; readonly version: string; readonly old: FieldDef; readonly site?: CallSite }
  | { readonly kind: 'madeOptionalIn'; readonly version: string; readonly site?: CallSite }
  | {
      readonly kind: 'madeRequiredIn';
      readonly version: string;
      /** What a create sent to an older version (where the field was optional) gets when it leaves the field out. */
      readonly fallback?: { readonly value: unknown };
      readonly site?: CallSite;
    };

/** One field as the builder chain describes it (its newest shape plus markers for the past). */
export interface FieldDef {
  readonly kind: FieldKind;
  readonly min?: number;
  readonly max?: number;
  readonly pattern?: string;
  /** Flags of a RegExp pattern; JSON Schema has none, so any flag is a diagnostic. */
  readonly patternFlags?: string;
  readonly values?: readonly string[];
  readonly of?: FieldDef;
  readonly fields?: Readonly<Record<string, FieldDef>>;
  readonly ref?: string;
  /** `f.file({ maxBytes })`: the largest upload accepted, in bytes. */
  readonly maxBytes?: number;
  /** `f.file({ types })`: the media types an upload may have. */
  readonly types?: readonly string[];
  readonly optional?: boolean;
  readonly nullable?: boolean;
  readonly default?: { readonly value: unknown };
  readonly readOnly?: boolean;
  readonly writeOnly?: boolean;
  readonly unique?: boolean;
  readonly description?: string;
  readonly example?: { readonly value: unknown };
  readonly deprecated?: boolean;
  readonly filterable?: boolean;
  /** The operators `filterable({ ops })` was given, as written (checked by the model). */
  readonly ops?: readonly unknown[];
  /** `sortable()`, with the versions it holds in when given (checked by the model). */
  readonly sortable?: QueryFlagDef;
  /** `expandable()`, with the versions it holds in when given (checked by the model). */
  readonly expandable?: QueryFlagDef;
  readonly markers: readonly MarkerDef[];
  /** Where the field builder (`f.string()`) was called. */
  readonly site?: CallSite;
  /** Where each modifier was last called, by modifier name. */
  readonly calls: Readonly<Record<string, CallSite>>;
  /** Arguments the builder's types reject, in call order. */
  readonly slips?: readonly ArgumentSlip[];
  /** Enum values that exist only from a later version on (`valueAddedIn`), in call order. */
  readonly valuesAdded?: readonly EnumValueAddedDef[];
}

/** The versions a list-query capability holds in (all, without either). */
export interface Lifespan {
  readonly addedIn?: string;
  readonly removedIn?: string;
}

/** A filter operator that holds only in some versions: `{ op: 'gte', addedIn: 'v2' }`. */
export interface VersionedOp<O extends FilterOp = FilterOp> extends Lifespan {
  readonly op: O;
}

/** An entry of `filterable({ ops })`: an operator, or one that holds only in some versions. */
export type OpEntry<O extends FilterOp = FilterOp> = O | VersionedOp<O>;

/** `sortable(...)` or `expandable(...)` as called: the options given (unchecked), `{}` without. */
export interface QueryFlagDef {
  readonly options: unknown;
}

export type { FilterOp } from '@restgen/runtime/contract';

/** `f.enum([...]).valueAddedIn(version, value, { fallback })`: `value` exists from `version` on; older versions answer `fallback`. */
export interface EnumValueAddedDef {
  readonly version: string;
  readonly value: string;
  readonly fallback?: string;
  readonly site?: CallSite;
}

/** One move of a lifecycle, as written: from one of `from` to `to`, served as `POST /vN/<collection>/{id}:<name>`. */
export interface TransitionDef<S extends string = string> {
  /** The states the resource must be in. */
  readonly from: readonly [S, ...S[]];
  /** The state the resource is in afterwards. */
  readonly to: S;
  /** The request body's fields (none: the body may be empty or `{}`). */
  readonly input?: Readonly<Record<string, { readonly def: FieldDef }>>;
  /** Scopes a principal needs (default: the collection's write scopes). */
  readonly scopes?: string | readonly string[];
  /** A rate limit of this transition, on top of the API's and the collection's. */
  readonly rateLimit?: RateLimitDef;
  readonly addedIn?: string;
  readonly removedIn?: string;
  readonly description?: string;
}

/** A collection's lifecycle: the read-only enum field that holds the state, the state of a new resource, and the moves. */
export interface LifecycleDef<K extends string = string, S extends string = string> {
  readonly field: K;
  readonly initial: S;
  readonly transitions: Readonly<Record<string, TransitionDef<S>>>;
}

/** The six operations a collection can offer (their facts: the operations table of the runtime). */
export type { OperationName } from '@restgen/runtime/contract';

/** An operation entry that holds only in some versions (in `operations`: offered; in `public`: public). */
export interface VersionedOperation {
  readonly name: OperationName;
  readonly addedIn?: string;
  readonly removedIn?: string;
}

/** Rate limit: `limit` requests per `window` (`'1s'`, `'1m'`, `'15m'`, `'1h'`, `'1d'`). */
export interface RateLimitDef {
  readonly limit: number;
  readonly window: `${number}${'ms' | 's' | 'm' | 'h' | 'd'}`;
}

/** Scopes a principal needs, per kind of access. */
export interface ScopesDef {
  readonly read?: string | readonly string[];
  readonly write?: string | readonly string[];
}

/** List limits of a collection. */
export interface PaginationDef {
  readonly defaultLimit?: number;
  readonly maxLimit?: number;
}

/** The fields of a collection as written: field builders by name. */
export type FieldsDef = Readonly<Record<string, { readonly def: FieldDef }>>;

/** The options of `collection({...})`. `L` is what `lifecycle` accepts (typed from the fields by `collection`). */
export interface CollectionOptions<F extends FieldsDef = FieldsDef, L = LifecycleDef> {
  readonly fields: F;
  /** Path segment; the collection's key by default. */
  readonly path?: string;
  /** Singular name for generated types (`orders` gives `Order` without it). */
  readonly singular?: string;
  readonly description?: string;
  /** Operations offered; all six by default. */
  readonly operations?: readonly (OperationName | VersionedOperation)[];
  readonly scopes?: ScopesDef;
  readonly rateLimit?: RateLimitDef;
  /**
   * Operations that need no credential. `{ name, addedIn, removedIn }` makes one public in some versions only:
   * `{ name: 'list', removedIn: 'v3' }` needs a credential from v3 on (a breaking change a new version may make).
   */
  readonly public?: readonly (OperationName | VersionedOperation)[];
  readonly pagination?: PaginationDef;
  /**
   * The order of a list without `?sort=`: comma-separated sortable fields (newest names), `-` for descending,
   * ties broken by the id (`'-createdAt'`). Default: the order the handlers give (the memory store's is the
   * order of creation).
   */
  readonly defaultSort?: string;
  /** States and transitions: each transition is a custom method `POST /vN/<collection>/{id}:<transition>`. */
  readonly lifecycle?: L;
  /** Writes (replace, update, delete, transitions) without `If-Match` answer 428 Precondition Required. */
  readonly requireIfMatch?: boolean;
  /**
   * Events delivered to webhook endpoints, typed `<singular>.<name>` (`order.created`): `created`,
   * `updated`, `deleted`, or a lifecycle state that a transition leads to (`cancelled`: a transition
   * into `cancelled` happened). The payload is the resource as the subscriber's version shows it.
   */
  readonly events?: readonly (string | VersionedEvent)[];
}

/** A derived event that exists only in some versions. */
export interface VersionedEvent {
  readonly name: string;
  readonly addedIn?: string;
  readonly removedIn?: string;
}

/** An API-level event with its own payload, sent from handlers with `ctx.emit(type, data)`. */
export interface CustomEventDef {
  /** The fields of the event's `data` (the same builders and version markers as a collection's fields). */
  readonly payload: FieldsDef;
  readonly description?: string;
  readonly addedIn?: string;
  readonly removedIn?: string;
}

/** A place the API is served, as the OpenAPI documents list it and the generated client defaults to it. */
export interface ServerDef {
  /** An absolute `http://` or `https://` URL, version paths appended (`https://api.example.com`). */
  readonly url: string;
  /** What it is (`Production`, `Sandbox`). */
  readonly description?: string;
}

/** How the OpenAPI documents are written. */
export interface OpenApiDef {
  /**
   * Also declare the methods the server answers on every path without an operation declaring them: `head` beside
   * every `get` and `options` on every path (default false: the server answers them either way).
   */
  readonly implicitMethods?: boolean;
}

/** Who may manage webhook endpoints (`/vN/webhook_endpoints`). */
export interface WebhooksDef {
  /** Default with auth: `{ read: 'webhooks:read', write: 'webhooks:write' }`. */
  readonly scopes?: ScopesDef;
}

/** A collection as written. */
export interface CollectionDef {
  readonly kind: 'collection';
  /** The options exactly as written; the model checks them against {@link CollectionOptions}. */
  readonly options: CollectionOptions;
  readonly markers: readonly MarkerDef[];
  readonly site?: CallSite;
  readonly calls: Readonly<Record<string, CallSite>>;
  /** Arguments the builder's types reject, in call order. */
  readonly slips?: readonly ArgumentSlip[];
}

/**
 * A brownout: a window in which a deprecated version answers 410 (`version_brownout`, with `Retry-After`)
 * so that clients still calling it notice before its sunset. Instants in ISO 8601 with an offset
 * (`2026-06-01T10:00:00Z`); the window is `[start, end)` and must lie within `[deprecated, sunset)`.
 */
export interface BrownoutDef {
  readonly start: string;
  readonly end: string;
}

/** A version's lifecycle dates (`YYYY-MM-DD`), brownout windows and the page that tells clients how to move off it. */
export interface VersionDef {
  readonly released?: string;
  readonly deprecated?: string;
  readonly sunset?: string;
  /** Windows in which the (deprecated) version answers 410 before its sunset. */
  readonly brownouts?: readonly BrownoutDef[];
  /** An absolute https URL: sent as `Link: <docs>; rel="deprecation"` (and `rel="sunset"`) while deprecated. */
  readonly docs?: string;
}

/** `V`, without letting TypeScript infer `V` from where it is used (a version name must be one of `versions`). */
type Declared<V extends string> = [V][V extends unknown ? 0 : never];

/**
 * How clients select a version: by path (`/v1/...`), or by a request header. With a header, `default` is the
 * version a request without it gets (after `pinnedVersion` of the server options had its say): `'latest'`,
 * the newest released version, or a version's name. Without `default`, a request without the header is 400.
 */
export type VersioningDef<V extends string = string> =
  | { readonly in: 'path' }
  | { readonly in: 'header'; readonly header?: string; readonly default?: 'latest' | Declared<V> };

/** The authorization code flow: the user signs in at `authorizationUrl`; the code is exchanged at `tokenUrl`. */
export interface AuthorizationCodeFlowDef {
  readonly authorizationUrl: string;
  readonly tokenUrl: string;
  readonly refreshUrl?: string;
}
/** The client credentials flow: a service exchanges its own id and secret for a token at `tokenUrl`. */
export interface ClientCredentialsFlowDef {
  readonly tokenUrl: string;
  readonly refreshUrl?: string;
}
/** The implicit flow (deprecated by OAuth 2.1, still describable): the token comes back from `authorizationUrl`. */
export interface ImplicitFlowDef {
  readonly authorizationUrl: string;
  readonly refreshUrl?: string;
}
/** The resource owner password flow (discouraged, still describable): a username and password are exchanged at `tokenUrl`. */
export interface PasswordFlowDef {
  readonly tokenUrl: string;
  readonly refreshUrl?: string;
}

/**
 * OAuth 2.0: where access tokens come from (the flows of the identity provider, each URL absolute https,
 * http only on localhost) and every scope an operation may need, with what it grants. Access tokens travel
 * as `Authorization: Bearer <token>`, so `oauth2` takes the place of `bearer`.
 * @example
 * oauth2: {
 *   flows: { clientCredentials: { tokenUrl: 'https://id.example.com/oauth/token' } },
 *   scopes: { 'orders:read': 'Read orders', 'orders:write': 'Create and change orders' },
 * }
 */
export interface OAuth2Def {
  readonly flows: {
    readonly authorizationCode?: AuthorizationCodeFlowDef;
    readonly clientCredentials?: ClientCredentialsFlowDef;
    readonly implicit?: ImplicitFlowDef;
    readonly password?: PasswordFlowDef;
  };
  /** Every scope the API's operations may need, with a description of what it grants. */
  readonly scopes?: Readonly<Record<string, string>>;
  readonly description?: string;
}

/** The credentials an API accepts. */
export interface AuthDef {
  readonly bearer?: { readonly description?: string };
  readonly apiKey?: { readonly header: string; readonly description?: string };
  /** OAuth 2.0 access tokens (sent as `Authorization: Bearer`); declare either this or `bearer`. */
  readonly oauth2?: OAuth2Def;
}

/**
 * The whole API as `defineApi` returns it: plain data. `options` holds the object as written, with every
 * collection builder replaced by its {@link CollectionDef}; anything else is kept as it was, for the model
 * to check (a module may be plain JavaScript, so nothing here is trusted to match its type).
 */
export interface ApiDef {
  readonly kind: 'api-definition';
  readonly options: unknown;
  readonly site?: CallSite;
}
