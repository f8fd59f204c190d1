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
}

/** Whether an outbox adds deliveries within the handlers' transactions. */
export function isTransactional(outbox: Outbox): outbox is TransactionalOutbox {
  return typeof (outbox as { addWith?: unknown }).addWith === 'function';
}
