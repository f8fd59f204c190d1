/**
 * `@restgen/runtime`: the server runtime every generated API shares, re-exported from its modules: problem+json answers
 * (RFC 9457), credentials and scopes (JWT access tokens verified with jose in `@restgen/runtime/jwt`, for APIs that take bearer tokens), rate limits, version lifecycle,
 * migrations between versions, answers shaped by each version's response schema, ETags and preconditions,
 * lifecycle transitions, Idempotency-Key replay, OpenAPI documents, route mounting, version selection (header,
 * pin, default; echo, brownouts, usage) and the in-memory store. `@restgen/runtime/otel` records version usage as
 * OpenTelemetry metrics.
 * The API-specific files (`routes.ts`, `types.ts`, `index.ts`, `collections/*.ts`) are
 * data and types the runtime reads.
 */
export { fastifyOptions } from './fastify-options.js';
export { createDiskFileStore, type ByteRange, type FileContent, type FileInfo, type FileStore } from './file-store.js';
export type { FileMetadata, StoredFile, WithStoredFiles } from './file-values.js';
export { applyPatch, type PatchOf } from './patch.js';
export {
  createMemoryCollection,
  type Assign,
  type MemoryOptions,
  type MemorySpec,
  type MemoryTransition,
} from './memory-store.js';
export { RUNTIME_CONTRACT } from './contract.js';
export {
  DEFAULT_JWKS_MAX_BYTES,
  DEFAULT_JWKS_MAX_KEYS,
  DEFAULT_JWT_ALGORITHMS,
  scopesOfClaims,
  type CreateJwtVerifier,
  type JwtOptions,
  type JwtVerdict,
  type JwtVerifier,
} from './jwt-claims.js';
export { mountApi } from './mount.js';
export {
  OPERATIONS,
  OPERATION_FACTS,
  type OperationFacts,
} from './operations.js';
export {
  FILTER_OPS,
  FILTER_OP_FACTS,
  MAX_IN_VALUES,
  filterParameter,
  type FilterOp,
  type FilterOpFacts,
} from './filter-ops.js';
export {
  createWebhookDispatcherFor,
  type DispatcherOptions,
} from './webhooks.js';
export type { WebhookDispatcher } from './webhook-dispatch.js';
export {
  CLAIM_SCAN_MAX,
  type Claimed,
  type Delivery,
  type EndpointRecord,
  type EndpointStore,
  type Fairness,
  type Outbox,
} from './webhook-store.js';
export {
  isTransactional,
  type OutboxEvent,
  type TransactionalOutbox,
} from './transactional-outbox.js';
export {
  createMemoryEventLog,
  isExpired,
  isTransactionalLog,
  MEMORY_RETENTION,
  type EventLog,
  type LoggedEvent,
  type LogPage,
  type NewEvent,
  type Retention,
  type TransactionalEventLog,
} from './event-log.js';
export { createRedisEventLog, REDIS_RETENTION } from './event-log-redis.js';
export { STREAM_DEFAULTS, type OutboxWithLog } from './stream.js';
export {
  IdempotencyConflict,
  isIdempotencyConflict,
  type IdempotencyRecord,
  type IdempotencyStore,
} from './idempotency-store.js';
export type { Answer as IdempotentAnswer } from './idempotency.js';
export { defaultRedisPrefix, hasHashTag, RedisUnavailable } from './redis-guard.js';
export type { OutdatedValue } from './older-data.js';
export {
  BadRequest,
  Conflict,
  HttpProblem,
  InvalidTransition,
  NotFound,
  PreconditionFailed,
  issuesOf,
  problem,
  type Problem,
  type ProblemIssue,
} from './problems.js';
export type {
  ApiSpec,
  BrownoutSpec,
  CollectionRoutes,
  CollectionSpec,
  DownStep,
  FileFieldSpec,
  HookSpec,
  LifecycleSpec,
  LimitSpec,
  MultipartPlugin,
  MultipartPluginOptions,
  NestedDown,
  PayloadSpec,
  QuerySpec,
  ResourceEventSpec,
  RouteSpec,
  TransitionRouteSpec,
  TransitionSpec,
  UpPlan,
  VersionRoute,
  VersionSpec,
  WebhooksSpec,
  XmlNames,
} from './spec.js';
export type {
  AuthFailureLimit,
  Awaitable,
  CollectionHandlers,
  Condition,
  Credential,
  FilterOf,
  HandlerContext,
  HandlerEvents,
  ListQuery,
  ListQueryOf,
  OpenApiOptions,
  OperationName,
  Page,
  Principal,
  RedisClient,
  ServerOptions,
  SortKey,
  StreamOptions,
  TransitionHandler,
  VersionSource,
  VersionUse,
  WebhookOptions,
} from './types.js';
