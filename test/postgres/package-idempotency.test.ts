/**
 * `@restgen/postgres`'s idempotency store on a real PostgreSQL, alone and under the runtime's answer store: a record
 * written through a transaction exists if and only if it commits; of two transactions that write one key the second
 * waits for the first and writes nothing when the first committed, or goes on when it rolled back; an expired record
 * is replaced and swept. Under the runtime, twenty concurrent requests with one key over two "instances" (two
 * stores on one table), each inserting a row in its handler's transaction, leave exactly one row, and every request
 * gets its answer.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresIdempotency, migrate } from '@restgen/postgres';
import type { IdempotencyRecord } from '@restgen/runtime';
import { createTransactionalAnswers } from '../../packages/runtime/src/idempotency-store.ts';
import { createTestDatabase, postgresUrl, requirePostgres, type TestDatabase } from './database.ts';

const serverUrl = postgresUrl();
const record = (n: number, fingerprint = 'f'): IdempotencyRecord => ({
  fingerprint,
  answer: { status: 201, location: `/things/${n}`, etag: null, text: `{"n":${n}}` },
});
const HOUR = 3_600_000;

describe.runIf(requirePostgres(serverUrl))("@restgen/postgres's idempotency store", () => {
  let db: TestDatabase;
  let now = 1_000_000_000;
  beforeAll(async () => {
    db = await createTestDatabase(serverUrl!);
    await migrate(db.pool);
    await db.pool.query('CREATE TABLE things (id uuid PRIMARY KEY, n int NOT NULL)');
  });
  afterAll(async () => db?.drop());

  /** Runs `work` in a transaction on its own connection, ended with `end`. */
  async function inTx<T>(work: (tx: pg.PoolClient) => Promise<T>, end: 'COMMIT' | 'ROLLBACK' = 'COMMIT'): Promise<T> {
    const tx = await db.pool.connect();
    try {
      await tx.query('BEGIN');
      const result = await work(tx);
      await tx.query(end);
      return result;
    } catch (error) {
      await tx.query('ROLLBACK');
      throw error;
    } finally {
      tx.release();
    }
  }

  it('a record written through a transaction exists if and only if the transaction commits', async () => {
    const store = createPostgresIdempotency(db.pool, { now: () => now });
    expect(await inTx((tx) => store.putWith(tx, 'rolled-back', record(1), now + HOUR), 'ROLLBACK')).toBe(true);
    expect(await store.get('rolled-back')).toBeNull();
    expect(await inTx((tx) => store.putWith(tx, 'committed', record(2), now + HOUR))).toBe(true);
    expect(await store.get('committed')).toEqual(record(2));
    expect(await store.put('committed', record(3), now + HOUR)).toBe(false);
    expect(await store.get('committed')).toEqual(record(2));
  });

  it('the second of two transactions writing one key waits for the first: nothing when it committed, its own when it rolled back', async () => {
    const store = createPostgresIdempotency(db.pool, { now: () => now });
    for (const [end, second] of [
      ['COMMIT', false],
      ['ROLLBACK', true],
    ] as const) {
      const key = `race-${end}`;
      const first = await db.pool.connect();
      try {
        await first.query('BEGIN');
        expect(await store.putWith(first, key, record(1), now + HOUR)).toBe(true);
        let settled = false;
        const other = inTx((tx) => store.putWith(tx, key, record(2), now + HOUR)).finally(() => (settled = true));
        // The other transaction is blocked on the key until this one ends.
        await new Promise((r) => setTimeout(r, 200));
        expect(settled).toBe(false);
        await first.query(end);
        expect(await other).toBe(second);
        expect((await store.get(key))?.answer.location).toBe(end === 'COMMIT' ? '/things/1' : '/things/2');
      } finally {
        first.release();
      }
    }
  });

  it('an expired record is no answer: the next write replaces it, and a sweep deletes the expired ones', async () => {
    const store = createPostgresIdempotency(db.pool, { now: () => now, sweepEvery: 0 });
    await store.put('old', record(1), now + 1_000);
    now += 1_000;
    expect(await store.get('old')).toBeNull();
    expect(await store.put('old', record(2), now + HOUR)).toBe(true);
    expect(await store.get('old')).toEqual(record(2));
    await store.put('stale', record(3), now + 10);
    now += 10;
    expect(await store.sweep()).toBeGreaterThanOrEqual(1);
    expect((await db.pool.query("SELECT count(*)::int AS n FROM restgen_idempotency WHERE key = 'stale'")).rows[0]).toEqual({ n: 0 });
  });

  it('under the runtime: twenty concurrent requests with one key on two instances leave one row, and all get its answer', async () => {
    const instances = [0, 1].map(() => createTransactionalAnswers(createPostgresIdempotency(db.pool), HOUR, Date.now));
    const key = `create-${randomUUID()}`;
    let runs = 0;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        instances[i % 2]!.remember(
          key,
          'same-body',
          async (recordAnswer) => {
            runs++;
            // A handler: its insert and its answer's record in one transaction; a conflict rolls both back.
            const tx = await db.pool.connect();
            try {
              await tx.query('BEGIN');
              const id = randomUUID();
              await tx.query('INSERT INTO things (id, n) VALUES ($1, $2)', [id, i]);
              // Slow, so that the other instance's request runs meanwhile.
              await new Promise((r) => setTimeout(r, 50));
              const answer = { status: 201, location: `/things/${id}`, etag: null, text: JSON.stringify({ id }) };
              await recordAnswer!(tx, answer);
              await tx.query('COMMIT');
              return answer;
            } catch (error) {
              await tx.query('ROLLBACK');
              throw error;
            } finally {
              tx.release();
            }
          },
          performance.now() + 10_000,
        ),
      ),
    );
    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM things');
    expect(rows).toHaveLength(1);
    expect(new Set(answers.map((a) => (a.kind === 'answer' ? a.answer?.location : a.kind)))).toEqual(new Set([`/things/${rows[0]!.id}`]));
    expect(answers.filter((a) => a.kind === 'answer' && !a.replayed)).toHaveLength(1);
    // One handler per instance ran at once at most; the later requests found the committed answer.
    expect(runs).toBeLessThanOrEqual(20);
    expect(runs).toBeGreaterThanOrEqual(1);
  });
});
