/**
 * Webhooks inside a mounted API: the endpoint and outbox stores (memory, or Redis with `redis`), the
 * built-in endpoint handlers, the event sender wrapped around the user's handlers, and the dispatcher
 * started and stopped with the Fastify instance (`onReady`, `onClose`) unless `dispatch: false`, for a
 * separate worker made with `createWebhookDispatcher`.
 */
import type { FastifyInstance } from 'fastify';
import { assertContract } from './contract-check.js';
import type { AnyFn } from './guards.js';
import type { EventRecorder } from './stream-record.js';
import type { ApiSpec, WebhooksSpec } from './spec.js';
import type { Mount } from './state.js';
import type { RedisClient, WebhookOptions } from './types.js';
import { createDispatcher, type WebhookDispatcher } from './webhook-dispatch.js';
import { createEndpointHandlers } from './webhook-endpoints.js';
import { createEventSender, wrapForEvents } from './webhook-events.js';
import { createRedisEndpoints, createRedisOutbox, DEFAULT_REDIS_TIMEOUT, redisEvalOf } from './webhook-redis.js';
import { createMemoryEndpoints, createMemoryOutbox, type EndpointStore, type Outbox } from './webhook-store.js';

/** The stores of one API: shared by every instance through Redis, or this process's memory. */
export interface WebhookStores {
  readonly endpoints: EndpointStore;
  readonly outbox: Outbox;
}

/**
 * The stores the options give (`webhooks.outbox`, `webhooks.endpoints`), else those in `redis` under `prefix`
 * (each command bounded by `timeout` ms), else new memory stores.
 */
export function createWebhookStores(
  redis: RedisClient | undefined,
  prefix: string,
  timeout: number = DEFAULT_REDIS_TIMEOUT,
  given: Pick<WebhookOptions, 'outbox' | 'endpoints'> = {},
): WebhookStores {
  const client = redis && (!given.outbox || !given.endpoints) ? redisEvalOf(redis) : null;
  return {
    endpoints: given.endpoints ?? (client ? createRedisEndpoints(client, prefix, timeout) : createMemoryEndpoints()),
    outbox: given.outbox ?? (client ? createRedisOutbox(client, prefix, timeout) : createMemoryOutbox()),
  };
}

/**
 * The options of `createWebhookDispatcher`: the stores the API instances use (their Redis, or the `outbox`
 * and `endpoints` they were given), and the timing.
 */
export interface DispatcherOptions extends WebhookOptions {
  /** The Redis the API instances keep endpoints and the outbox in (unless `outbox` and `endpoints` are given). */
  readonly redis?: RedisClient;
  /** The same prefix the API instances use (default `restgen:<api>:`). */
  readonly redisPrefix?: string;
  /** The longest wait for one Redis command, in ms (default 500); past it the poll is tried again later. */
  readonly redisTimeout?: number;
  readonly log?: { warn(obj: object, msg: string): void };
}

/**
 * A dispatcher outside the API instances (they run with `webhooks: { dispatch: false }`), over the stores
 * they share: their Redis, or the `outbox` and `endpoints` they were given.
 */
export function createWebhookDispatcherFor(spec: ApiSpec, options: DispatcherOptions): WebhookDispatcher {
  assertContract(spec);
  if (!options.redis && (!options.outbox || !options.endpoints))
    throw new Error('createWebhookDispatcher needs the stores the API instances share: redis, or both outbox and endpoints');
  const stores = createWebhookStores(options.redis, options.redisPrefix ?? `restgen:${spec.name.toLowerCase()}:`, options.redisTimeout, options);
  return createDispatcher({
    ...options,
    ...stores,
    allowPrivateUrls: options.allowPrivateUrls === true,
  });
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

/** Wraps the user's handlers to send events (and keep them in the stream's log, with `recorder`), and runs the dispatcher with `scope` (unless `dispatch: false`). */
export function startWebhooks(
  scope: FastifyInstance,
  m: Mount,
  webhooks: WebhooksSpec,
  table: Record<string, Record<string, AnyFn>>,
  stores: WebhookStores,
  options: WebhookOptions,
  recorder: EventRecorder | null,
): void {
  const log = { warn: (obj: object, msg: string) => scope.log.warn(obj, msg) };
  wrapForEvents(m, table, webhooks, createEventSender(m, webhooks, stores.endpoints, stores.outbox, log), stores.outbox, recorder);
  if (options.dispatch === false) return;
  const dispatcher = createDispatcher({
    ...options,
    ...stores,
    allowPrivateUrls: options.allowPrivateUrls === true,
    log,
  });
  scope.addHook('onReady', async () => dispatcher.start());
  scope.addHook('onClose', async () => dispatcher.stop());
}
