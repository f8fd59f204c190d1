/**
 * `@restgen/postgres`'s outbox (`createPostgresOutbox`) on a real PostgreSQL: it shares a claim out per endpoint as
 * the dispatcher asks (`fairness`), like the memory and Redis outboxes — an endpoint at its limit is passed over,
 * slow endpoints together take at most their share and their other due deliveries move to `deferUntil` — and, with
 * `events`, it keeps every event once in `restgen_events` (Debezium's outbox layout) in the writer's transaction,
 * which vanishes with a rollback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresOutbox, migrate } from '@restgen/postgres';
import type { Delivery, Fairness, OutboxEvent } from '@restgen/runtime';
import { createTestDatabase, postgresUrl, requirePostgres, type TestDatabase } from './database.ts';

const serverUrl = postgresUrl();
const NOW = 1_000_000;

const delivery = (endpoint: string, n: number): Delivery => ({
  id: `${endpoint}-${n}`,
  endpoint,
  type: 'order.created',
  body: '{}',
  attempts: 0,
  dueAt: NOW - 1000 + n,
});
const fair = (over: Partial<Fairness>): Fairness => ({
  perEndpoint: 3,
  inFlight: new Map(),
  slow: new Set(),
  slowSlots: 0,
  deferUntil: NOW + 60_000,
  ...over,
});
const event = (n: number): OutboxEvent => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  type: 'order.created',
  aggregateType: 'order',
  aggregateId: `order-${n}`,
  payload: { id: `order-${n}`, quantity: n },
  timestamp: new Date(NOW).toISOString(),
});

describe.runIf(requirePostgres(serverUrl))("@restgen/postgres's outbox", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(serverUrl!);
    await migrate(db.pool);
  });
  afterAll(async () => db?.drop());
  const dueOf = async (endpoint: string) =>
    (await db.pool.query<{ due_at: string }>('SELECT due_at FROM restgen_webhook_outbox WHERE endpoint = $1 ORDER BY seq', [endpoint])).rows.map((r) =>
      Number(r.due_at),
    );

  it('leases at most perEndpoint per endpoint (in flight counted), and claims other endpoints due later instead', async () => {
    const outbox = createPostgresOutbox(db.pool);
    await db.pool.query('DELETE FROM restgen_webhook_outbox');
    // A busy endpoint's ten deliveries are due first (one already in flight); a healthy one's five come after them.
    await outbox.add([...Array.from({ length: 10 }, (_, i) => delivery('busy', i)), ...Array.from({ length: 5 }, (_, i) => delivery('healthy', 20 + i))]);
    const claimed = await outbox.claim(NOW, 10, 30_000, fair({ inFlight: new Map([['busy', 1]]) }));
    const count = (endpoint: string) => claimed.filter((c) => c.endpoint === endpoint).length;
    expect(count('busy')).toBe(2);
    expect(count('healthy')).toBe(3);
    // Passed over, not deferred: the busy endpoint's others are still due now.
    expect((await dueOf('busy')).filter((at) => at <= NOW)).toHaveLength(8);
    // Without fairness a claim takes them in due order: the busy endpoint's first.
    await db.pool.query('UPDATE restgen_webhook_outbox SET lease = NULL, due_at = $1', [NOW - 1]);
    const plain = await outbox.claim(NOW, 10, 30_000);
    expect(plain.filter((c) => c.endpoint === 'busy')).toHaveLength(10);
  });

  it('gives slow endpoints together only what is left of their share, and moves their other due deliveries to deferUntil', async () => {
    const outbox = createPostgresOutbox(db.pool);
    await db.pool.query('DELETE FROM restgen_webhook_outbox');
    await outbox.add([delivery('slow-a', 1), delivery('slow-a', 2), delivery('slow-b', 3), delivery('other', 4)]);
    const claimed = await outbox.claim(NOW, 10, 30_000, fair({ slow: new Set(['slow-a', 'slow-b']), slowSlots: 1 }));
    expect(claimed.map((c) => c.id)).toEqual(['slow-a-1', 'other-4']);
    expect(await dueOf('slow-a')).toEqual([NOW + 30_000, NOW + 60_000]);
    expect(await dueOf('slow-b')).toEqual([NOW + 60_000]);
    // No share left: nothing of a slow endpoint is leased.
    await db.pool.query('UPDATE restgen_webhook_outbox SET lease = NULL, due_at = $1', [NOW - 1]);
    const none = await outbox.claim(NOW, 10, 30_000, fair({ slow: new Set(['slow-a', 'slow-b']), slowSlots: 0 }));
    expect(none.map((c) => c.endpoint)).toEqual(['other']);
  });

  it("keeps each event once in restgen_events through the writer's transaction ('keep'), nothing of it after a rollback", async () => {
    const outbox = createPostgresOutbox(db.pool, { events: 'keep' });
    const write = async (n: number, end: 'COMMIT' | 'ROLLBACK') => {
      const tx = await db.pool.connect();
      try {
        await tx.query('BEGIN');
        await outbox.addWith(tx, [delivery('hooked', n)]);
        await outbox.addEventWith!(tx, event(n));
        await tx.query(end);
      } finally {
        tx.release();
      }
    };
    await write(1, 'COMMIT');
    await write(2, 'ROLLBACK');
    const { rows } = await db.pool.query('SELECT id, aggregatetype, aggregateid, type, payload FROM restgen_events ORDER BY aggregateid');
    expect(rows).toEqual([{ id: event(1).id, aggregatetype: 'order', aggregateid: 'order-1', type: 'order.created', payload: { id: 'order-1', quantity: 1 } }]);
    expect(await dueOf('hooked')).toHaveLength(1);
  });

  it("'capture' inserts and deletes the row in one transaction: a reader of the log sees the insert, the table stays empty", async () => {
    const outbox = createPostgresOutbox(db.pool, { events: 'capture' });
    await db.pool.query('DELETE FROM restgen_events');
    const tx = await db.pool.connect();
    try {
      await tx.query('BEGIN');
      await outbox.addEventWith!(tx, event(3));
      // Inside the transaction the row was written (and deleted again, before the commit).
      expect((await tx.query('SELECT count(*)::int AS n FROM restgen_events WHERE id = $1', [event(3).id])).rows[0]).toEqual({ n: 0 });
      await tx.query('COMMIT');
    } finally {
      tx.release();
    }
    expect((await db.pool.query('SELECT count(*)::int AS n FROM restgen_events')).rows[0]).toEqual({ n: 0 });
    // Without `events` the outbox keeps no events at all.
    expect(createPostgresOutbox(db.pool).addEventWith).toBeUndefined();
  });

  it('refuses the pool as a transaction, naming the fix', async () => {
    const outbox = createPostgresOutbox(db.pool);
    await expect(outbox.addWith(db.pool, [delivery('x', 1)])).rejects.toThrow(/tx is the pool; pass the client that holds the transaction/);
    await expect(outbox.addWith({}, [delivery('x', 1)])).rejects.toThrow(/tx must be the pg client/);
  });
});
