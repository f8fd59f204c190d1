/**
 * @module The webhook outbox as a table (`webhook_outbox` in schema.sql), a `TransactionalOutbox`: handlers
 * add their events with `addWith(tx)` inside their own transaction (through `ctx.events.write`), so an
 * event exists if and only if its change committed; the dispatcher claims due rows with a lease
 * (`FOR UPDATE SKIP LOCKED`: concurrent dispatchers neither wait for nor take each other's rows), shared out per
 * endpoint as the dispatcher asks (`fairness`: one hanging receiver holds only its own slots), and completes (deletes) or reschedules a row only while it still holds that lease.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { CLAIM_SCAN_MAX, type Claimed, type Delivery, type TransactionalOutbox } from '@restgen/runtime';

interface OutboxRow {
  readonly id: string;
  readonly endpoint: string;
  readonly type: string;
  readonly body: string;
  readonly attempts: number;
  readonly due_at: string;
  readonly lease: string;
}

/** The statement that adds deliveries: one row each (unnest keeps it one round trip). */
const ADD = `INSERT INTO webhook_outbox (id, endpoint, type, body, attempts, due_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::bigint[])`;

/** The parameters of {@link ADD}. */
const columnsOf = (deliveries: readonly Delivery[]) => [
  deliveries.map((d) => d.id),
  deliveries.map((d) => d.endpoint),
  deliveries.map((d) => d.type),
  deliveries.map((d) => d.body),
  deliveries.map((d) => d.attempts),
  deliveries.map((d) => d.dueAt),
];

/** The outbox table of the database `pool` connects to. */
export function createPostgresOutbox(pool: pg.Pool): TransactionalOutbox {
  return {
    async add(deliveries) {
      if (deliveries.length > 0) await pool.query(ADD, columnsOf(deliveries));
    },

    async addWith(tx, deliveries) {
      // The handler's own connection, inside its transaction: a pool here would commit on its own.
      if (!(tx instanceof pg.Client)) throw new TypeError('ctx.events.write(tx, ...): tx must be the pg client (pool.connect()) that holds the transaction');
      if (deliveries.length > 0) await tx.query(ADD, columnsOf(deliveries));
    },

    async claim(now, max, leaseMs, fairness) {
      const lease = randomUUID();
      const map = (rows: readonly OutboxRow[]) =>
        rows.map((r): Claimed => ({ id: r.id, endpoint: r.endpoint, type: r.type, body: r.body, attempts: r.attempts, dueAt: Number(r.due_at), lease: r.lease }));
      if (!fairness) {
        const { rows } = await pool.query<OutboxRow>(
          `UPDATE webhook_outbox SET due_at = $2::bigint + $3::bigint, lease = $4
            WHERE id IN (SELECT id FROM webhook_outbox WHERE due_at <= $2 ORDER BY due_at, seq LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING id, endpoint, type, body, attempts, due_at, lease`,
          [max, now, leaseMs, lease],
        );
        return map(rows);
      }
      // Shared out per endpoint, as the dispatcher asks (one slow receiver costs only its own queue): the due rows are
      // locked, at most `perEndpoint` in flight per endpoint are leased, and the rest stay due when the transaction ends.
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        if (fairness.slow.size > 0)
          await client.query('UPDATE webhook_outbox SET due_at = $3 WHERE endpoint = ANY($1) AND due_at <= $2', [[...fairness.slow], now, fairness.deferUntil]);
        const due = await client.query<{ id: string; endpoint: string }>(
          'SELECT id, endpoint FROM webhook_outbox WHERE due_at <= $1 ORDER BY due_at, seq LIMIT $2 FOR UPDATE SKIP LOCKED',
          [now, CLAIM_SCAN_MAX],
        );
        const taken = new Map(fairness.inFlight);
        const chosen: string[] = [];
        for (const row of due.rows) {
          if (chosen.length >= max) break;
          const busy = taken.get(row.endpoint) ?? 0;
          if (busy >= fairness.perEndpoint) continue;
          taken.set(row.endpoint, busy + 1);
          chosen.push(row.id);
        }
        const { rows } = await client.query<OutboxRow>(
          `UPDATE webhook_outbox SET due_at = $2::bigint + $3::bigint, lease = $4 WHERE id = ANY($1)
        RETURNING id, endpoint, type, body, attempts, due_at, lease`,
          [chosen, now, leaseMs, lease],
        );
        await client.query('COMMIT');
        return map(rows);
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },

    async complete(claimed) {
      const { rowCount } = await pool.query('DELETE FROM webhook_outbox WHERE id = $1 AND lease = $2', [claimed.id, claimed.lease]);
      return rowCount === 1;
    },

    async retry(claimed, dueAt) {
      const { rowCount } = await pool.query('UPDATE webhook_outbox SET attempts = attempts + 1, due_at = $3, lease = NULL WHERE id = $1 AND lease = $2', [claimed.id, claimed.lease, dueAt]);
      return rowCount === 1;
    },
  };
}
