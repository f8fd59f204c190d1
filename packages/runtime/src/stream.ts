/**
 * The event stream inside a mounted API: its log (given, the outbox's own, Redis, or memory), the hub that
 * follows it, the recorder the event-sending handlers write through, and the routes; open streams are closed
 * when the server closes (`preClose`, before Fastify waits for connections to end), so `app.close()` never waits
 * on a reader.
 */
import type { FastifyInstance } from 'fastify';
import { createMemoryEventLog, type EventLog } from './event-log.js';
import { createRedisEventLog } from './event-log-redis.js';
import type { Placed } from './paths.js';
import type { WebhooksSpec } from './spec.js';
import type { Mount } from './state.js';
import { createFrames } from './stream-frames.js';
import { createStreamHub } from './stream-hub.js';
import { createEventRecorder, type EventRecorder } from './stream-record.js';
import { hasHashTag, isClusterClient, type RedisGuard } from './redis-guard.js';
import { placeStreamRoutes, type StreamRuntime } from './stream-route.js';
import type { RedisClient, StreamOptions } from './types.js';
import { createEventRenderers } from './webhook-events.js';
import { redisEvalOf } from './webhook-redis.js';
import type { Outbox } from './webhook-store.js';

/** The defaults of {@link StreamOptions}, in ms and bytes. */
export const STREAM_DEFAULTS = {
  heartbeat: 15_000,
  retry: 2_000,
  bufferLimit: 1_048_576,
  maxConnectionsPerPrincipal: 10,
  pollInterval: 250,
  batch: 500,
} as const;

/** An outbox that keeps the event stream's log too (an `eventLog` property): the stream reads that log. */
export interface OutboxWithLog extends Outbox {
  readonly eventLog: EventLog;
}

/** The log an outbox keeps beside its deliveries, or null. */
const logOfOutbox = (outbox: Outbox | undefined): EventLog | null => {
  const log = (outbox as Partial<OutboxWithLog> | undefined)?.eventLog;
  return log !== undefined && typeof log.read === 'function' ? log : null;
};

/**
 * Where the stream's log is: `options.log`, else the given outbox's own, else in Redis, else in memory. `who` names
 * the caller in a startup error: on a Redis Cluster, the prefix must hold a hash tag so that the log's keys share
 * one slot (the rule of the webhook outbox's keys).
 */
export function eventLogOf(
  options: StreamOptions,
  outbox: Outbox | undefined,
  redis: { client: RedisClient; prefix: string; guard: RedisGuard } | null,
  now: () => number,
  who: string,
): EventLog {
  if (options.log) return options.log;
  const own = logOfOutbox(outbox);
  if (own !== null) return own;
  if (redis === null) return createMemoryEventLog(options.retention, now);
  if (isClusterClient(redis.client) && !hasHashTag(redis.prefix))
    throw new Error(
      `${who}: redisPrefix ${JSON.stringify(redis.prefix)} has no hash tag, and on a Redis Cluster the event stream's log keys must share one slot; put the part that names the API in braces (\`restgen:{shop}:\`), or leave redisPrefix out, or give the stream a log of its own (stream.log).`,
    );
  return createRedisEventLog(redisEvalOf(redis.client), redis.prefix, redis.guard, options.retention, now);
}

/** The stream of a mounted API: the recorder for the handlers, and the routes to place. */
export interface Stream {
  readonly recorder: EventRecorder;
  readonly placed: readonly Placed[];
}

/** Starts the stream of `m` on `scope` over `eventLog`. */
export function startStream(scope: FastifyInstance, m: Mount, webhooks: WebhooksSpec, eventLog: EventLog, options: StreamOptions): Stream {
  const log = {
    info: (obj: object, msg: string) => scope.log.info(obj, msg),
    warn: (obj: object, msg: string) => scope.log.warn(obj, msg),
    error: (obj: object, msg: string) => scope.log.error(obj, msg),
  };
  const hub = createStreamHub(eventLog, { pollInterval: options.pollInterval ?? STREAM_DEFAULTS.pollInterval, batch: STREAM_DEFAULTS.batch, log });
  const runtime: StreamRuntime = {
    hub,
    frames: createFrames(createEventRenderers(m, webhooks, log), log),
    limits: {
      retry: options.retry ?? STREAM_DEFAULTS.retry,
      heartbeat: options.heartbeat ?? STREAM_DEFAULTS.heartbeat,
      bufferLimit: options.bufferLimit ?? STREAM_DEFAULTS.bufferLimit,
      batch: STREAM_DEFAULTS.batch,
    },
    perPrincipal: options.maxConnectionsPerPrincipal ?? STREAM_DEFAULTS.maxConnectionsPerPrincipal,
    open: new Set(),
    log,
  };
  scope.addHook('preClose', async () => {
    hub.stop();
    for (const connection of [...runtime.open]) connection.close('the server is shutting down');
  });
  return {
    recorder: createEventRecorder(m, webhooks, eventLog, () => hub.wake(), log),
    placed: placeStreamRoutes(m, webhooks, runtime),
  };
}
