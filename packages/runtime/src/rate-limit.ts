/**
 * Rate limits over @fastify/rate-limit: the API-wide limit and each collection's, counted per principal
 * (per client IP when anonymous), in memory or in Redis.
 */
import rateLimitPlugin from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { logSafely } from './contain.js';
import { limitKeyOf } from './client-address.js';
import type { MountedSpec, LimitSpec, RouteSpec } from './spec.js';
import type { RedisGuard } from './redis-guard.js';
import { stateOf, type Limiter } from './state.js';
import type { RedisClient } from './redis-client.js';

/** Where counters live: in Redis (each check through the server's guard; a check that fails lets the request through), or in memory. */
export interface CounterStore {
  readonly redis: RedisClient;
  readonly prefix: string;
  readonly guard: RedisGuard;
}

/** The limiters of an API: the API-wide one, and one per limited collection (by key) and transition (by `<collection>:<transition>`). */
export interface Limiters {
  readonly api: Limiter | null;
  readonly byCollection: ReadonlyMap<string, Limiter>;
}

/**
 * Counters kept in memory (one per limit and principal or client), the least recently used forgotten
 * first. The plugin's default, 5,000, forgot an active client's count as soon as 5,000 others were counted.
 */
export const MEMORY_COUNTERS = 100_000;

/** Registers the rate-limit plugin in `scope` and creates the API's limiters; none when `enabled` is false. */
export async function createLimiters(scope: FastifyInstance, spec: MountedSpec, enabled: boolean, store: CounterStore | null): Promise<Limiters> {
  const byCollection = new Map<string, Limiter>();
  const transitionLimits = (r: RouteSpec) =>
    Object.entries(r.collection.lifecycle?.transitions ?? {}).flatMap(([name, t]) =>
      t.rateLimit === null ? [] : [[`${r.collection.key}:${name}`, t.rateLimit] as const],
    );
  const declared =
    spec.rateLimit !== null || spec.versions.some((v) => v.routes.some((r) => r.collection.rateLimit !== null || transitionLimits(r).length > 0));
  if (!enabled || !declared) return { api: null, byCollection };
  await scope.register(rateLimitPlugin, {
    global: false,
    ...(store ? { redis: store.redis, nameSpace: `${store.prefix}rl:` } : {}),
  });
  const guard = store?.guard ?? null;
  const api = spec.rateLimit ? createLimiter(scope, spec.rateLimit, 'api', guard) : null;
  for (const route of spec.versions.flatMap((v) => v.routes)) {
    if (route.collection.rateLimit && !byCollection.has(route.collection.key))
      byCollection.set(route.collection.key, createLimiter(scope, route.collection.rateLimit, route.collection.key, guard));
    for (const [name, limit] of transitionLimits(route)) if (!byCollection.has(name)) byCollection.set(name, createLimiter(scope, limit, name, guard));
  }
  return { api, byCollection };
}

/**
 * A limiter of `limit.max` requests per window, keyed by `name` and the principal (or client IP). With a
 * `guard` (Redis), a counter store that fails or does not answer in time lets the request through (fails
 * open): an outage of the store must not stall or refuse every request.
 */
function createLimiter(scope: FastifyInstance, limit: LimitSpec, name: string, guard: RedisGuard | null): Limiter {
  // Each limiter keeps its own counters in memory (the plugin's `child` store), sized by `cache`, which the
  // plugin reads from these options although its types leave it out (it is ignored with Redis).
  const options: Parameters<FastifyInstance['createRateLimit']>[0] & {
    readonly cache: number;
  } = {
    max: limit.max,
    timeWindow: limit.windowMs,
    cache: MEMORY_COUNTERS,
    skipOnError: true,
    keyGenerator: (request) => {
      const principal = stateOf(request).principal;
      return `${name}:${principal ? 'p:' + principal.id : 'ip:' + limitKeyOf(request.ip)}`;
    },
  };
  const check = scope.createRateLimit(options);
  const policy = `${limit.max};w=${limit.windowMs / 1000}`;
  const open = {
    exceeded: false,
    max: limit.max,
    remaining: limit.max,
    reset: 0,
    policy,
  };
  return async (request) => {
    let r: Awaited<ReturnType<typeof check>>;
    if (guard === null) r = await check(request);
    else {
      try {
        r = await guard.run(() => check(request));
      } catch (error) {
        logSafely(request.log, 'warn', { err: error, limit: name }, 'rate limit store unavailable; request let through');
        return open;
      }
    }
    if (r.isAllowed) return open;
    return {
      exceeded: r.isExceeded,
      max: r.max,
      remaining: r.remaining,
      reset: r.ttlInSeconds,
      policy,
    };
  };
}
