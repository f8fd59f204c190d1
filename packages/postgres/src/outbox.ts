/**
 * The webhook outbox as a table (`restgen_webhook_outbox`), a `TransactionalOutbox`: handlers add their events
 * with `addWith(tx)` inside their own transaction (through `ctx.events.write`), so an event exists if and only if
 * its change committed. The dispatcher claims due rows with a lease (`FOR UPDATE SKIP LOCKED`: concurrent
 * dispatchers neither wait for nor take each other's rows), shared out per endpoint as the dispatcher asks
 * (`fairness`: slow receivers hold only their share of its slots), and completes (deletes) or reschedules a row
 * only while it still holds that lease. With `events`, every event is also kept once in `restgen_events`, laid
 * out as Debezium's outbox event router reads it.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { CLAIM_SCAN_MAX, type Claimed, type Delivery, type Fairness, type OutboxEvent, type TransactionalOutbox } from '@restgen/runtime';
import { clientOf, inTransaction, type Queryable } from './client.js';

/** Options of {@link createPostgresOutbox}. */
export interface PostgresOutboxOptions {
  /**
   * Also keep every event once in `restgen_events`, in the handler's transaction, whoever subscribes to it, in the
   * newest version's shape, for change data capture (Debezium's outbox event router feeding Kafka): `'keep'` leaves
   * each row (delete rows once they are read), `'capture'` inserts and deletes it in the same transaction (the
   * write-ahead log holds the insert, which a CDC connector reads; the table stays empty). Default: neither.
   */
  readonly events?: 'keep' | 'capture';
}

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
const ADD = `INSERT INTO restgen_webhook_outbox (id, endpoint, type, body, attempts, due_at)
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

const RETURNING = 'RETURNING id, endpoint, type, body, attempts, due_at, lease';

const claimedOf = (rows: readonly OutboxRow[]): Claimed[] =>
  rows.map((r) => ({ id: r.id, endpoint: r.endpoint, type: r.type, body: r.body, attempts: r.attempts, dueAt: Number(r.due_at), lease: r.lease }));

/**
 * Which of the due rows (in due order) a claim of `max` leases under `fairness`, and which it puts back to
 * `deferUntil`: an endpoint at its limit is passed over (its rows stay due); a slow endpoint takes what is left of
 * the slow share, and its other due rows are deferred.
 */
function share(rows: readonly { id: string; endpoint: string }[], max: number, fairness: Fairness): { chosen: string[]; deferred: string[] } {
  const held = new Map(fairness.inFlight);
  const chosen: string[] = [];
  const deferred: string[] = [];
  let slowLeft = fairness.slowSlots;
  for (const row of rows) {
    if (chosen.length >= max) break;
    const busy = held.get(row.endpoint) ?? 0;
    const slow = fairness.slow.has(row.endpoint);
    if (slow && (slowLeft <= 0 || busy >= fairness.perEndpoint)) {
      deferred.push(row.id);
      continue;
    }
    if (busy >= fairness.perEndpoint) continue;
    if (slow) slowLeft--;
    held.set(row.endpoint, busy + 1);
    chosen.push(row.id);
  }
  return { chosen, deferred };
}

/** The outbox table of the database `pool` connects to (created by `migrate`). */
export function createPostgresOutbox(pool: pg.Pool, options: PostgresOutboxOptions = {}): TransactionalOutbox {
  /** Inserts `event` into `restgen_events` through `db` (and deletes it again, when captured from the log). */
  const keepEvent = async (db: Queryable, event: OutboxEvent) => {
    await db.query('INSERT INTO restgen_events (id, aggregatetype, aggregateid, type, payload, timestamp) VALUES ($1, $2, $3, $4, $5, $6)', [
      event.id,
      event.aggregateType,
      event.aggregateId,
      event.type,
      JSON.stringify(event.payload),
      event.timestamp,
    ]);
    if (options.events === 'capture') await db.query('DELETE FROM restgen_events WHERE id = $1', [event.id]);
  };
  return {
    async add(deliveries) {
      if (deliveries.length > 0) await pool.query(ADD, columnsOf(deliveries));
    },

    async addWith(tx, deliveries) {
      // The handler's own connection, inside its transaction: the pool would commit on its own.
      const db = clientOf(tx, 'ctx.events.write(tx, ...)');
      if (deliveries.length > 0) await db.query(ADD, columnsOf(deliveries));
    },

    ...(options.events === undefined ? {} : { addEventWith: (tx: unknown, event: OutboxEvent) => keepEvent(clientOf(tx, 'ctx.events.write(tx, ...)'), event) }),

    async claim(now, max, leaseMs, fairness) {
      const lease = randomUUID();
      if (!fairness) {
        const { rows } = await pool.query<OutboxRow>(
          `UPDATE restgen_webhook_outbox SET due_at = $2::bigint + $3::bigint, lease = $4
            WHERE id IN (SELECT id FROM restgen_webhook_outbox WHERE due_at <= $2 ORDER BY due_at, seq LIMIT $1 FOR UPDATE SKIP LOCKED)
          ${RETURNING}`,
          [max, now, leaseMs, lease],
        );
        return claimedOf(rows);
      }
      // The due rows are locked, shared out, and the rest stay due (or move to deferUntil) when the transaction ends.
      return inTransaction(pool, async (client) => {
        const due = await client.query<{ id: string; endpoint: string }>(
          'SELECT id, endpoint FROM restgen_webhook_outbox WHERE due_at <= $1 ORDER BY due_at, seq LIMIT $2 FOR UPDATE SKIP LOCKED',
          [now, CLAIM_SCAN_MAX],
        );
        const { chosen, deferred } = share(due.rows, max, fairness);
        if (deferred.length > 0) await client.query('UPDATE restgen_webhook_outbox SET due_at = $2 WHERE id = ANY($1)', [deferred, fairness.deferUntil]);
        const { rows } = await client.query<OutboxRow>(
          `UPDATE restgen_webhook_outbox SET due_at = $2::bigint + $3::bigint, lease = $4 WHERE id = ANY($1) ${RETURNING}`,
          [chosen, now, leaseMs, lease],
        );
        return claimedOf(rows);
      });
    },

    async complete(claimed) {
      const { rowCount } = await pool.query('DELETE FROM restgen_webhook_outbox WHERE id = $1 AND lease = $2', [claimed.id, claimed.lease]);
      return rowCount === 1;
    },

    async retry(claimed, dueAt) {
      const { rowCount } = await pool.query(
        'UPDATE restgen_webhook_outbox SET attempts = attempts + 1, due_at = $3, lease = NULL WHERE id = $1 AND lease = $2',
        [claimed.id, claimed.lease, dueAt],
      );
      return rowCount === 1;
    },
  };
}
