/**
 * The event log in Redis, shared by every instance: a Redis stream whose entry ids are the log's sequence
 * (`<seq>-0`) and a counter that hands the sequences out, both under the API's prefix, so in the one slot of a Redis
 * Cluster its hash tag names (`restgen:{shop}:`; a server refuses a prefix without one on a cluster, as it does for
 * the webhook outbox). Every command goes through the server's Redis guard. Appends and reads are Lua scripts, each atomic: an append numbers its
 * events and adds them in one step, so a read never sees a later event without the earlier ones. Each append
 * drops what is past the retention: entries older than `retention.ms` (looked at from the oldest, a bounded number
 * per append) and beyond about `retention.events` (Redis trims whole nodes: `MAXLEN ~`).
 */
import { createRedisGuard, type RedisGuard } from './redis-guard.js';
import { isExpired, type EventLog, type LoggedEvent, type Retention } from './event-log.js';
import { DEFAULT_REDIS_TIMEOUT, type RedisEval } from './webhook-redis.js';

/** The default retention in Redis: a day, and about the newest 100,000 events. */
export const REDIS_RETENTION: Retention = { ms: 86_400_000, events: 100_000 };

/**
 * KEYS: log, seq. ARGV: now, retention ms, max events, then type, time, data per event. Sequences are written
 * with %d: Lua's own number-to-text turns 1e14 and above into exponent notation.
 */
const APPEND = `
for i = 4, #ARGV, 3 do
  local seq = redis.call('INCR', KEYS[2])
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], string.format('%d-0', seq), 't', ARGV[i], 'at', ARGV[i + 1], 'd', ARGV[i + 2])
end
local oldest = tonumber(ARGV[1]) - tonumber(ARGV[2])
for round = 1, 10 do
  local page = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 100)
  if #page == 0 then return 1 end
  for _, entry in ipairs(page) do
    local fields = entry[2]
    local at = 0
    for j = 1, #fields, 2 do if fields[j] == 'at' then at = tonumber(fields[j + 1]) end end
    if at >= oldest then
      redis.call('XTRIM', KEYS[1], 'MINID', entry[1])
      return 1
    end
  end
  local last = tonumber(string.match(page[#page][1], '^(%d+)'))
  redis.call('XTRIM', KEYS[1], 'MINID', string.format('%d-0', last + 1))
end
return 1`;

/** KEYS: log, seq. ARGV: after, max. Answers the head, whether `after` expired (1/0), and the entries after it. */
const READ = `
local head = tonumber(redis.call('GET', KEYS[2]) or '0')
local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
local first = head + 1
if #oldest > 0 then first = tonumber(string.match(oldest[1][1], '^(%d+)')) end
local after, max = tonumber(ARGV[1]), tonumber(ARGV[2])
if after > head or after < first - 1 then return {head, 1, first, {}} end
if max == 0 then return {head, 0, first, {}} end
return {head, 0, first, redis.call('XRANGE', KEYS[1], string.format('%d-0', after + 1), '+', 'COUNT', max)}`;

/** One entry as XRANGE answers it: the id and the fields as a flat list. */
type Entry = [string, string[]];

const eventOf = ([id, fields]: Entry): LoggedEvent => {
  const field = (name: string): string => fields[fields.indexOf(name) + 1] ?? '';
  return { seq: Number(id.slice(0, id.indexOf('-'))), type: field('t'), time: Number(field('at')), data: field('d') };
};

/**
 * The event log in Redis under `prefix` (keys `<prefix>ev:log` and `<prefix>ev:seq`), each command through `guard`
 * (default: bounded by 500 ms; a late or failed one throws `RedisUnavailable`).
 */
export function createRedisEventLog(
  client: RedisEval,
  prefix: string,
  guard: RedisGuard = createRedisGuard(DEFAULT_REDIS_TIMEOUT),
  retention: Partial<Retention> = {},
  now: () => number = Date.now,
): EventLog {
  const kept: Retention = { ms: retention.ms ?? REDIS_RETENTION.ms, events: retention.events ?? REDIS_RETENTION.events };
  // Both scripts use both keys: one slot on a Redis Cluster, the prefix's hash tag.
  const keys = [`${prefix}ev:log`, `${prefix}ev:seq`] as const;
  const run = (script: string, ...args: (string | number)[]) => guard.run(() => client.eval(script, 2, ...keys, ...args));
  return {
    retention: kept,
    append: async (events) => {
      if (events.length === 0) return;
      await run(APPEND, now(), kept.ms, kept.events, ...events.flatMap((e) => [e.type, e.time, e.data]));
    },
    read: async (after, max) => {
      const [head, expired, first, entries] = (await run(READ, after, max)) as [number, number, number, Entry[]];
      // The script judged it; the same rule is the memory log's (a reader of either sees the same answers).
      return { events: entries.map(eventOf), head, expired: expired === 1 || isExpired(after, first, head) };
    },
  };
}
