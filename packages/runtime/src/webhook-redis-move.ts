/**
 * Moving the webhook keys of a single Redis from the prefix runtimes before 0.3 used by default
 * (`restgen:shop:`, no hash tag) to today's (`restgen:{shop}:`), so that an upgrade keeps every endpoint and
 * every delivery in flight. A server and a dispatcher with the default prefix run it when they start; only on
 * a single Redis (a cluster never held the old keys: their scripts failed there). A batch moves at most
 * {@link MOVE_BATCH} deliveries in one script, so a large backlog never blocks Redis for long; an endpoint or a
 * delivery already under the new keys is kept as it is there.
 */
import type { RedisGuard } from './redis-guard.js';
import { webhookKeys, type RedisEval } from './webhook-redis.js';

/** The most deliveries one script moves (the script is run again until nothing is left). */
export const MOVE_BATCH = 500;

/**
 * KEYS: old endpoints, due, deliveries, leases, then the new ones. ARGV: batch size. Moves every endpoint, and up
 * to a batch of deliveries (their due times with them; a lease of an old instance is dropped, so its delivery is
 * due again when that lease would have ended). Deletes the old keys once they are empty. Returns what it moved and
 * how many deliveries are left under the old keys.
 */
const MOVE = `
local moved = 0
local endpoints = redis.call('HGETALL', KEYS[1])
for i = 1, #endpoints, 2 do moved = moved + redis.call('HSETNX', KEYS[5], endpoints[i], endpoints[i + 1]) end
redis.call('DEL', KEYS[1])
local due = redis.call('ZRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
for i = 1, #due, 2 do
  local id = due[i]
  local data = redis.call('HGET', KEYS[3], id)
  if data and redis.call('HSETNX', KEYS[7], id, data) == 1 then
    redis.call('ZADD', KEYS[6], due[i + 1], id)
    moved = moved + 1
  end
  redis.call('ZREM', KEYS[2], id)
  redis.call('HDEL', KEYS[3], id)
  redis.call('HDEL', KEYS[4], id)
end
local left = redis.call('ZCARD', KEYS[2])
if left == 0 then redis.call('DEL', KEYS[3], KEYS[4]) end
return {moved, left}`;

/** Moves the webhook keys under `from` to `to` (see the module): how many endpoints and deliveries moved. */
export async function moveWebhookKeys(redis: RedisEval, guard: RedisGuard, from: string, to: string): Promise<number> {
  const old = webhookKeys(from);
  const next = webhookKeys(to);
  const keys = [old.endpoints, old.due, old.deliveries, old.leases, next.endpoints, next.due, next.deliveries, next.leases];
  let total = 0;
  for (;;) {
    const [moved, left] = (await guard.run(() => redis.eval(MOVE, keys.length, ...keys, MOVE_BATCH))) as [number, number];
    total += moved;
    if (left === 0) return total;
  }
}
