/**
 * @module The Redis commands the runtime needs, in a module of their own: the stores that use Redis (idempotency,
 * rate limits, webhooks) and the server's options all name it, and none of them has to import the others for it.
 */

/**
 * The Redis commands the server uses (an ioredis `Redis` or `Cluster` fits): rate-limit counters, idempotent
 * answers and their in-progress markers, webhook endpoints and the outbox. Every command is bounded by
 * `redisTimeout`, whatever the client's own settings.
 */
export interface RedisClient {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: 'PX', milliseconds: number): Promise<unknown>;
  set(key: string, value: string, mode: 'PX', milliseconds: number, condition: 'NX'): Promise<'OK' | null>;
  del(...keys: string[]): Promise<number>;
  /** Webhooks keep endpoints and the outbox in Redis with Lua scripts (required for them only). */
  eval?(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
  defineCommand(name: string, definition: { lua: string; numberOfKeys?: number }): void;
}
