/**
 * The PostgreSQL outbox shares a claim out per endpoint as the dispatcher asks (`fairness`), like the memory and
 * Redis outboxes: one receiver that never answers holds only its own slots, and the backlog of a slow endpoint is
 * moved later instead of being walked on every claim.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery } from '@restgen/runtime';
import { createPostgresOutbox } from '../../examples/shop-postgres/outbox.ts';
import { createSchema } from '../../examples/shop-postgres/schema.ts';
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

describe.runIf(requirePostgres(serverUrl))('the PostgreSQL outbox under fairness', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(serverUrl!);
    await createSchema(db.pool);
  });
  afterAll(async () => db?.drop());

  it('leases at most perEndpoint per endpoint (in flight counted), and claims other endpoints due later instead', async () => {
    const outbox = createPostgresOutbox(db.pool);
    await db.pool.query('DELETE FROM webhook_outbox');
    // A hanging endpoint's ten deliveries are due first (one already in flight); a healthy one's five come after them.
    await outbox.add([...Array.from({ length: 10 }, (_, i) => delivery('hanging', i)), ...Array.from({ length: 5 }, (_, i) => delivery('healthy', 20 + i))]);
    const fairness = { perEndpoint: 3, inFlight: new Map([['hanging', 1]]), slow: new Set<string>(), deferUntil: NOW + 60_000 };
    const claimed = await outbox.claim(NOW, 10, 30_000, fairness);
    const count = (endpoint: string) => claimed.filter((c) => c.endpoint === endpoint).length;
    expect(count('hanging')).toBe(2);
    expect(count('healthy')).toBe(3);
    // Without fairness a claim takes them in due order: the hanging endpoint's first.
    await db.pool.query('UPDATE webhook_outbox SET lease = NULL, due_at = $1', [NOW - 1]);
    const plain = await outbox.claim(NOW, 10, 30_000);
    expect(plain.filter((c) => c.endpoint === 'hanging')).toHaveLength(10);
  });

  it("moves a slow endpoint's due backlog to deferUntil and claims nothing of it", async () => {
    const outbox = createPostgresOutbox(db.pool);
    await db.pool.query('DELETE FROM webhook_outbox');
    await outbox.add([delivery('slow', 1), delivery('slow', 2), delivery('other', 3)]);
    const claimed = await outbox.claim(NOW, 10, 30_000, { perEndpoint: 3, inFlight: new Map(), slow: new Set(['slow']), deferUntil: NOW + 60_000 });
    expect(claimed.map((c) => c.endpoint)).toEqual(['other']);
    const { rows } = await db.pool.query<{ due_at: string }>("SELECT due_at FROM webhook_outbox WHERE endpoint = 'slow'");
    expect(rows.map((r) => Number(r.due_at))).toEqual([NOW + 60_000, NOW + 60_000]);
  });
});
