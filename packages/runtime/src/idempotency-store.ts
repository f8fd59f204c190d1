/**
 * Idempotency-Key answers kept by a store of the handlers' own database (`options.idempotency`, such as
 * `@restgen/postgres`'s table), written **in the handler's transaction**: the handler passes its transaction
 * to `ctx.events.write(tx, resource)`, and the record (key, request fingerprint, the answer) commits with the
 * change or not at all. A retry after a crash at any point then finds the committed answer, or finds nothing
 * because nothing committed. Concurrent requests with one key run one at a time in each process; across
 * processes the store's unique key decides: the record of the first to commit stands, and the transaction of
 * any other is aborted (its change rolled back) and its request answered with the stored answer.
 */
import { createRunning, type Answer, type AnswerStore, type RecordAnswer, type Remembered } from './idempotency.js';

/** What a store keeps under one key. */
export interface IdempotencyRecord {
  /** The fingerprint of the request body the answer was made for (a key reused with another body answers 422). */
  readonly fingerprint: string;
  /** The answer: status, Location, ETag, and the body (as JSON text for a create). */
  readonly answer: Answer;
}

/**
 * A store of Idempotency-Key records in the handlers' database. Keys are opaque text of up to about 600
 * characters (who sent the key, what it is for, and the key). A record expires at `expiresAt` (ms since the
 * epoch): `get` no longer returns it, and a new record may replace it.
 */
export interface IdempotencyStore {
  /** The record under `key` that has not expired, or null. */
  get(key: string): Promise<IdempotencyRecord | null>;
  /**
   * Writes the record through `tx`, the transaction the handler passed to `ctx.events.write`, so it commits with
   * the handler's change. Resolves false, writing nothing, when an unexpired record under `key` exists (another
   * request's, committed first): the runtime then throws, so that the handler's transaction rolls back. When a
   * concurrent transaction holds an uncommitted record under `key`, it waits for that one to end (a unique index
   * does). A `tx` of another kind than the store's is a programming error: throw.
   */
  putWith(tx: unknown, key: string, record: IdempotencyRecord, expiresAt: number): Promise<boolean>;
  /** The same outside any transaction: the answer of a handler that passed none, or a problem it answered. */
  put(key: string, record: IdempotencyRecord, expiresAt: number): Promise<boolean>;
}

/**
 * Thrown through the handler by `ctx.events.write` when another request with the same Idempotency-Key
 * committed first: the handler's transaction must roll back (let it through; never commit after it).
 */
export class IdempotencyConflict extends Error {
  constructor() {
    super('another request with this Idempotency-Key committed first; this transaction must roll back');
    this.name = 'IdempotencyConflict';
  }
}

/** Whether `error` is, or was caused by, an {@link IdempotencyConflict} (a handler may wrap what it catches). */
export function isIdempotencyConflict(error: unknown): boolean {
  try {
    for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e instanceof IdempotencyConflict) return true;
  } catch {
    // A thrown value whose prototype or `cause` throws when read (a hostile getter, a revoked Proxy) is not ours.
  }
  return false;
}

/**
 * The runtime's answer store over `store`: answers expire `ttl` ms after `now()`. A handler that answers without
 * passing its transaction has its answer stored after the fact (a crash in between lets a retry run again).
 */
export function createTransactionalAnswers(store: IdempotencyStore, ttl: number, now: () => number): AnswerStore {
  // One request per key at a time in this process; the others wait for its answer.
  const running = createRunning();
  const replay = (record: IdempotencyRecord, fingerprint: string): Remembered =>
    record.fingerprint === fingerprint ? { kind: 'answer', answer: record.answer, replayed: true } : { kind: 'reused' };

  const run = async (key: string, fingerprint: string, make: (record: RecordAnswer | null) => Promise<Answer | null>): Promise<Remembered> => {
    let written: Answer | null = null;
    let lost = false;
    const record: RecordAnswer = async (tx, answer) => {
      // One record per request: a handler that writes twice keeps the first.
      if (written !== null || lost) return;
      if (await store.putWith(tx, key, { fingerprint, answer }, now() + ttl)) written = answer;
      else {
        lost = true;
        throw new IdempotencyConflict();
      }
    };
    let answer: Answer | null;
    try {
      answer = await make(record);
    } catch (error) {
      // The conflict this store threw through the handler (or whatever the handler made of it).
      if (!lost) throw error;
      answer = null;
    }
    if (lost) {
      // The other request committed before this one's transaction could: its answer is the one.
      const stored = await store.get(key);
      return stored === null ? { kind: 'busy' } : replay(stored, fingerprint);
    }
    // The first answer is the one recorded, so that a replay answers exactly what this request did.
    if (written !== null) return { kind: 'answer', answer: written, replayed: false };
    if (answer === null) return { kind: 'answer', answer: null, replayed: false };
    if (!(await store.put(key, { fingerprint, answer }, now() + ttl))) {
      const stored = await store.get(key);
      if (stored !== null) return replay(stored, fingerprint);
    }
    return { kind: 'answer', answer, replayed: false };
  };

  return {
    async remember(key, fingerprint, make, deadline) {
      for (;;) {
        const stored = await store.get(key);
        if (stored !== null) return replay(stored, fingerprint);
        const waited = running.waitFor(key, fingerprint, deadline);
        if (waited === 'reused') return { kind: 'reused' };
        if (waited !== null) {
          if ((await waited) === 'busy') return { kind: 'busy' };
          continue;
        }
        return running.run(key, fingerprint, () => run(key, fingerprint, make));
      }
    },
  };
}
