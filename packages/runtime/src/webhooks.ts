/**
 * Webhooks inside a mounted API: the endpoint and outbox stores (memory, or Redis with `redis`), the
 * built-in endpoint handlers, the event sender wrapped around the user's handlers, and the dispatcher
 * started and stopped with the Fastify instance (`onReady`, `onClose`) unless `dispatch: false`, for a
 * separate worker made with `createWebhookDispatcher`.
 */
import { logSafely } from './contain.js';
import type { FastifyInstance } from 'fastify';
import { assertContract } from './contract-check.js';
import type { AnyFn } from './guards.js';
import { createRedisGuard, defaultRedisPrefix, hasHashTag, isClusterClient, legacyRedisPrefix, type RedisGuard } from './redis-guard.js';
import type { EventRecorder } from './stream-record.js';
import type { ApiSpec, WebhooksSpec } from './spec.js';
import { deferralOf, type Mount } from './state.js';
import type { RedisClient, WebhookOptions } from './types.js';
import { createDeferredEvents } from './webhook-deferred.js';
import { createDispatcher, type WebhookDispatcher } from './webhook-dispatch.js';
import { createEndpointHandlers } from './webhook-endpoints.js';
import { createEventSender, wrapForEvents } from './webhook-events.js';
import { createRedisEndpoints, createRedisOutbox, DEFAULT_REDIS_TIMEOUT, redisEvalOf } from './webhook-redis.js';
import { moveWebhookKeys } from './webhook-redis-move.js';
import { createMemoryEndpoints, createMemoryOutbox, type EndpointStore, type Outbox } from './webhook-store.js';

/** The stores of one API: shared by every instance through Redis, or this process's memory. */
export interface WebhookStores {
  readonly endpoints: EndpointStore;
  readonly outbox: Outbox;
  /**
   * With Redis and the default prefix: moves what an older runtime kept under the prefix without a hash tag
   * (see `webhook-redis-move.ts`); resolves to how much it moved. Null otherwise.
   */
  readonly moveLegacyKeys: (() => Promise<number>) | null;
}

/** Where the webhook stores of an API live in Redis. */
export interface RedisPlace {
  readonly redis: RedisClient;
  /** The `redisPrefix` option (undefined: the default, `restgen:{<api>}:`). */
  readonly prefix: string | undefined;
  readonly guard: RedisGuard;
}

/**
 * The stores the options give (`webhooks.outbox`, `webhooks.endpoints`), else those in Redis (`place`, each
 * command through its guard), else new memory stores. `who` names the caller in a startup error: on a Redis
 * Cluster, the prefix must hold a hash tag so that the outbox's keys share one slot.
 */
export function createWebhookStores(
  spec: Pick<ApiSpec, 'name'>,
  place: RedisPlace | null,
  given: Pick<WebhookOptions, 'outbox' | 'endpoints'>,
  who: string,
): WebhookStores {
  const redis = place !== null && (!given.outbox || !given.endpoints) ? place : null;
  if (redis === null) return { endpoints: given.endpoints ?? createMemoryEndpoints(), outbox: given.outbox ?? createMemoryOutbox(), moveLegacyKeys: null };
  const client = redisEvalOf(redis.redis);
  const prefix = redis.prefix ?? defaultRedisPrefix(spec.name);
  const cluster = isClusterClient(redis.redis);
  if (cluster && !hasHashTag(prefix))
    throw new Error(
      `${who}: redisPrefix ${JSON.stringify(prefix)} has no hash tag, and on a Redis Cluster the webhook outbox's keys must share one slot; put the part that names the API in braces (${JSON.stringify(`${prefix.replace(/:$/, '')}:{${spec.name.toLowerCase()}}:`)}), or leave redisPrefix out (the default is ${JSON.stringify(defaultRedisPrefix(spec.name))}).`,
    );
  // Only a single Redis can hold keys of the old default: on a cluster their scripts never ran.
  const legacy = redis.prefix === undefined && !cluster ? legacyRedisPrefix(spec.name) : null;
  return {
    endpoints: given.endpoints ?? createRedisEndpoints(client, prefix, redis.guard),
    outbox: given.outbox ?? createRedisOutbox(client, prefix, redis.guard),
    moveLegacyKeys: legacy === null ? null : () => moveWebhookKeys(client, redis.guard, legacy, prefix),
  };
}

/**
 * The options of `createWebhookDispatcher`: the stores the API instances use (their Redis, or the `outbox`
 * and `endpoints` they were given), and the timing.
 */
export interface DispatcherOptions extends WebhookOptions {
  /** The Redis the API instances keep endpoints and the outbox in (unless `outbox` and `endpoints` are given); an ioredis `Redis` or `Cluster`. */
  readonly redis?: RedisClient;
  /** The same prefix the API instances use (default `restgen:{<api>}:`). */
  readonly redisPrefix?: string;
  /** The longest wait for one Redis command, in ms (default 500); past it the poll is tried again later. */
  readonly redisTimeout?: number;
  readonly log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
}

/**
 * A dispatcher outside the API instances (they run with `webhooks: { dispatch: false }`), over the stores
 * they share: their Redis, or the `outbox` and `endpoints` they were given.
 */
export function createWebhookDispatcherFor(spec: ApiSpec, options: DispatcherOptions): WebhookDispatcher {
  assertContract(spec);
  if (!options.redis && (!options.outbox || !options.endpoints))
    throw new Error('createWebhookDispatcher needs the stores the API instances share: redis, or both outbox and endpoints');
  const place = options.redis
    ? { redis: options.redis, prefix: options.redisPrefix, guard: createRedisGuard(options.redisTimeout ?? DEFAULT_REDIS_TIMEOUT) }
    : null;
  const stores = createWebhookStores(spec, place, options, 'createWebhookDispatcher');
  const { moveLegacyKeys, ...parts } = stores;
  return createDispatcher({
    ...options,
    ...parts,
    allowPrivateUrls: options.allowPrivateUrls === true,
    ...(moveLegacyKeys ? { prepare: () => reportMoved(moveLegacyKeys, options.log) } : {}),
  });
}

/** Runs the move of legacy keys and logs what it did; a failure is logged, never thrown (the next start tries again). */
async function reportMoved(move: () => Promise<number>, log: DispatcherOptions['log']): Promise<void> {
  try {
    const moved = await move();
    const said = `moved ${moved} webhook endpoints and deliveries from the Redis keys of an older runtime`;
    // Called as methods: a logger such as pino's needs its `this`.
    if (moved > 0 && log?.info) log.info({ moved }, said);
    else if (moved > 0) log?.warn({ moved }, said);
  } catch (error) {
    logSafely(log, 'warn', { err: error }, 'could not move the webhook keys of an older runtime; the next start tries again');
  }
}

/** The built-in handlers of the webhook endpoints collection over `stores`. */
export function createBuiltinHandlers(webhooks: WebhooksSpec, stores: WebhookStores, options: WebhookOptions, now: () => number): object {
  return createEndpointHandlers({
    store: stores.endpoints,
    versions: webhooks.versions,
    allowPrivateUrls: options.allowPrivateUrls === true,
    ...(options.resolve ? { resolve: options.resolve } : {}),
    now,
  });
}

/**
 * Wraps the user's handlers to send events (and keep them in the stream's log, with `recorder`), and runs the
 * dispatcher with `scope` (unless `dispatch: false`). Deliveries the outbox refused after a change was stored wait
 * in memory (tried again, and logged as lost if still waiting when the server stops), and so do events the
 * stream's log refused then; the request's answer says so in `Webhook-Events: deferred` (or `lost`).
 */
export function startWebhooks(
  scope: FastifyInstance,
  m: Mount,
  webhooks: WebhooksSpec,
  table: Record<string, Record<string, AnyFn>>,
  stores: WebhookStores,
  options: WebhookOptions,
  recorder: EventRecorder | null,
): void {
  const log = {
    info: (obj: object, msg: string) => scope.log.info(obj, msg),
    warn: (obj: object, msg: string) => scope.log.warn(obj, msg),
    error: (obj: object, msg: string) => scope.log.error(obj, msg),
  };
  const deferred = createDeferredEvents(stores.outbox, log);
  wrapForEvents(m, table, webhooks, createEventSender(m, webhooks, stores.endpoints, stores.outbox, log), stores.outbox, deferred, recorder);
  scope.addHook('onSend', async (request, reply) => {
    const events = deferralOf(request);
    if (events !== null) reply.header('webhook-events', events);
  });
  const { moveLegacyKeys } = stores;
  if (moveLegacyKeys) scope.addHook('onReady', () => reportMoved(moveLegacyKeys, log));
  scope.addHook('onClose', async () => {
    await deferred.stop();
    await recorder?.stop();
  });
  if (options.dispatch === false) return;
  const dispatcher = createDispatcher({
    ...options,
    endpoints: stores.endpoints,
    outbox: stores.outbox,
    allowPrivateUrls: options.allowPrivateUrls === true,
    log,
  });
  scope.addHook('onReady', async () => dispatcher.start());
  scope.addHook('onClose', async () => dispatcher.stop());
}
