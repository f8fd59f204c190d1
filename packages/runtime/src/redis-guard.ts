/**
 * Every Redis command of one server (or one dispatcher) goes through one guard: it is bounded by `redisTimeout`,
 * and a command that fails for want of Redis (no answer in time, the connection lost, a cluster without a
 * primary for the slot) opens the guard for a moment. While it is open, commands fail at once instead of each
 * waiting out the bound again, so a request that needs Redis several times (a rate limit, then the webhook
 * endpoints) answers within one `redisTimeout`, not one per command. An error reply of a working Redis (a
 * script error, a wrong type) is that command's failure only.
 */

/** `: <message>` of an Error, or nothing (a value whose prototype or message throws when read gives nothing). */
function reasonOf(cause: unknown): string {
  try {
    return cause instanceof Error ? `: ${String(cause.message)}` : '';
  } catch {
    return '';
  }
}

/** A Redis command that failed or did not answer within the bound. */
export class RedisUnavailable extends Error {
  constructor(cause: unknown) {
    super(`Redis did not answer${reasonOf(cause)}`, { cause });
    this.name = 'RedisUnavailable';
  }
}

/** How long the guard stays open after a command failed for want of Redis, in ms (a 503 says `Retry-After: 1`). */
export const REDIS_COOLDOWN = 1_000;

/** Runs Redis commands bounded in time, failing at once while Redis was just found away. */
export interface RedisGuard {
  /** The result of `command`, or a {@link RedisUnavailable}: at once while the guard is open, else within the bound. */
  run<T>(command: () => Promise<T>): Promise<T>;
}

/** Error replies of a Redis that is there but cannot serve the slot now (a failover, a node loading its data). */
const AWAY_REPLIES = /^(CLUSTERDOWN|TRYAGAIN|MASTERDOWN|LOADING)\b/;

/** Whether `error` says Redis is away (rather than that Redis refused this one command). */
function meansAway(error: unknown): boolean {
  try {
    if (!(error instanceof Error)) return true;
    // ioredis names the errors Redis replies with ReplyError; anything else is the connection's.
    if (error.name !== 'ReplyError') return true;
    return AWAY_REPLIES.test(error.message);
  } catch {
    // A client of the user's that throws a value whose prototype or properties throw when read: not a reply.
    return true;
  }
}

/**
 * A guard whose commands wait at most `timeout` ms; after a command failed for want of Redis, commands fail at
 * once for `cooldown` ms (then the next one tries Redis again). `now` is the clock (tests inject one).
 */
export function createRedisGuard(timeout: number, cooldown: number = REDIS_COOLDOWN, now: () => number = Date.now): RedisGuard {
  let openUntil = 0;
  const away = (cause: unknown): RedisUnavailable => {
    openUntil = now() + cooldown;
    return new RedisUnavailable(cause);
  };
  return {
    run<T>(command: () => Promise<T>): Promise<T> {
      if (now() < openUntil) return Promise.reject(new RedisUnavailable(new Error('Redis was found away a moment ago')));
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(away(new Error(`no answer within ${timeout} ms`))), timeout);
        let sent: Promise<T>;
        try {
          sent = command();
        } catch (error) {
          clearTimeout(timer);
          reject(meansAway(error) ? away(error) : new RedisUnavailable(error));
          return;
        }
        sent.then(
          (value) => {
            clearTimeout(timer);
            resolve(value);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(meansAway(error) ? away(error) : new RedisUnavailable(error));
          },
        );
      });
    },
  };
}

/**
 * Whether `prefix` holds a complete hash tag (`{...}`, not empty): every key that starts with it then hashes to
 * the same slot of a Redis Cluster, so a script may use several of them at once.
 */
export function hasHashTag(prefix: string): boolean {
  const open = prefix.indexOf('{');
  if (open < 0) return false;
  const close = prefix.indexOf('}', open + 1);
  return close > open + 1;
}

/** The default prefix of an API's Redis keys: `restgen:{<api>}:`, one hash tag, so one slot of a cluster. */
export const defaultRedisPrefix = (api: string): string => `restgen:{${api.toLowerCase()}}:`;

/** The default prefix before runtime 0.3 (no hash tag), whose webhook keys a server moves to the new one. */
export const legacyRedisPrefix = (api: string): string => `restgen:${api.toLowerCase()}:`;

/** Whether `redis` is a cluster client (ioredis's `Cluster` says so with `isCluster`). */
export const isClusterClient = (redis: object): boolean => (redis as { isCluster?: unknown }).isCluster === true;
