/**
 * The webhook stores in Redis, shared by every instance: endpoints in one hash; the outbox as a sorted set
 * of due times, a hash of deliveries and a hash of lease tokens, changed only by Lua scripts (each one
 * atomic). The keys start with the server's `redisPrefix`; a script that uses several keys names only keys of
 * one store, and the prefix's hash tag (`restgen:{shop}:`) puts them in one slot of a Redis Cluster. Every
 * command goes through the server's guard: a Redis that is away or frozen answers {@link RedisUnavailable}
 * within `redisTimeout` (the route answers 503 with `Retry-After`), never a wait as long as the client's own
 * retries.
 */
import { randomUUID } from 'node:crypto';
import { createRedisGuard, RedisUnavailable, type RedisGuard } from './redis-guard.js';
import { CLAIM_SCAN_MAX, type Claimed, type Delivery, type EndpointRecord, type EndpointStore, type Outbox } from './webhook-store.js';

export { RedisUnavailable };

/** The one Redis command the webhook stores need (an ioredis client has it). */
export interface RedisEval {
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

/** The default bound on one Redis command of the webhook stores, in ms (the server passes `redisTimeout`). */
export const DEFAULT_REDIS_TIMEOUT = 500;

const PUT = `redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) return 1`;
// Written only while the stored text is still the one read (compare and set). ARGV: id, read, next.
const SWAP = `if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) return 1`;
/**
 * Compare-and-set rounds before an update gives up. Every lost round is a round another writer won, so with
 * N writers at once an update needs at most N rounds: the cap only stops a runaway.
 */
const SWAP_ROUNDS = 1000;
const DELETE = `return redis.call('HDEL', KEYS[1], ARGV[1])`;
const GET = `return redis.call('HGET', KEYS[1], ARGV[1])`;
const ALL = `return redis.call('HVALS', KEYS[1])`;
const ADD = `for i = 1, #ARGV, 3 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 2]) redis.call('ZADD', KEYS[2], ARGV[i + 1], ARGV[i]) end return 1`;
/**
 * KEYS: due, deliveries, leases. ARGV: now, max, leaseMs, token prefix, perEndpoint (0: no fairness),
 * deferUntil, scan limit, slow slots, then per endpoint in flight or slow: id, count, slow (1 or 0). Walks the
 * due ids in pages; an id of a slow endpoint is leased while the slow slots last (and its endpoint is below its
 * limit), else moved to deferUntil; one of another endpoint at its limit is passed over (it stays due), any
 * other is leased. The endpoint is read from the start of the stored JSON (written as
 * `{"id":...,"endpoint":...}`), or decoded when it is not there.
 */
const CLAIM = `
local now, max, leaseMs = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local per, deferUntil, scanMax, slowSlots = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local held, slow = {}, {}
for i = 9, #ARGV, 3 do
  held[ARGV[i]] = tonumber(ARGV[i + 1])
  if ARGV[i + 2] == '1' then slow[ARGV[i]] = true end
end
local out, n, offset, scanned = {}, 0, 0, 0
while n < max and scanned < scanMax do
  local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', offset, 100)
  if #ids == 0 then break end
  local moved = 0
  for _, id in ipairs(ids) do
    if n >= max or scanned >= scanMax then break end
    scanned = scanned + 1
    local data = redis.call('HGET', KEYS[2], id)
    if not data then
      redis.call('ZREM', KEYS[1], id)
      moved = moved + 1
    else
      local e = string.match(data, '^{"id":"[^"]*","endpoint":"([^"]*)"')
      if not e then e = cjson.decode(data).endpoint end
      local take = true
      if slow[e] then
        if slowSlots <= 0 or (held[e] or 0) >= per then
          redis.call('ZADD', KEYS[1], deferUntil, id)
          moved = moved + 1
          take = false
        else
          slowSlots = slowSlots - 1
        end
      elseif per > 0 and (held[e] or 0) >= per then
        offset = offset + 1
        take = false
      end
      if take then
        held[e] = (held[e] or 0) + 1
        n = n + 1
        local token = ARGV[4] .. ':' .. n
        redis.call('ZADD', KEYS[1], now + leaseMs, id)
        redis.call('HSET', KEYS[3], id, token)
        moved = moved + 1
        table.insert(out, token)
        table.insert(out, data)
      end
    end
  end
  if #ids < 100 then break end
end
return out`;
// KEYS: due, deliveries, leases. ARGV: id, token.
const COMPLETE = `
if redis.call('HGET', KEYS[3], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1]) redis.call('HDEL', KEYS[2], ARGV[1]) redis.call('HDEL', KEYS[3], ARGV[1])
return 1`;
// KEYS: due, deliveries, leases. ARGV: id, token, dueAt, data.
const RETRY = `
if redis.call('HGET', KEYS[3], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4]) redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) redis.call('HDEL', KEYS[3], ARGV[1])
return 1`;

/** The redis client as the stores use it; a client without `eval` is a startup error. */
export function redisEvalOf(redis: object): RedisEval {
  const fn = (redis as { eval?: unknown }).eval;
  if (typeof fn !== 'function') throw new Error('webhooks with redis need a client with eval(script, numKeys, ...args) (ioredis has it)');
  return redis as RedisEval;
}

/** `redis` with every command through `guard`: a late or failed one throws {@link RedisUnavailable}. */
function guardedEval(redis: RedisEval, guard: RedisGuard): RedisEval {
  return { eval: (...args) => guard.run(() => redis.eval(...args)) };
}

/** The keys of the webhook stores under `prefix`. */
export const webhookKeys = (prefix: string) => ({
  endpoints: `${prefix}wh:endpoints`,
  due: `${prefix}wh:due`,
  deliveries: `${prefix}wh:deliveries`,
  leases: `${prefix}wh:leases`,
});

/** Endpoints in one Redis hash, shared by every instance; each command through `guard` (default: bounded by 500 ms). */
export function createRedisEndpoints(client: RedisEval, prefix: string, guard: RedisGuard = createRedisGuard(DEFAULT_REDIS_TIMEOUT)): EndpointStore {
  const redis = guardedEval(client, guard);
  const key = webhookKeys(prefix).endpoints;
  const parse = (v: unknown): EndpointRecord | null => (typeof v === 'string' ? (JSON.parse(v) as EndpointRecord) : null);
  return {
    list: async () => {
      const all = (await redis.eval(ALL, 1, key)) as unknown[];
      return all
        .flatMap((v) => parse(v) ?? [])
        .sort((a, b) => (a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt.localeCompare(b.createdAt)));
    },
    get: async (id) => parse(await redis.eval(GET, 1, key, id)),
    put: async (record) => void (await redis.eval(PUT, 1, key, record.id, JSON.stringify(record))),
    update: async (id, change) => {
      for (let round = 0; round < SWAP_ROUNDS; round++) {
        const read = await redis.eval(GET, 1, key, id);
        const current = parse(read);
        if (current === null) return null;
        const next = change(current);
        if (next === current) return current;
        const text = JSON.stringify(next);
        if ((await redis.eval(SWAP, 1, key, id, read as string, text)) === 1) return next;
      }
      throw new Error(`webhook endpoint ${id}: more than ${SWAP_ROUNDS} concurrent updates won over this one`);
    },
    delete: async (id) => (await redis.eval(DELETE, 1, key, id)) === 1,
  };
}

/** An outbox in Redis: a sorted set of due times, a hash of deliveries and a hash of lease tokens. */
export function createRedisOutbox(client: RedisEval, prefix: string, guard: RedisGuard = createRedisGuard(DEFAULT_REDIS_TIMEOUT)): Outbox {
  const redis = guardedEval(client, guard);
  const names = webhookKeys(prefix);
  const keys = [names.due, names.deliveries, names.leases];
  // The id and the endpoint first: the claim script reads the endpoint from the start of the text.
  const data = (d: Delivery) =>
    JSON.stringify({
      id: d.id,
      endpoint: d.endpoint,
      type: d.type,
      body: d.body,
      attempts: d.attempts,
      dueAt: d.dueAt,
    });
  return {
    add: async (deliveries) => {
      if (deliveries.length === 0) return;
      const args = deliveries.flatMap((d) => [d.id, d.dueAt, data(d)]);
      await redis.eval(ADD, 2, keys[1]!, keys[0]!, ...args);
    },
    claim: async (now, max, leaseMs, fairness) => {
      const held: (string | number)[] = [];
      if (fairness) {
        for (const [endpoint, count] of fairness.inFlight) held.push(endpoint, count, fairness.slow.has(endpoint) ? 1 : 0);
        for (const endpoint of fairness.slow) if (!fairness.inFlight.has(endpoint)) held.push(endpoint, 0, 1);
      }
      const out = (await redis.eval(
        CLAIM,
        3,
        ...keys,
        now,
        max,
        leaseMs,
        randomUUID(),
        fairness?.perEndpoint ?? 0,
        fairness?.deferUntil ?? now,
        CLAIM_SCAN_MAX,
        fairness?.slowSlots ?? 0,
        ...held,
      )) as string[];
      const claimed: Claimed[] = [];
      for (let i = 0; i < out.length; i += 2)
        claimed.push({
          ...(JSON.parse(out[i + 1]!) as Delivery),
          lease: out[i]!,
        });
      return claimed;
    },
    complete: async (c) => (await redis.eval(COMPLETE, 3, ...keys, c.id, c.lease)) === 1,
    retry: async (c, dueAt) => (await redis.eval(RETRY, 3, ...keys, c.id, c.lease, dueAt, data({ ...c, attempts: c.attempts + 1, dueAt }))) === 1,
  };
}
