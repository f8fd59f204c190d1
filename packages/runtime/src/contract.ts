/**
 * @module `@restgen/runtime/contract`: the facts the generator and this runtime must agree on, declared in one
 * entry so restgen reads them from here instead of keeping copies: the contract number generated route tables
 * carry, the operations table (each operation's method, path, body, status and access), the list filter operators, the limits of webhook
 * endpoints, and the shapes of the route tables and memory-store specs the generated code writes. It holds data and
 * types only (no Fastify, no zod at run time), so restgen bundles it into its own build: the generator writes the
 * contract it was built with, and `generate` warns (RG219) when the installed runtime implements another.
 *
 * The contract number changes only when the shape of the route tables (`spec.ts`) or of what the generated code
 * imports changes incompatibly; the package's major (or, before 1.0, minor) version changes with it.
 */

/** The contract this runtime implements: generated route tables carry it as `contract`. */
export const RUNTIME_CONTRACT = 3;

export { ALL_METHODS, allowOf, OPERATION_FACTS, OPERATIONS, type OperationFacts, type OperationName } from './operations.js';
export { FILTER_OP_FACTS, FILTER_OPS, type FilterOp, type FilterOpFacts, filterParameter } from './filter-ops.js';
export { DEFAULT_GRACE_SECONDS, ENDPOINT_LIMITS, MAX_ACTIVE_SECRETS, MAX_GRACE_SECONDS } from './webhook-limits.js';
export type { Assign, MemorySpec } from './memory-store.js';
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
