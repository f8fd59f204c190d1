/**
 * `@restgen/runtime`: the server runtime every generated API shares, re-exported from its modules: problem+json answers
 * (RFC 9457), credentials and scopes (JWT access tokens verified with jose in `@restgen/runtime/jwt`, for APIs that take bearer tokens), rate limits, version lifecycle,
 * migrations between versions, answers shaped by each version's response schema, ETags and preconditions,
 * lifecycle transitions, Idempotency-Key replay, OpenAPI documents, route mounting and the in-memory store.
 * The API-specific files (`routes.ts`, `types.ts`, `index.ts`, `collections/*.ts`) are
 * data and types the runtime reads.
 */
export { fastifyOptions } from "./fastify-options.js";
export { applyPatch, type PatchOf } from "./patch.js";
export {
  createMemoryCollection,
  type Assign,
  type MemoryOptions,
  type MemorySpec,
  type MemoryTransition,
} from "./memory-store.js";
export { RUNTIME_CONTRACT } from "./contract.js";
export {
  DEFAULT_JWT_ALGORITHMS,
  scopesOfClaims,
  type CreateJwtVerifier,
  type JwtOptions,
  type JwtVerdict,
  type JwtVerifier,
} from "./jwt-claims.js";
export { mountApi } from "./mount.js";
export {
  createWebhookDispatcherFor,
  type DispatcherOptions,
} from "./webhooks.js";
export type { WebhookDispatcher } from "./webhook-dispatch.js";
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
} from "./problems.js";
export type {
  ApiSpec,
  CollectionSpec,
  DownStep,
  HookSpec,
  LifecycleSpec,
  LimitSpec,
  NestedDown,
  PayloadSpec,
  ResourceEventSpec,
  RouteSpec,
  TransitionRouteSpec,
  TransitionSpec,
  UpPlan,
  VersionSpec,
  WebhooksSpec,
} from "./spec.js";
export type {
  AuthFailureLimit,
  Awaitable,
  CollectionHandlers,
  Condition,
  Credential,
  HandlerContext,
  ListQuery,
  OpenApiOptions,
  OperationName,
  Page,
  Principal,
  RedisClient,
  ServerOptions,
  TransitionHandler,
  WebhookOptions,
} from "./types.js";
