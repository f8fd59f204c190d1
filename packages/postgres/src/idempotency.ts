/**
 * Answers to Idempotency-Keys as a table (`restgen_idempotency`), an `IdempotencyStore` whose record a handler
 * writes in its own transaction: pass the transaction to `ctx.events.write(tx, resource)` and the record (key,
 * request fingerprint, answer) commits with the change or not at all. The key is the primary key, so of two
 * transactions that write one key the second waits for the first: it writes nothing when the first committed (the
 * runtime then rolls it back and answers the first one's answer), and goes on when the first rolled back or its
 * process died. Expired records are replaced by the next request with their key and swept now and then.
 */
import type pg from 'pg';
import type { IdempotencyRecord, IdempotencyStore } from '@restgen/runtime';
import { clientOf, type Queryable } from './client.js';

/** Options of {@link createPostgresIdempotency}. */
export interface PostgresIdempotencyOptions {
  /** The clock records expire by, in ms since the epoch (the server's; tests inject one). Default `Date.now`. */
  readonly now?: () => number;
  /** Sweep expired records after this many writes (default 1,000; 0: never, call `sweep()` yourself). */
  readonly sweepEvery?: number;
}

/** The store, with the sweep of expired records. */
export interface PostgresIdempotency extends IdempotencyStore {
  /** Deletes up to `limit` expired records (default 1,000); resolves to how many. */
  sweep(limit?: number): Promise<number>;
}

/**
 * Inserts a record, or replaces one that has expired: no row comes back when an unexpired record holds the key.
 * A concurrent transaction's uncommitted record under the key makes this wait for it (the primary key).
 */
const PUT = `INSERT INTO restgen_idempotency (key, fingerprint, answer, expires_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, answer = EXCLUDED.answer, expires_at = EXCLUDED.expires_at
  WHERE restgen_idempotency.expires_at <= $5
  RETURNING key`;

/** The idempotency table of the database `pool` connects to (created by `migrate`). */
export function createPostgresIdempotency(pool: pg.Pool, options: PostgresIdempotencyOptions = {}): PostgresIdempotency {
  const now = options.now ?? Date.now;
  const sweepEvery = options.sweepEvery ?? 1_000;
  let writes = 0;
  const sweep = async (limit = 1_000): Promise<number> => {
    const { rowCount } = await pool.query(
      'DELETE FROM restgen_idempotency WHERE key IN (SELECT key FROM restgen_idempotency WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2)',
      [now(), limit],
    );
    return rowCount ?? 0;
  };
  const put = async (db: Queryable, key: string, record: IdempotencyRecord, expiresAt: number): Promise<boolean> => {
    const { rowCount } = await db.query(PUT, [key, record.fingerprint, JSON.stringify(record.answer), expiresAt, now()]);
    // Outside the request's transaction and unawaited: a sweep that fails is tried again after the next writes.
    if (sweepEvery > 0 && ++writes % sweepEvery === 0) void sweep().catch(() => undefined);
    return rowCount === 1;
  };
  return {
    async get(key) {
      const { rows } = await pool.query<{ fingerprint: string; answer: IdempotencyRecord['answer'] }>(
        'SELECT fingerprint, answer FROM restgen_idempotency WHERE key = $1 AND expires_at > $2',
        [key, now()],
      );
      const row = rows[0];
      return row === undefined ? null : { fingerprint: row.fingerprint, answer: row.answer };
    },
    putWith: (tx, key, record, expiresAt) => put(clientOf(tx, 'ctx.events.write(tx, ...)'), key, record, expiresAt),
    put: (key, record, expiresAt) => put(pool, key, record, expiresAt),
    sweep,
  };
}
