/**
 * `mountApi`, which every generated `registerXApi` calls: checks at startup that every handler, hook and
 * credential option is there, then mounts every version's routes and OpenAPI documents in an encapsulated
 * scope with problem+json errors.
 */
import type { FastifyInstance } from "fastify";
import { createAuthenticator } from "./auth.js";
import { createFailureLimiter } from "./auth-failures.js";
import { useJsonBodies } from "./body.js";
import { createGate } from "./gate.js";
import { isFn, isRecord, type AnyFn } from "./guards.js";
import { createHandle } from "./handle.js";
import { createMemoryAnswers, createRedisAnswers } from "./idempotency.js";
import { resolveHooks } from "./migrate.js";
import { placeDocuments } from "./openapi.js";
import { PathIndex, mountByHeader, mountByPath, type Placed } from "./paths.js";
import { answerError, problem, send } from "./problems.js";
import { createLimiters } from "./rate-limit.js";
import type { ApiSpec, RouteSpec } from "./spec.js";
import { STATE, type Mount } from "./state.js";
import type { OperationName, ServerOptions } from "./types.js";

const ITEM_OPS: ReadonlySet<OperationName> = new Set([
  "get",
  "replace",
  "update",
  "delete",
]);
const METHOD_OF: Readonly<Record<OperationName, string>> = {
  list: "GET",
  get: "GET",
  create: "POST",
  replace: "PUT",
  update: "PATCH",
  delete: "DELETE",
};

/** Mounts every version's routes of an API on `app`, in an encapsulated scope. Generated `registerXApi` calls it. */
export async function mountApi(
  app: FastifyInstance,
  spec: ApiSpec,
  handlers: object,
  options: ServerOptions & { readonly migrations?: unknown },
): Promise<void> {
  const hooks = resolveHooks(spec, options.migrations);
  const table = resolveHandlers(spec, handlers);
  const { authenticate, challenge, verifyJwt } = createAuthenticator(
    spec,
    options,
  );
  const clock = options.now ?? (() => new Date());
  const now = () => clock().getTime();
  const bodyLimit = options.bodyLimit ?? 1_048_576;
  const redisPrefix =
    options.redisPrefix ?? `restgen:${spec.name.toLowerCase()}:`;
  const redisTimeout = options.redisTimeout ?? 500;
  const requestTimeout = options.requestTimeout ?? 30_000;
  const ttl = options.idempotencyTtl ?? 86_400_000;
  const prefix = (options.prefix ?? "").replace(/\/$/, "");
  const failureLimit =
    options.authFailures === false ? null : (options.authFailures ?? {});
  const documents = await placeDocuments(spec, options.openapi, prefix);
  const answers = options.redis
    ? createRedisAnswers(options.redis, {
        prefix: `${redisPrefix}idem:`,
        ttl,
        // A create that outlives its request timeout still holds its key for a while.
        lockTtl: requestTimeout + 30_000,
        timeout: redisTimeout,
      })
    : createMemoryAnswers(ttl, now, options.idempotencyMaxEntries);

  await app.register(
    async (scope) => {
      scope.decorateRequest(STATE, null);
      useJsonBodies(scope);
      scope.setErrorHandler((error, request, reply) =>
        answerError(error, request, reply, bodyLimit),
      );
      const limits = await createLimiters(
        scope,
        spec,
        options.rateLimit !== false,
        options.redis
          ? { redis: options.redis, prefix: redisPrefix, timeout: redisTimeout }
          : null,
      );
      const m: Mount = {
        spec,
        handlers: table,
        hooks,
        now,
        challenge,
        verifyJwt,
        apiLimiter: limits.api,
        limiters: limits.byCollection,
        prefix,
        answers,
        authenticate,
        apiKeyHeader: spec.apiKeyHeader?.toLowerCase() ?? null,
        failures:
          failureLimit === null
            ? null
            : createFailureLimiter(
                failureLimit.max ?? 20,
                failureLimit.windowMs ?? 60_000,
              ),
        newest: newestRoutes(spec),
        validateResponses: options.validateResponses !== false,
        requestTimeout,
      };
      const placed = [...placeRoutes(m), ...documents];
      const index = new PathIndex();
      if (spec.versioning.in === "path")
        mountByPath(scope, index, placed, bodyLimit);
      else
        mountByHeader(
          scope,
          index,
          placed,
          spec.versions.map((v) => v.name),
          spec.versioning.header,
          bodyLimit,
        );
      if (options.notFound !== false)
        scope.setNotFoundHandler((request, reply) => {
          const path = request.url.split("?")[0]!;
          // A served path with a method Fastify has no route for (TRACE, PROPFIND, ...): 405, not 404.
          const allow = index.allowOf(path.slice(prefix.length), request);
          if (allow !== null)
            return send(
              reply.header("allow", allow),
              problem(
                405,
                "method_not_allowed",
                `${request.method} is not allowed here; this path accepts ${allow}.`,
              ),
            );
          return send(
            reply,
            problem(
              404,
              "not_found",
              `Nothing is served at ${request.method} ${path}.`,
            ),
          );
        });
    },
    { prefix },
  );
}

/** The route of each collection's newest version (versions are oldest first). */
function newestRoutes(spec: ApiSpec): Map<string, RouteSpec> {
  const newest = new Map<string, RouteSpec>();
  for (const version of spec.versions)
    for (const route of version.routes) newest.set(route.collection.key, route);
  return newest;
}

/** Every handler the spec's routes call, bound to its collection object; a missing one is a startup error. */
function resolveHandlers(
  spec: ApiSpec,
  handlers: object,
): Record<string, Record<string, AnyFn>> {
  const table: Record<string, Record<string, AnyFn>> = {};
  const missing: string[] = [];
  const source = handlers as Record<string, unknown>;
  for (const version of spec.versions)
    for (const route of version.routes) {
      const key = route.collection.key;
      const collection = source[key];
      const resolved = (table[key] ??= {});
      for (const op of route.operations) {
        if (resolved[op]) continue;
        const fn = isRecord(collection) ? collection[op] : undefined;
        if (isFn(fn)) resolved[op] = fn.bind(collection);
        else missing.push(`handlers.${key}.${op}`);
      }
    }
  if (missing.length > 0)
    throw new Error(
      `register${spec.name}Api: missing handlers: ${[...new Set(missing)].join(", ")}`,
    );
  return table;
}

/** The collection URL and the item URL of a route, each with its operations. */
function pathsOf(route: RouteSpec): { url: string; ops: OperationName[] }[] {
  return [
    {
      url: `/${route.path}`,
      ops: route.operations.filter((op) => !ITEM_OPS.has(op)),
    },
    {
      url: `/${route.path}/:id`,
      ops: route.operations.filter((op) => ITEM_OPS.has(op)),
    },
  ].filter((p) => p.ops.length > 0);
}

/** Every operation of every version as a gate and a handler, at its URL relative to the version. */
function placeRoutes(m: Mount): Placed[] {
  const placed: Placed[] = [];
  for (const version of m.spec.versions)
    for (const route of version.routes)
      for (const { url, ops } of pathsOf(route)) {
        // Location headers name the collection as the client called it.
        const base =
          m.spec.versioning.in === "path"
            ? `${m.prefix}/${version.name}/${route.path}`
            : `${m.prefix}/${route.path}`;
        for (const op of ops)
          placed.push({
            version: version.name,
            url,
            method: METHOD_OF[op],
            entry: {
              gate: createGate(m, version, route, op),
              handle: createHandle(m, version, route, op, base),
            },
          });
      }
  return placed;
}
