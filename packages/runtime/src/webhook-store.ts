/**
 * Where webhook endpoints and the outbox of deliveries live: in memory (one instance), or in Redis (several
 * instances share them). A claimed delivery is leased: its due time moves past the lease, so an instance
 * that dies mid-delivery loses it and another instance delivers it after the lease expires; a completion
 * or retry counts only with the current lease token, so two instances never hold one delivery at once.
 */
import { randomUUID } from "node:crypto";
import { DueQueue } from "./due-queue.js";

/** A webhook endpoint as stored (secrets and failure counts never leave the server). */
export interface EndpointRecord {
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly description?: string;
  readonly status: "enabled" | "disabled";
  readonly disabledReason: string | null;
  readonly version: string;
  readonly createdAt: string;
  /** The current secret first; a rotated-out secret stays until `expiresAt` (ms). */
  readonly secrets: readonly {
    readonly secret: string;
    readonly expiresAt: number | null;
  }[];
  /** Messages in a row that failed every attempt (reset by a successful delivery). */
  readonly failedMessages: number;
}

/** The endpoints, by id. */
export interface EndpointStore {
  list(): Promise<EndpointRecord[]>;
  get(id: string): Promise<EndpointRecord | null>;
  /** Stores a new endpoint. */
  put(record: EndpointRecord): Promise<void>;
  /**
   * Replaces an endpoint with what `change` makes of it, atomically: a change made meanwhile by another
   * request or instance (a rotated secret, a delete) is never overwritten with an older copy; `change`
   * then runs again on the newer one. Null when there is no such endpoint (nothing is written).
   */
  update(
    id: string,
    change: (current: EndpointRecord) => EndpointRecord,
  ): Promise<EndpointRecord | null>;
  delete(id: string): Promise<boolean>;
}

/** One message to one endpoint: the `webhook-id` stays the same across its attempts. */
export interface Delivery {
  readonly id: string;
  readonly endpoint: string;
  readonly type: string;
  readonly body: string;
  /** Attempts made so far. */
  readonly attempts: number;
  readonly dueAt: number;
}

/** A delivery an instance holds until `complete` or `retry` (or until its lease runs out). */
export interface Claimed extends Delivery {
  readonly lease: string;
}

/** The deliveries waiting to be made. */
export interface Outbox {
  add(deliveries: readonly Delivery[]): Promise<void>;
  /** Up to `max` deliveries due at `now`, each leased for `leaseMs`. */
  claim(now: number, max: number, leaseMs: number): Promise<Claimed[]>;
  /** Done (delivered, or given up): forgotten. False when the lease was lost. */
  complete(claimed: Claimed): Promise<boolean>;
  /** Tried again at `dueAt`. False when the lease was lost. */
  retry(claimed: Claimed, dueAt: number): Promise<boolean>;
}

/** Endpoints in memory. */
export function createMemoryEndpoints(): EndpointStore {
  const byId = new Map<string, EndpointRecord>();
  return {
    list: async () =>
      [...byId.values()].sort((a, b) =>
        a.createdAt === b.createdAt
          ? a.id.localeCompare(b.id)
          : a.createdAt.localeCompare(b.createdAt),
      ),
    get: async (id) => byId.get(id) ?? null,
    put: async (record) => void byId.set(record.id, record),
    // Read, changed and written in one synchronous step: nothing runs in between.
    update: async (id, change) => {
      const current = byId.get(id);
      if (current === undefined) return null;
      const next = change(current);
      byId.set(id, next);
      return next;
    },
    delete: async (id) => byId.delete(id),
  };
}

/**
 * An outbox in memory. Due times are kept in a heap ({@link DueQueue}), so a poll costs O(1) when nothing is
 * due and O(k log n) for k due deliveries, however many wait (a dead endpoint's retries can be many).
 */
export function createMemoryOutbox(): Outbox {
  const waiting = new Map<
    string,
    Delivery & {
      readonly lease: string | null;
      readonly seq: number;
      readonly order: number;
    }
  >();
  const queue = new DueQueue();
  // Deliveries due at the same time come out in the order they were first added.
  let added = 0;
  const hold = (d: Delivery, lease: string | null) => {
    const order = waiting.get(d.id)?.order ?? ++added;
    waiting.set(d.id, {
      ...d,
      lease,
      order,
      seq: queue.push(d.id, d.dueAt, order),
    });
  };
  return {
    add: async (deliveries) => {
      for (const d of deliveries) hold(d, null);
    },
    claim: async (now, max, leaseMs) => {
      const claimed: Claimed[] = [];
      while (claimed.length < max) {
        const top = queue.peek();
        if (top === undefined || top.at > now) break;
        queue.pop();
        const d = waiting.get(top.id);
        // Completed, or pushed again since (claimed, retried): this entry is stale.
        if (d === undefined || d.seq !== top.seq) continue;
        const lease = randomUUID();
        hold({ ...d, dueAt: now + leaseMs }, lease);
        claimed.push({
          id: d.id,
          endpoint: d.endpoint,
          type: d.type,
          body: d.body,
          attempts: d.attempts,
          dueAt: d.dueAt,
          lease,
        });
      }
      return claimed;
    },
    complete: async (c) => {
      if (waiting.get(c.id)?.lease !== c.lease) return false;
      return waiting.delete(c.id);
    },
    retry: async (c, dueAt) => {
      if (waiting.get(c.id)?.lease !== c.lease) return false;
      hold(
        {
          id: c.id,
          endpoint: c.endpoint,
          type: c.type,
          body: c.body,
          attempts: c.attempts + 1,
          dueAt,
        },
        null,
      );
      return true;
    },
  };
}

/** The one Redis command the webhook stores need (an ioredis client has it). */
export interface RedisEval {
  eval(
    script: string,
    numKeys: number,
    ...args: (string | number)[]
  ): Promise<unknown>;
}

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
// KEYS: due, deliveries, leases. ARGV: now, max, leaseMs, token prefix.
const CLAIM = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for i, id in ipairs(ids) do
  local data = redis.call('HGET', KEYS[2], id)
  if data then
    local token = ARGV[4] .. ':' .. i
    redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[3]), id)
    redis.call('HSET', KEYS[3], id, token)
    table.insert(out, token)
    table.insert(out, data)
  else
    redis.call('ZREM', KEYS[1], id)
  end
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
  if (typeof fn !== "function")
    throw new Error(
      "webhooks with redis need a client with eval(script, numKeys, ...args) (ioredis has it)",
    );
  return redis as RedisEval;
}

/** Endpoints in one Redis hash, shared by every instance. */
export function createRedisEndpoints(
  redis: RedisEval,
  prefix: string,
): EndpointStore {
  const key = `${prefix}wh:endpoints`;
  const parse = (v: unknown): EndpointRecord | null =>
    typeof v === "string" ? (JSON.parse(v) as EndpointRecord) : null;
  return {
    list: async () => {
      const all = (await redis.eval(ALL, 1, key)) as unknown[];
      return all
        .flatMap((v) => parse(v) ?? [])
        .sort((a, b) =>
          a.createdAt === b.createdAt
            ? a.id.localeCompare(b.id)
            : a.createdAt.localeCompare(b.createdAt),
        );
    },
    get: async (id) => parse(await redis.eval(GET, 1, key, id)),
    put: async (record) =>
      void (await redis.eval(PUT, 1, key, record.id, JSON.stringify(record))),
    update: async (id, change) => {
      for (let round = 0; round < SWAP_ROUNDS; round++) {
        const read = await redis.eval(GET, 1, key, id);
        const current = parse(read);
        if (current === null) return null;
        const next = change(current);
        if (next === current) return current;
        const text = JSON.stringify(next);
        if ((await redis.eval(SWAP, 1, key, id, read as string, text)) === 1)
          return next;
      }
      throw new Error(
        `webhook endpoint ${id}: more than ${SWAP_ROUNDS} concurrent updates won over this one`,
      );
    },
    delete: async (id) => (await redis.eval(DELETE, 1, key, id)) === 1,
  };
}

/** An outbox in Redis: a sorted set of due times, a hash of deliveries and a hash of lease tokens. */
export function createRedisOutbox(redis: RedisEval, prefix: string): Outbox {
  const keys = [
    `${prefix}wh:due`,
    `${prefix}wh:deliveries`,
    `${prefix}wh:leases`,
  ];
  const data = (d: Delivery) => JSON.stringify({ ...d, lease: undefined });
  return {
    add: async (deliveries) => {
      if (deliveries.length === 0) return;
      const args = deliveries.flatMap((d) => [d.id, d.dueAt, data(d)]);
      await redis.eval(ADD, 2, keys[1]!, keys[0]!, ...args);
    },
    claim: async (now, max, leaseMs) => {
      const out = (await redis.eval(
        CLAIM,
        3,
        ...keys,
        now,
        max,
        leaseMs,
        randomUUID(),
      )) as string[];
      const claimed: Claimed[] = [];
      for (let i = 0; i < out.length; i += 2)
        claimed.push({
          ...(JSON.parse(out[i + 1]!) as Delivery),
          lease: out[i]!,
        });
      return claimed;
    },
    complete: async (c) =>
      (await redis.eval(COMPLETE, 3, ...keys, c.id, c.lease)) === 1,
    retry: async (c, dueAt) =>
      (await redis.eval(
        RETRY,
        3,
        ...keys,
        c.id,
        c.lease,
        dueAt,
        data({ ...c, attempts: c.attempts + 1, dueAt }),
      )) === 1,
  };
}
