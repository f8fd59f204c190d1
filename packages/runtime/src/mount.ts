/**
 * `mountApi`, which every generated `registerXApi` calls: checks at startup that every handler, hook and
 * credential option is there, then mounts every version's routes and OpenAPI documents in an encapsulated
 * scope with problem+json errors.
 */
import type { FastifyInstance, FastifyPluginCallback } from 'fastify';
import { ANSWER_FORMAT } from './answer-format.js';
import { assertContract } from './contract-check.js';
import { createAuthenticator } from './auth.js';
import { createFailureLimiter } from './auth-failures.js';
import { useJsonBodies, useXmlBodies } from './body.js';
import { createDownloadHandle } from './file-download.js';
import type { FileStore } from './file-store.js';
import { negotiateFormat } from './representation.js';
import { deferredHandle } from './deferred.js';
import { createEtagger } from './etag.js';
import { createGate, type GateRule } from './gate.js';
import { isFn, isRecord, type AnyFn } from './guards.js';
import { NO_HANDLER_EVENTS, createHandle, noEvents } from './handle.js';
import { createMemoryAnswers, createRedisAnswers } from './idempotency.js';
import { createTransactionalAnswers } from './idempotency-store.js';
import { resolveHooks } from './migrate.js';
import { placeDocuments } from './openapi.js';
import { PathIndex, mountByHeader, mountByPath, transitionUrl, withVary, type Placed } from './paths.js';
import { answerError, problem, send } from './problems.js';
import { createLimiters } from './rate-limit.js';
import { createRedisGuard, defaultRedisPrefix } from './redis-guard.js';
import type { Limiter } from './state.js';
import { mountedSpec } from './route-table.js';
import type { ApiSpec, MountedSpec, MultipartPluginOptions, RouteSpec } from './spec.js';
import { STATE, type Mount } from './state.js';
import { createTransitionHandle } from './transition.js';
import { OPERATION_FACTS } from './operations.js';
import { BODY_RULES } from './problems.js';
import { createHeaderVersions } from './version-select.js';
import type { OperationName, ServerOptions } from './types.js';
import { createBuiltinHandlers, createWebhookStores, startWebhooks } from './webhooks.js';
import { eventLogOf, startStream } from './stream.js';

/** Mounts every version's routes of an API on `app`, in an encapsulated scope. Generated `registerXApi` calls it. */
export async function mountApi(
  app: FastifyInstance,
  generated: ApiSpec,
  handlers: object,
  options: ServerOptions & { readonly migrations?: unknown },
): Promise<void> {
  assertContract(generated);
  const spec = mountedSpec(generated);
  assertVersionOptions(spec, options);
  const hooks = resolveHooks(spec, options.migrations);
  const clock = options.now ?? (() => new Date());
  const now = () => clock().getTime();
  const webhooks = spec.webhooks ?? null;
  const webhookOptions = options.webhooks ?? {};
  const redisPrefix = options.redisPrefix ?? defaultRedisPrefix(spec.name);
  const redisTimeout = options.redisTimeout ?? 500;
  // One guard for every Redis command of this server: a request waits out one redisTimeout at most.
  const guard = options.redis ? createRedisGuard(redisTimeout) : null;
  const place = options.redis && guard ? { redis: options.redis, prefix: options.redisPrefix, guard } : null;
  const stores = webhooks ? createWebhookStores(spec, place, webhookOptions, `register${spec.name}Api`) : null;
  const table = resolveHandlers(
    spec,
    webhooks && stores
      ? {
          ...handlers,
          [webhooks.collection]: createBuiltinHandlers(webhooks, stores, webhookOptions, now),
        }
      : handlers,
  );
  const { authenticate, challenge, verifyJwt } = createAuthenticator(spec, options);
  const bodyLimit = options.bodyLimit ?? 1_048_576;
  const requestTimeout = options.requestTimeout ?? 30_000;
  const ttl = options.idempotencyTtl ?? 86_400_000;
  const prefix = (options.prefix ?? '').replace(/\/$/, '');
  const files = fileStoreOf(spec, options);
  const formats = spec.formats ?? ['json'];
  const failureLimit = options.authFailures === false ? null : (options.authFailures ?? {});
  const documents = await placeDocuments(spec, options.openapi, prefix);
  const answers = options.idempotency
    ? createTransactionalAnswers(options.idempotency, ttl, now)
    : options.redis && guard
      ? createRedisAnswers(options.redis, {
          prefix: `${redisPrefix}idem:`,
          ttl,
          // A create that outlives its request timeout still holds its key for a while.
          lockTtl: requestTimeout + 30_000,
          guard,
        })
      : createMemoryAnswers(ttl, now, options.idempotencyMaxEntries);

  await app.register(
    async (scope) => {
      scope.decorateRequest(STATE, null);
      scope.decorateRequest(ANSWER_FORMAT, null);
      useJsonBodies(scope);
      const bodies = ['application/json', ...(formats.includes('xml') ? ['application/xml'] : []), ...(files ? ['multipart/form-data (with files)'] : [])];
      if (formats.includes('xml')) useXmlBodies(scope);
      // Uploads are read part by part by the routes that take files; the limits are each route's (file-upload.ts).
      if (files && spec.multipart)
        await scope.register(spec.multipart as FastifyPluginCallback<Pick<MultipartPluginOptions, 'throwFileSizeLimit'>>, { throwFileSizeLimit: true });
      scope.setErrorHandler((error, request, reply) => answerError(error, request, reply, bodyLimit, bodies.join(' or ')));
      const limits = await createLimiters(
        scope,
        spec,
        options.rateLimit !== false,
        options.redis && guard ? { redis: options.redis, prefix: redisPrefix, guard } : null,
      );
      const newest = newestRoutes(spec);
      const m: Mount = {
        spec,
        handlers: table,
        hooks,
        now,
        challenge,
        verifyJwt,
        apiLimiter: limits.api,
        limiters: limits.byCollection,
        etags: new Map([...newest].map(([key, route]) => [key, createEtagger(route.schemas.response)])),
        prefix,
        answers,
        authenticate,
        apiKeyHeader: spec.apiKeyHeader?.toLowerCase() ?? null,
        failures: failureLimit === null ? null : createFailureLimiter(failureLimit.max ?? 20, failureLimit.windowMs ?? 60_000),
        newest,
        validateResponses: options.validateResponses !== false,
        requestTimeout,
        emit: noEvents,
        events: NO_HANDLER_EVENTS,
        onOutdatedValue: options.onOutdatedValue,
        onVersionUse: options.onVersionUse ?? null,
        formats,
        files,
        bodyLimit,
      };
      // An answer given before the request's body arrived whole (a refused upload, a 401 to a large POST) ends its
      // connection once sent: Node would otherwise read and drop the rest for as long as the client sends it, and
      // app.close() would wait for a slow sender.
      scope.addHook('onSend', (request, reply, payload, done) => {
        if (!request.raw.complete) reply.header('connection', 'close');
        done(null, payload);
      });
      // Answers of an API with XML vary by Accept; each request's format is negotiated as it arrives.
      if (formats.length > 1)
        scope.addHook('onRequest', (request, reply, done) => {
          negotiateFormat(m, request);
          reply.header('vary', withVary(reply.getHeader('vary'), 'Accept'));
          done();
        });
      // `stream: false`: no event stream, and no event log written.
      const streamOptions = options.stream ?? {};
      const stream =
        webhooks && stores && streamOptions !== false
          ? startStream(
              scope,
              m,
              webhooks,
              eventLogOf(
                streamOptions,
                webhookOptions.outbox,
                options.redis && guard ? { client: options.redis, prefix: redisPrefix, guard } : null,
                now,
                `register${spec.name}Api`,
              ),
              streamOptions,
            )
          : null;
      if (webhooks && stores) startWebhooks(scope, m, webhooks, table, stores, webhookOptions, stream?.recorder ?? null);
      const placed = [...placeRoutes(m), ...(stream?.placed ?? []), ...documents];
      const index = new PathIndex();
      if (spec.versioning.in === 'path') mountByPath(scope, index, placed, bodyLimit);
      else
        mountByHeader(scope, index, placed, createHeaderVersions(m, spec.versioning.header, spec.versioning.default ?? null, options.pinnedVersion), bodyLimit);
      if (options.notFound !== false)
        scope.setNotFoundHandler((request, reply) => {
          const path = request.url.split('?')[0]!;
          // A served path with a method Fastify has no route for (TRACE, PROPFIND, ...): 405, not 404.
          const allow = index.allowOf(path.slice(prefix.length), request);
          if (allow !== null)
            return send(reply.header('allow', allow), problem(405, 'method_not_allowed', `${request.method} is not allowed here; this path accepts ${allow}.`));
          return send(reply, problem(404, 'not_found', `Nothing is served at ${request.method} ${path}.`));
        });
    },
    { prefix },
  );
}

/**
 * The file store of an API with file fields (`options.files`, required then: a startup error names the fields),
 * or null for an API without any.
 */
function fileStoreOf(spec: MountedSpec, options: ServerOptions): FileStore | null {
  const fields = spec.versions.flatMap((v) => v.routes.flatMap((r) => Object.values(r.files ?? {}).map((f) => `${r.collection.key}.${f.key}`)));
  if (fields.length === 0) return null;
  const named = [...new Set(fields)].join(', ');
  if (!spec.multipart)
    throw new Error(
      `register${spec.name}Api: the API has file fields (${named}), but the generated routes do not pass @fastify/multipart; regenerate with restgen generate.`,
    );
  const store = options.files;
  if (store === undefined || typeof store.put !== 'function' || typeof store.get !== 'function' || typeof store.delete !== 'function')
    throw new Error(
      `register${spec.name}Api: the API has file fields (${named}); pass options.files, a FileStore (put, get, delete) that keeps their content, such as createDiskFileStore(dir) of @restgen/runtime for development.`,
    );
  return store;
}

/**
 * Throws at startup when the version options do not fit the API: `pinnedVersion` chooses the version of a
 * request without the versioning header, and with path versioning the path always names it.
 */
function assertVersionOptions(spec: MountedSpec, options: ServerOptions): void {
  if (options.pinnedVersion !== undefined && spec.versioning.in === 'path')
    throw new Error(
      `register${spec.name}Api: options.pinnedVersion applies to header versioning only; this API selects the version by its path (/${spec.versions[0]?.name ?? 'v1'}/...), which every request names. Remove pinnedVersion, or declare versioning: { in: 'header', header: 'Api-Version' } in the API.`,
    );
  for (const [key, value] of [
    ['pinnedVersion', options.pinnedVersion],
    ['onVersionUse', options.onVersionUse],
  ] as const)
    if (value !== undefined && typeof value !== 'function')
      throw new Error(`register${spec.name}Api: options.${key} must be a function (got ${typeof value}).`);
}

/** The route of each collection's newest version (versions are oldest first). */
function newestRoutes(spec: MountedSpec): Map<string, RouteSpec> {
  const newest = new Map<string, RouteSpec>();
  for (const version of spec.versions) for (const route of version.routes) newest.set(route.collection.key, route);
  return newest;
}

/** Every handler the spec's routes call, bound to its collection object; a missing one is a startup error. */
function resolveHandlers(spec: MountedSpec, handlers: object): Record<string, Record<string, AnyFn>> {
  const table: Record<string, Record<string, AnyFn>> = {};
  const missing: string[] = [];
  const source = handlers as Record<string, unknown>;
  for (const version of spec.versions)
    for (const route of version.routes) {
      const key = route.collection.key;
      const collection = source[key];
      const resolved = (table[key] ??= {});
      // Rules of the collection's bodies no schema states travel with its handlers (see BODY_RULES).
      const rules = isRecord(collection) ? (collection as { [BODY_RULES]?: unknown })[BODY_RULES] : undefined;
      if (isFn(rules)) (resolved as { [BODY_RULES]?: unknown })[BODY_RULES] = rules;
      // A transition's handler sits beside the operations' (the DSL keeps their names apart).
      for (const op of [...route.operations, ...Object.keys(route.transitions)]) {
        if (resolved[op]) continue;
        const fn = isRecord(collection) ? collection[op] : undefined;
        if (isFn(fn)) resolved[op] = fn.bind(collection);
        else missing.push(`handlers.${key}.${op}`);
      }
      // Optional: reads of several resources at once, for the refs other collections expand (see expand.ts).
      const many = isRecord(collection) ? collection['getMany'] : undefined;
      if (isFn(many) && !resolved['getMany']) resolved['getMany'] = many.bind(collection);
    }
  if (missing.length > 0) throw new Error(`register${spec.name}Api: missing handlers: ${[...new Set(missing)].join(', ')}`);
  return table;
}

/** The collection URL and the item URL of a route, each with its operations. */
function pathsOf(route: RouteSpec): { url: string; ops: OperationName[] }[] {
  return [
    {
      url: `/${route.path}`,
      ops: route.operations.filter((op) => OPERATION_FACTS[op].target === 'collection'),
    },
    {
      url: `/${route.path}/:id`,
      ops: route.operations.filter((op) => OPERATION_FACTS[op].target === 'item'),
    },
  ].filter((p) => p.ops.length > 0);
}

/** The limits a route of `collection` counts against: the API's, the collection's, and those of `more` keys. */
function limitersOf(m: Mount, collection: string, ...more: string[]): Limiter[] {
  return [m.apiLimiter, ...[collection, ...more].map((k) => m.limiters.get(k) ?? null)].filter((l): l is Limiter => l !== null);
}

/** Who may call `op` of `route`, and what it counts against. */
function operationRule(m: Mount, route: RouteSpec, op: OperationName): GateRule {
  const c = route.collection;
  return {
    isPublic: route.public.includes(op),
    scopes: OPERATION_FACTS[op].access === 'read' ? c.scopes.read : c.scopes.write,
    limiters: limitersOf(m, c.key),
    requireIfMatch: c.requireIfMatch && OPERATION_FACTS[op].access === 'write' && OPERATION_FACTS[op].target === 'item',
    collection: c.key,
    operation: op,
  };
}

/** Who may call transition `name` of `route`: a credential always (when the API takes any), its own scopes and limit. */
function transitionRule(m: Mount, route: RouteSpec, name: string): GateRule {
  const c = route.collection;
  const t = c.lifecycle!.transitions[name]!;
  return {
    isPublic: !m.spec.bearer && m.apiKeyHeader === null,
    scopes: t.scopes,
    limiters: limitersOf(m, c.key, `${c.key}:${name}`),
    requireIfMatch: c.requireIfMatch,
    collection: c.key,
    operation: name,
  };
}

/** Every operation and transition of every version as a gate and a handler, at its URL relative to the version. */
function placeRoutes(m: Mount): Placed[] {
  const placed: Placed[] = [];
  for (const version of m.spec.versions)
    for (const route of version.routes) {
      for (const { url, ops } of pathsOf(route)) {
        // Location headers name the collection as the client called it.
        const base = m.spec.versioning.in === 'path' ? `${m.prefix}/${version.name}/${route.path}` : `${m.prefix}/${route.path}`;
        for (const op of ops)
          placed.push({
            version: version.name,
            url,
            method: OPERATION_FACTS[op].method,
            entry: {
              gate: createGate(m, version, operationRule(m, route, op)),
              handle: deferredHandle(() => createHandle(m, version, route, op, base)),
            },
          });
      }
      for (const [name, file] of Object.entries(route.files ?? {}))
        placed.push({
          version: version.name,
          url: `/${route.path}/:id/${name}`,
          method: 'GET',
          entry: {
            gate: createGate(m, version, { ...operationRule(m, route, 'get'), operation: 'download' }),
            handle: deferredHandle(() => createDownloadHandle(m, version, route, name, file, m.files!)),
          },
        });
      for (const name of Object.keys(route.transitions))
        placed.push({
          version: version.name,
          url: transitionUrl(`/${route.path}`, name),
          method: 'POST',
          entry: {
            gate: createGate(m, version, transitionRule(m, route, name)),
            handle: deferredHandle(() => createTransitionHandle(m, version, route, name)),
          },
        });
    }
  return placed;
}
