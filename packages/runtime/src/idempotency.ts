/**
 * Idempotency-Key replay: the answer to a create or a transition is kept under its key (in memory, or in
 * Redis shared by every instance) and replayed to a retry. One request runs per key: an in-progress marker
 * (a pending promise in memory, `SET NX PX` in Redis) makes a concurrent duplicate wait for the first answer.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { RedisGuard } from './redis-guard.js';
import type { RedisClient } from './redis-client.js';

/** A remembered answer. */
export interface Answer {
  readonly status: number;
  readonly location: string | null;
  /** The ETag of the resource answered (null for a problem). */
  readonly etag?: string | null;
  /** The body as a value (a problem, a transition's resource, an answer stored by an earlier runtime). */
  readonly body?: unknown;
  /** The body as the JSON text the checked writer wrote (a create's resource): sent and stored as it is. */
  readonly text?: string;
}

/**
 * What `remember` found: an answer (`replayed` when it was stored before; null when `make` failed and
 * nothing is remembered), `reused` when the key was used with another body, `busy` when the first request
 * with this key did not finish before `deadline`.
 */
export type Remembered =
  | {
      readonly kind: 'answer';
      readonly answer: Answer | null;
      readonly replayed: boolean;
    }
  | { readonly kind: 'reused' }
  | { readonly kind: 'busy' };

/**
 * Writes an answer through `tx`, the handler's open transaction (a store that keeps answers in the handler's
 * database); throws when another request's answer for the key was committed first, which aborts the handler's
 * transaction.
 */
export type RecordAnswer = (tx: unknown, answer: Answer) => Promise<void>;

/** Where answers are kept. */
export interface AnswerStore {
  /**
   * The answer stored under `key` for the same `fingerprint`, or runs `make` (once per key, across
   * concurrent requests) and stores its answer. Waits for a concurrent first request until `deadline`
   * (a `performance.now()` time). `make` resolves to null when there is nothing to remember (it failed); a
   * store that writes answers in the handler's transaction hands it a {@link RecordAnswer}, the others null.
   */
  remember(key: string, fingerprint: string, make: (record: RecordAnswer | null) => Promise<Answer | null>, deadline: number): Promise<Remembered>;
}

/** JSON with object keys sorted at every depth: the same value gives the same text whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The store key of an Idempotency-Key: who sent it (a principal's id, or the address of an anonymous client),
 * what it is for (`v2:orders`, `v2:orders:<id>:cancel`) and the key itself. Encoded as a JSON array: principal
 * ids, resource ids and keys may all contain `:`, and two senders or two operations must never share a key.
 */
export const answerKeyOf = (sender: { readonly principal: string } | { readonly address: string }, scope: string, key: string): string =>
  JSON.stringify('principal' in sender ? ['p', sender.principal, scope, key] : ['ip', sender.address, scope, key]);

/** The fingerprint of a request body: SHA-256 of its canonical JSON. */
export const fingerprintOf = (body: unknown): string => createHash('sha256').update(canonicalJson(body)).digest('base64url');

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The requests with an Idempotency-Key running in this process, one per key. */
export interface Running {
  /**
   * The request running with `key`, if any: null when none runs, 'reused' when it runs with another body (both at
   * once, so that a caller that finds none runs its own before anything else can), else a wait for it: 'again' once
   * it ended (look for its answer), 'busy' when it still runs at `deadline`.
   */
  waitFor(key: string, fingerprint: string, deadline: number): null | 'reused' | Promise<'again' | 'busy'>;
  /** Runs `work` as the request with `key` (the others wait for it). */
  run<T>(key: string, fingerprint: string, work: () => Promise<T>): Promise<T>;
}

/** No request running yet: a retry that arrives while the first attempt runs waits for it instead of running twice. */
export function createRunning(): Running {
  const pending = new Map<string, { fingerprint: string; done: Promise<unknown> }>();
  return {
    waitFor(key, fingerprint, deadline) {
      const running = pending.get(key);
      if (!running) return null;
      if (running.fingerprint !== fingerprint) return 'reused';
      const left = deadline - performance.now();
      if (left <= 0) return Promise.resolve('busy');
      return Promise.race([running.done, wait(left)]).then(() => 'again');
    },
    async run(key, fingerprint, work) {
      const done = work();
      pending.set(key, { fingerprint, done: done.catch(() => null) });
      try {
        return await done;
      } finally {
        pending.delete(key);
      }
    },
  };
}

/**
 * Answers in this process: at most `maxEntries`, the oldest forgotten first. Entries expire in the order
 * they were stored (one TTL for all), so expiry and eviction look only at the oldest: O(1) per request.
 */
export function createMemoryAnswers(ttl: number, now: () => number, maxEntries = 10_000): AnswerStore {
  const answers = new Map<string, { answer: Answer; fingerprint: string; expires: number }>();
  const running = createRunning();
  const expire = (t: number) => {
    for (const [key, entry] of answers) {
      if (entry.expires > t && answers.size <= maxEntries) break;
      answers.delete(key);
    }
  };
  return {
    async remember(key, fingerprint, make, deadline) {
      for (;;) {
        expire(now());
        const stored = answers.get(key);
        if (stored) return stored.fingerprint === fingerprint ? { kind: 'answer', answer: stored.answer, replayed: true } : { kind: 'reused' };
        const waited = running.waitFor(key, fingerprint, deadline);
        if (waited === 'reused') return { kind: 'reused' };
        if (waited !== null) {
          if ((await waited) === 'busy') return { kind: 'busy' };
          continue;
        }
        return running.run(key, fingerprint, async (): Promise<Remembered> => {
          const answer = await make(null);
          if (answer !== null) {
            answers.set(key, { answer, fingerprint, expires: now() + ttl });
            expire(now());
          }
          return { kind: 'answer', answer, replayed: false };
        });
      }
    },
  };
}

/** Settings of the Redis answer store. */
export interface RedisAnswerSettings {
  readonly prefix: string;
  /** How long answers are kept, in ms. */
  readonly ttl: number;
  /** How long an in-progress marker lives, in ms: a create that outlives it (a crashed instance) may run again. */
  readonly lockTtl: number;
  /** Bounds every command (the server's one guard: `redisTimeout`, and fail fast while Redis is away). */
  readonly guard: RedisGuard;
}

/** Deletes a marker only while it is still the caller's (a create that outlived it must not free the next one's). */
const RELEASE = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0';

/**
 * Answers in Redis, shared by every instance. The first request sets `<key>:lock` with `SET NX PX` (the
 * body's fingerprint and a token of its own as its value) and runs the create; the others poll for its
 * answer. Every command goes through the guard: a Redis that does not answer throws `RedisUnavailable`.
 */
export function createRedisAnswers(redis: RedisClient, settings: RedisAnswerSettings): AnswerStore {
  const { prefix, ttl, lockTtl, guard } = settings;
  return {
    async remember(key, fingerprint, make, deadline) {
      const answerKey = `${prefix}${key}`;
      const lockKey = `${answerKey}:lock`;
      const storedAnswer = async (): Promise<Remembered | null> => {
        const stored = await guard.run(() => redis.get(answerKey));
        if (stored === null) return null;
        const entry = JSON.parse(stored) as {
          answer: Answer;
          fingerprint: string;
        };
        return entry.fingerprint === fingerprint ? { kind: 'answer', answer: entry.answer, replayed: true } : { kind: 'reused' };
      };
      for (let pause = 20; ; pause = Math.min(pause * 2, 200)) {
        const stored = await storedAnswer();
        if (stored !== null) return stored;
        const marker = `${fingerprint} ${randomUUID()}`;
        const locked = await guard.run(() => redis.set(lockKey, marker, 'PX', lockTtl, 'NX'));
        if (locked === 'OK') {
          let answer: Answer | null;
          try {
            // The first request may have stored its answer and freed the key between the read above and
            // this marker: read again under the marker, or the create runs twice.
            const late = await storedAnswer();
            if (late !== null) return late;
            answer = await make(null);
            // The resource exists now: even when Redis fails to keep the answer, this request gets it.
            if (answer !== null) await guard.run(() => redis.set(answerKey, JSON.stringify({ answer, fingerprint }), 'PX', ttl)).catch(() => undefined);
          } finally {
            // A client without EVAL (webhooks need it; idempotency alone does not) frees the marker unchecked.
            const release = () => (redis.eval ? redis.eval(RELEASE, 1, lockKey, marker) : redis.del(lockKey));
            await guard.run(release).catch(() => undefined);
          }
          return { kind: 'answer', answer, replayed: false };
        }
        const holder = await guard.run(() => redis.get(lockKey));
        if (holder !== null && holder.split(' ')[0] !== fingerprint) return { kind: 'reused' };
        if (performance.now() + pause > deadline) return { kind: 'busy' };
        await wait(pause);
      }
    },
  };
}
