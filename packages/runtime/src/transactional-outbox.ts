/**
 * An outbox the handlers' own store keeps (a table in their database): deliveries are added through the
 * handler's open transaction, so they exist if and only if the handler's change commits, and a dispatcher
 * claims them from the same table. The runtime knows nothing of the store: the transaction is whatever the
 * handler passes to `ctx.events.write(tx, resource)`, handed on to `addWith` untouched.
 */
import type { Delivery, Outbox } from './webhook-store.js';

/**
 * An {@link Outbox} that can also add deliveries within a transaction of the caller's store. `claim` must
 * lease each delivery it hands out (its due time moved past the lease, so a dispatcher that dies mid-delivery
 * loses it to another after the lease), and `complete`/`retry` count only with the current lease.
 */
export interface TransactionalOutbox extends Outbox {
  /**
   * Adds `deliveries` through `tx`, the transaction a handler passed to `ctx.events.write` (or `emit`):
   * they become claimable when it commits and vanish when it rolls back. A `tx` of another kind than the
   * store's is a programming error: throw.
   */
  addWith(tx: unknown, deliveries: readonly Delivery[]): Promise<void>;
  /**
   * Optional: keeps `event` once through `tx`, whoever subscribes to it (none included), for a change-data-capture
   * tool that reads a table of events (Debezium's outbox event router feeding Kafka). Called by the same writes
   * as `addWith`, in the handler's transaction.
   */
  addEventWith?(tx: unknown, event: OutboxEvent): Promise<void>;
}

/** One event as it happened, once, in the newest version's shape (what {@link TransactionalOutbox.addEventWith} keeps). */
export interface OutboxEvent {
  /** A UUID of its own. */
  readonly id: string;
  /** The event type (`order.created`, `invoice.overdue`). */
  readonly type: string;
  /** What the event is about: the type's first word (`order`, `invoice`). */
  readonly aggregateType: string;
  /** Which one: the resource's id for a derived event; the event's own id for a custom event. */
  readonly aggregateId: string;
  /** The payload as the newest version that has the event shows it (write-only fields left out). */
  readonly payload: unknown;
  /** When it was written, as an ISO 8601 date-time. */
  readonly timestamp: string;
}

/** Whether an outbox adds deliveries within the handlers' transactions. */
export function isTransactional(outbox: Outbox): outbox is TransactionalOutbox {
  return typeof (outbox as { addWith?: unknown }).addWith === 'function';
}
