/**
 * The types a user of a generated server codes against: principals and credentials, the handler context,
 * pages and list queries, the handlers of a collection, and the options of `registerXApi`.
 */
import type { FastifyRequest } from 'fastify';
import type { FileStore } from './file-store.js';
import type { FilterOp } from './filter-ops.js';
import type { JwtOptions } from './jwt-claims.js';
import type { Principal } from './principal.js';
import type { RedisClient } from './redis-client.js';
import type { HttpProblem } from './problems.js';
import type { OutdatedValue } from './older-data.js';
import type { EventLog, Retention } from './event-log.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { DispatchTiming } from './webhook-dispatch.js';
import type { EndpointStore, Outbox } from './webhook-store.js';

/** A value or a promise of it: handlers may be sync or async. */
export type Awaitable<T> = T | Promise<T>;
export type { OperationName } from './operations.js';
export type { Principal } from './principal.js';
export type { RedisClient } from './redis-client.js';

/** A credential as sent: `Authorization: Bearer <token>` or the API key header. */
export interface Credential {
  readonly scheme: 'bearer' | 'apiKey';
  readonly token: string;
  /**
   * With `options.jwt`, the principal a verified bearer token stands for (`id` = `sub`, scopes from
   * `scope` or `scp`, and its claims); `authenticate` may return it, a richer one, or null to refuse it.
   */
  readonly verified?: Principal;
}
/**
 * A write's precondition (`If-Match`, `If-None-Match`). The runtime checks it before calling the handler
 * (412 when it fails); a handler that stores data elsewhere checks it again atomically with its write, so
 * that a change made between the two is not overwritten: `if (!ctx.condition?.matches(current)) ...`.
 */
export interface Condition {
  /**
   * True when `current` (the stored resource, as handlers return it) still satisfies the request's headers.
   * `null` asks about a resource that does not exist: false when the request sends `If-Match` (answer 412,
   * RFC 9110 section 13.1.1), true otherwise (answer 404).
   */
  matches(current: object | null): boolean;
}
/**
 * What one handler call writes through the store the handler writes with, so that it exists if and only if the
 * handler's change committed: its webhook event (a transactional outbox: `webhooks.outbox` with `addWith`) and
 * the answer to the request's Idempotency-Key (an `idempotency` store). With the memory or Redis outbox the
 * derived event is written after the handler answered (as without the call), a custom event when `emit` is
 * called (as `ctx.emit`); with the memory or Redis answer store the answer is kept after the handler answered.
 */
export interface HandlerEvents {
  /**
   * Writes, through `tx` (the handler's open transaction, before it commits), what this operation keeps of
   * `resource` (newest version): the event it sends — `created`, `updated` (replace and update), `deleted` (pass
   * the resource as it was), or the event of the state a transition leads to — and, with an `idempotency` store,
   * the answer a retry with the same Idempotency-Key gets (pass the resource the handler answers). What the server
   * keeps elsewhere it does not write here, so every write can call it. A handler that does not call it still sends its event and
   * keeps its answer, written after it answered. It throws when another request with the same Idempotency-Key
   * committed first: let that through, so that the transaction rolls back (the request answers the first one's
   * answer).
   */
  write(tx: unknown, resource: object): Promise<void>;
  /** Writes a custom event (as `ctx.emit`) through `tx`, the handler's open transaction. */
  emit(tx: unknown, type: string, data: object): Promise<void>;
}
/** What every handler receives besides its input. */
export interface HandlerContext {
  /** The caller, or null on a public operation called without a credential. */
  readonly principal: Principal | null;
  /** The version the client called; the input is already migrated to the newest version. */
  readonly version: string;
  readonly request: FastifyRequest;
  /** The precondition of a write (replace, update, delete, transitions); null when the request sends none. */
  readonly condition: Condition | null;
  /**
   * Sends a custom event (declared in `defineApi({ events })`) with `data` in the newest version's shape
   * to every endpoint subscribed to it, written to the outbox when called. Rejects a type the API does not
   * declare and data that does not fit the payload (TypeError).
   */
  emit(type: string, data: object): Promise<void>;
  /** This call's events, written in the handler's own transaction (see {@link HandlerEvents}). */
  readonly events: HandlerEvents;
}

/** A page of a list. */
export interface Page<T> {
  readonly data: readonly T[];
  readonly next_cursor: string | null;
}
/**
 * The operators of one field's filter, each with its value (parsed by the field's kind): several combine with
 * AND. `in` holds a list; the others one value. A filter matches only records that hold a value (never null).
 */
export type FilterOf<T, O extends FilterOp = FilterOp> = { readonly [K in O]?: K extends 'in' ? readonly T[] : T };

/** One key of a list's order: a field (newest name) and its direction. */
export interface SortKey<K extends string = string> {
  readonly field: K;
  readonly direction: 'asc' | 'desc';
}

/**
 * The query a list handler receives, parsed and in the newest version's names (a handler never parses query
 * text): `limit` (default and maximum applied); `cursor` (the one this handler issued for the same sort and
 * filters: the runtime refuses any other with 400 `cursor_mismatch`); `filter`, by field, then by operator;
 * `sort`, the keys in order (what `?sort=` named, else the collection's `defaultSort`), always ending with the
 * id so that ties are broken and pages are stable, or empty for the handler's own order (creation order);
 * `fields`, the fields the answer shows (`?fields=`, the id and the expanded refs included), or null for all;
 * `expand`, the refs the runtime expands in the answer (through the referenced collections' handlers).
 */
export interface ListQuery<
  F extends object = { readonly [field: string]: FilterOf<unknown> | undefined },
  S extends string = string,
  M extends string = string,
  E extends string = string,
> {
  readonly limit: number;
  readonly cursor?: string | undefined;
  readonly filter: F;
  readonly sort: readonly SortKey<S>[];
  readonly fields: readonly M[] | null;
  readonly expand: readonly E[];
}

/**
 * The list query of a collection whose resource is `T`: `F` names each filterable field's operators
 * (`{ status: 'eq' | 'in' }`), `S` the sort keys (the id among them), `E` the expandable refs.
 */
export type ListQueryOf<T, F extends { readonly [K in keyof F]: K extends keyof T ? FilterOp : never }, S extends string, E extends string> = ListQuery<
  { readonly [K in keyof F & keyof T]?: FilterOf<NonNullable<T[K]>, F[K] & FilterOp> },
  S,
  Extract<keyof T, string>,
  E
>;

/**
 * The operations of one collection, written once against the newest version's types. Report a missing
 * resource with `NotFound`, a taken unique value with `Conflict`, a bad cursor with `BadRequest` (any
 * `HttpProblem`, returned or thrown); anything else thrown answers 500 without its message or status, and
 * is logged. What a handler returns is shaped and checked against the response schema of the version called.
 */
export interface CollectionHandlers<T, C, R, P, Q> {
  /** `GET /<collection>`: one page, filters applied. */
  list(query: Q, ctx: HandlerContext): Awaitable<Page<T> | HttpProblem>;
  /** `GET /<collection>/{id}`. */
  get(id: string, ctx: HandlerContext): Awaitable<T | HttpProblem>;
  /**
   * Optional: the resources of `ids` (those that exist, in any order), read in one go. When another collection
   * expands a ref to this one (`?expand=`), a page loads each referenced collection once through it; without it,
   * through `get` once per distinct id.
   */
  getMany?(ids: readonly string[], ctx: HandlerContext): Awaitable<readonly T[] | HttpProblem>;
  /** `POST /<collection>`: the new resource, its read-only fields set. */
  create(body: C, ctx: HandlerContext): Awaitable<T | HttpProblem>;
  /** `PUT /<collection>/{id}`: a complete replacement; read-only fields keep their values. */
  replace(id: string, body: R, ctx: HandlerContext): Awaitable<T | HttpProblem>;
  /** `PATCH /<collection>/{id}`: only the fields present change. */
  update(id: string, patch: P, ctx: HandlerContext): Awaitable<T | HttpProblem>;
  /** `DELETE /<collection>/{id}`. */
  // biome-ignore lint/suspicious/noConfusingVoidType: an async handler that returns nothing is Promise<void>
  delete(id: string, ctx: HandlerContext): Awaitable<void | HttpProblem>;
}

/**
 * A transition's handler: `resource` (newest version) is in one of the transition's `from` states; move it
 * to the `to` state and answer it. The runtime loaded it with the collection's get handler just before:
 * to be safe against a concurrent change, make the write conditional on the state (and on
 * `ctx.condition`), and answer `InvalidTransition` (409) when the state moved meanwhile.
 */
export type TransitionHandler<R, I, A = R> = (resource: R, input: I, ctx: HandlerContext) => Awaitable<A | HttpProblem>;

/** Where the API's OpenAPI documents are served, relative to each version (default `openapi.json`). */
export interface OpenApiOptions {
  readonly path?: string;
}

/** The limit on rejected credentials per client address. */
export interface AuthFailureLimit {
  /** Rejected credentials allowed per address and window (default 20). */
  readonly max?: number;
  /** The window in ms (default 60 000). */
  readonly windowMs?: number;
}

/** How webhooks are checked and delivered (all times in ms). */
export interface WebhookOptions extends DispatchTiming {
  /**
   * Permit http and loopback/private addresses as endpoint URLs (development and tests). Default false:
   * https to public addresses only, checked when an endpoint is saved and before each delivery.
   */
  readonly allowPrivateUrls?: boolean;
  /** `false`: this instance only writes events to the outbox; `createWebhookDispatcher` delivers them. */
  readonly dispatch?: boolean;
  /** Resolves a host to its addresses (default: the system resolver); tests inject one. */
  readonly resolve?: (host: string) => Promise<readonly string[]>;
  /**
   * Where deliveries wait (default: in memory, or in Redis with `redis`). An outbox with `addWith` (a
   * `TransactionalOutbox`, such as a table in the database the handlers write to) lets handlers write their
   * events in their own transaction through `ctx.events`; the dispatcher claims them from it.
   */
  readonly outbox?: Outbox;
  /** Where webhook endpoints are kept (default: in memory, or in Redis with `redis`). */
  readonly endpoints?: EndpointStore;
}

/**
 * The event stream (`GET /vN/events`, APIs with events): where its events are kept, and its timing and bounds (all
 * times in ms).
 */
export interface StreamOptions {
  /**
   * Where the stream's events are kept (an `EventLog`), such as a table in the handlers' database that they write
   * in their own transactions (`createPostgresEventLog` of `@restgen/postgres`). Default: the log of
   * `webhooks.outbox` when it keeps one (an `eventLog` property), else in Redis with `redis` (shared by every
   * instance), else in this process's memory (one instance).
   */
  readonly log?: EventLog;
  /**
   * How long the memory and Redis logs keep events at least (`ms`, default a day), and at most how many (`events`,
   * default 10,000 in memory, about 100,000 in Redis). A reader that resumes from an id older than what is kept
   * gets 410 `stream_expired`.
   */
  readonly retention?: Partial<Retention>;
  /** The interval of heartbeat comments on an open stream (default 15 000). */
  readonly heartbeat?: number;
  /** The `retry:` a stream sends: how long a client waits before it reconnects (default 2 000). */
  readonly retry?: number;
  /**
   * The most bytes one stream may have waiting to be sent (default 1 MiB): a reader slower than the events is cut
   * off there, on a whole event, and resumes from its last id. Memory held for streams is at most this per stream.
   */
  readonly bufferLimit?: number;
  /**
   * The most streams one principal (an anonymous caller: one client address, as rate limits count it) holds open
   * on one instance (default 10); one more answers 429 `too_many_streams`.
   */
  readonly maxConnectionsPerPrincipal?: number;
  /** How often an instance with open streams reads the log for events other instances wrote (default 250). */
  readonly pollInterval?: number;
}

/**
 * How a request's version was chosen: the versioning header (`header`), the principal's pin (`pinned`,
 * `options.pinnedVersion`), the API's `versioning.default` (`default`), or the path (`path` versioning).
 */
export type VersionSource = 'header' | 'pinned' | 'default' | 'path';

/** One request that resolved a version and got past authentication: what `options.onVersionUse` receives. */
export interface VersionUse {
  /** The version that answers the request. */
  readonly version: string;
  /**
   * What asked for it: the header's value as sent (a version, or a date resolved to one), the value
   * `pinnedVersion` returned, the path's version; null for the default.
   */
  readonly requested: string | null;
  readonly source: VersionSource;
  /** The collection's key (`webhook_endpoints` for webhook endpoints). */
  readonly collection: string;
  /** The operation (`list`, `get`, `create`, `replace`, `update`, `delete`) or the transition's name. */
  readonly operation: string;
  /** The principal's id; null for an anonymous request. */
  readonly principal: string | null;
  /** Whether the version is deprecated at the time of the request (its deprecation date has come). */
  readonly deprecated: boolean;
}

/** Options every generated `registerXApi` accepts. */
export interface ServerOptions {
  /**
   * Resolves a credential to a principal; null answers 401 (`invalid_token`). With `jwt`, a bearer token
   * reaches it only once verified, with the principal it stands for in `credential.verified`.
   */
  readonly authenticate?: (credential: Credential, request: FastifyRequest) => Awaitable<Principal | null>;
  /**
   * Verify bearer tokens as JWT access tokens (jose): signature against the identity provider's JWKS (or a
   * key), `exp`, `nbf`, `iss`, `aud`, allowed algorithms. A token that fails answers 401 `invalid_token`
   * with the reason; keys that cannot be fetched answer 503. The principal is `sub` with the token's scopes;
   * `authenticate`, when given too, runs after verification and receives it as `credential.verified`.
   */
  readonly jwt?: JwtOptions;
  /** Static API keys and the principal each stands for, compared in constant time before `authenticate`. */
  readonly apiKeys?: Readonly<Record<string, Principal>>;
  /**
   * Rejected credentials counted per client (`request.ip`: an IPv4 address, or the /64 network of an IPv6
   * one): over the limit, requests that carry a credential answer 429 before `authenticate` is called.
   * Default 20 per minute; `false` turns it off.
   */
  readonly authFailures?: false | AuthFailureLimit;
  /** A path prefix for every route, like `/api` (default: none). */
  readonly prefix?: string;
  /** The largest request body in bytes (default 1 MiB); a larger one answers 413. */
  readonly bodyLimit?: number;
  /**
   * How long a handler may take, in ms (default 30 000): a later answer is dropped and the request answers
   * 503 with `Retry-After`, logged with the handler's name.
   */
  readonly requestTimeout?: number;
  /**
   * Check every answer (handlers' and migration hooks') against the response schema of the version
   * answered (default true): a violation answers 500 and is logged with its JSON pointer. Unknown and
   * write-only keys are removed at every depth whether or not this is on. A value that breaks only a
   * constraint requests enforce (a length, a bound, a pattern, an array's size, an enum value no longer
   * listed) was stored under an older contract: it is answered, logged at warn and reported to
   * `onOutdatedValue`.
   */
  readonly validateResponses?: boolean;
  /**
   * Called for every answered value that breaks only a request-side constraint of the schema answered
   * (data written under an older contract, see `validateResponses`): count them, find the records to fix. What it
   * throws, or a promise it returns rejects with, is logged at warn and changes nothing.
   */
  readonly onOutdatedValue?: (report: OutdatedValue) => void;
  /**
   * A Redis client shared by every instance (an ioredis `Redis`, or a `Cluster`): rate-limit counters, idempotent
   * answers (unless `idempotency` is given), and webhook endpoints and the outbox (unless `webhooks` gives them).
   */
  readonly redis?: RedisClient;
  /**
   * The prefix of every Redis key (default `restgen:{<api>}:`). On a Redis Cluster it must hold a hash tag (the
   * part in braces), so that the webhook outbox's keys share one slot; the server refuses to start otherwise.
   */
  readonly redisPrefix?: string;
  /**
   * The longest wait for Redis, in ms (default 500): a command past it counts as Redis being away, and for a
   * second after that every command fails at once, so a request waits out this bound once at most. Meanwhile
   * rate limits let requests through, idempotent creates and webhook routes answer 503 with `Retry-After: 1`.
   */
  readonly redisTimeout?: number;
  /**
   * Where answers to Idempotency-Keys are kept, when not in Redis or memory: a store in the handlers' database
   * (`createPostgresIdempotency` of `@restgen/postgres`), whose record a handler writes in its own transaction by
   * passing it to `ctx.events.write(tx, resource)`. A retry after a crash at any point then replays the committed
   * answer and never runs the change twice.
   */
  readonly idempotency?: IdempotencyStore;
  /** `false` turns the declared rate limits off (behind a gateway that limits, in tests). Default true. */
  readonly rateLimit?: boolean;
  /** How long the answer to an `Idempotency-Key` is replayed, in ms (default 24 h). */
  readonly idempotencyTtl?: number;
  /** In memory (without `redis`): the most answers kept (default 10 000); the oldest are forgotten first. */
  readonly idempotencyMaxEntries?: number;
  /** The clock that decides whether a version is past its sunset or inside a brownout window (tests inject one). */
  readonly now?: () => Date;
  /**
   * Header versioning only: the version of a request that does not send the versioning header, per
   * principal (Stripe's pinned account version). Called after authentication with the principal (null when
   * the request carries no credential) and the request; sync or async. A version name (or, when every version
   * is named by a date, a date, resolved as the header's would be) selects it; null or undefined leaves it to
   * `versioning.default`. Runs under `requestTimeout`; a value that names no version, or an error, answers 500
   * (logged with `source: "options.pinnedVersion"`). With path versioning it is a startup error.
   */
  readonly pinnedVersion?: (principal: Principal | null, request: FastifyRequest) => Awaitable<string | null | undefined>;
  /**
   * Called once per request that resolved a version and got past authentication (the principal known, or an
   * anonymous request), before scopes, rate limits and the handler: usage per version, principal and operation.
   * Requests refused before the caller is known (past the version's sunset, inside a brownout, a credential
   * refused, or missing where one is needed) are not reported. What it throws, or a promise it returns rejects with
   * (any value, one whose properties throw when read included), is logged at warn and changes nothing.
   * `@restgen/runtime/otel` records these as OpenTelemetry metrics.
   */
  readonly onVersionUse?: (use: VersionUse) => unknown;
  /** Answer unknown paths under the prefix with a problem+json 404 (default true); false when the app sets its own not-found handler there. */
  readonly notFound?: boolean;
  /**
   * Serve each version's OpenAPI document (the generated `openapi/<version>.json`) at `/<version>/openapi.json`,
   * or at `/openapi.json` chosen by the version header (default). `{ path }` moves it; `false` turns it off.
   */
  readonly openapi?: false | OpenApiOptions;
  /** Webhook URL rules, the dispatcher's timing, and whether this instance dispatches (APIs with events). */
  readonly webhooks?: WebhookOptions;
  /**
   * Where the content of uploaded files is kept (required when a collection has a file field): a `FileStore`
   * of put, get and delete, such as `createDiskFileStore(dir)` for development and tests, or one over S3.
   */
  readonly files?: FileStore;
  /**
   * The event stream's log, timing and bounds (APIs with events); `false` serves no `GET /vN/events` and keeps no
   * event log (a write whose event no webhook endpoint subscribes to then does no event work).
   */
  readonly stream?: false | StreamOptions;
}
