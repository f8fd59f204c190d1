/**
 * @module The orders collection on PostgreSQL, with its lifecycle: create, get, list (keyset pages in creation
 * order or in a sort by total or createdAt; filters on customer_id, status, total and createdAt), update and
 * delete conditional on the revision read (If-Match holds atomically), and the transitions pay, ship, cancel and
 * refund, whose UPDATE names the states they start from besides the revision. Every write inserts its webhook
 * event in its own transaction (`ctx.events.write`): an event exists if and only if its change committed. The
 * invoice is kept as the stored file the runtime hands over (a jsonb column); its content lives in the server's
 * file store.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Resource as Order } from '../shop/generated/server/collections/orders.js';
import { HttpProblem, InvalidTransition, NotFound, type HandlerContext, type ShopHandlers, type StoredFile } from '../shop/generated/server/index.js';
import type { Cursors } from './cursor.js';
import { first, inTransaction, only, preconditions, writeIf } from './db.js';
import type { Table } from './list-query.js';
import { pageOf } from './pages.js';

/** A row of `orders`. */
interface OrderRow {
  readonly id: string;
  readonly seq: string;
  readonly revision: string;
  readonly customer_id: string;
  /** A bigint column: node-postgres reads it as a string (it may pass 2^53; this API's never do). */
  readonly product_id: string;
  readonly quantity: number;
  readonly currency: Order['currency'];
  readonly reference: string | null;
  readonly gift_message: string | null;
  readonly invoice: StoredFile | null;
  /** A bigint column, as product_id. */
  readonly total: string;
  readonly status: Order['status'];
  readonly created_at: Date;
}
const COLUMNS = 'id, seq, revision, customer_id, product_id, quantity, currency, reference, gift_message, invoice, total, status, created_at';

/** What lists filter and sort orders by: each field of the contract that a query may name, and its column. */
const ORDERS: Table = {
  name: 'orders',
  seq: 'seq',
  columns: {
    id: { column: 'id', type: 'uuid' },
    customer_id: { column: 'customer_id', type: 'uuid' },
    total: { column: 'total', type: 'bigint' },
    status: { column: 'status', type: 'text' },
    createdAt: { column: 'created_at', type: 'timestamptz' },
  },
};

/** A bigint column's text as a number; one a number cannot hold exactly is an error, not a silently other value. */
function safeInteger(column: string, text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`orders.${column} ${text} is past 2^53 - 1, which the API cannot answer`);
  return n;
}

/** The resource of a row. */
const orderOf = (row: OrderRow): Order => ({
  id: row.id,
  customer_id: row.customer_id,
  product_id: safeInteger('product_id', row.product_id),
  quantity: row.quantity,
  currency: row.currency,
  ...(row.reference === null ? {} : { reference: row.reference }),
  ...(row.gift_message === null ? {} : { giftMessage: row.gift_message }),
  ...(row.invoice === null ? {} : { invoice: row.invoice }),
  total: safeInteger('total', row.total),
  status: row.status,
  createdAt: row.created_at.toISOString(),
});

type State = Order['status'];

/** The orders handlers (operations and transitions) over `pool`. */
export function createOrderHandlers(pool: pg.Pool, cursors: Cursors): ShopHandlers['orders'] {
  const read = (db: pg.Pool | pg.PoolClient, id: string) => db.query<OrderRow>(`SELECT ${COLUMNS} FROM orders WHERE id = $1`, [id]).then(first);

  /**
   * A transition from `from` to `to`: in one transaction, read the row, decide (404, 412 on If-Match,
   * 409 when its state allows no such move), and move it only while both its revision and its state are
   * the ones read: of two concurrent transitions that exclude each other, exactly one succeeds.
   */
  const move =
    <S extends State>(from: readonly State[], to: S) =>
    (resource: Order, _input: unknown, ctx: HandlerContext): Promise<(Order & { readonly status: S }) | HttpProblem> =>
      inTransaction(pool, async (tx) => {
        const decidePreconditions = preconditions(ctx, 'order', orderOf);
        const moved = await writeIf(
          () => read(tx, resource.id),
          (row) => decidePreconditions(row) ?? (row !== null && !from.includes(row.status) ? new InvalidTransition(row.status) : null),
          (row) =>
            tx
              .query<OrderRow>(
                `UPDATE orders SET status = $3, revision = revision + 1
                  WHERE id = $1 AND revision = $2 AND status = ANY($4::text[])
              RETURNING ${COLUMNS}`,
                [resource.id, row.revision, to, from],
              )
              .then(first),
        );
        if (moved instanceof HttpProblem) return moved;
        const order = { ...orderOf(moved), status: to };
        await ctx.events.write(tx, order);
        return order;
      });

  return {
    list: (query) => pageOf(pool, { table: ORDERS, select: COLUMNS, resource: orderOf }, query, cursors),

    async get(id) {
      const row = await read(pool, id);
      return row === null ? new NotFound('No order has this id.') : orderOf(row);
    },

    create: (body, ctx) =>
      inTransaction(pool, async (tx) => {
        const row = await tx
          .query<OrderRow>(
            `INSERT INTO orders (id, customer_id, product_id, quantity, currency, reference, gift_message, invoice, total, status, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'open', $10)
          RETURNING ${COLUMNS}`,
            [
              randomUUID(),
              body.customer_id,
              body.product_id,
              body.quantity,
              body.currency,
              body.reference ?? null,
              body.giftMessage ?? null,
              body.invoice ?? null,
              body.total,
              new Date(),
            ],
          )
          .then(only);
        const order = orderOf(row);
        await ctx.events.write(tx, order);
        return order;
      }),

    // Only the fields sent change, merged into the row read (which the write then requires unchanged).
    update: (id, patch, ctx) =>
      inTransaction(pool, async (tx) => {
        const updated = await writeIf(
          () => read(tx, id),
          preconditions(ctx, 'order', orderOf),
          (row) => {
            const current = orderOf(row);
            return tx
              .query<OrderRow>(
                `UPDATE orders
                    SET customer_id = $3, product_id = $4, quantity = $5, currency = $6, reference = $7, gift_message = $8,
                        invoice = $9, total = $10, revision = revision + 1
                  WHERE id = $1 AND revision = $2
              RETURNING ${COLUMNS}`,
                [
                  id,
                  row.revision,
                  patch.customer_id ?? current.customer_id,
                  patch.product_id ?? current.product_id,
                  patch.quantity ?? current.quantity,
                  patch.currency ?? current.currency,
                  patch.reference ?? current.reference ?? null,
                  patch.giftMessage ?? current.giftMessage ?? null,
                  // null removes the invoice (the runtime then deletes its content); absent keeps it.
                  patch.invoice === undefined ? (current.invoice ?? null) : patch.invoice,
                  patch.total ?? current.total,
                ],
              )
              .then(first);
          },
        );
        if (updated instanceof HttpProblem) return updated;
        const order = orderOf(updated);
        await ctx.events.write(tx, order);
        return order;
      }),

    delete: (id, ctx) =>
      inTransaction(pool, async (tx) => {
        const deleted = await writeIf(
          () => read(tx, id),
          preconditions(ctx, 'order', orderOf),
          (row) => tx.query<OrderRow>(`DELETE FROM orders WHERE id = $1 AND revision = $2 RETURNING ${COLUMNS}`, [id, row.revision]).then(first),
        );
        if (deleted instanceof HttpProblem) return deleted;
        // A delete's event carries the resource as it was.
        await ctx.events.write(tx, orderOf(deleted));
        return undefined;
      }),

    pay: move(['open'], 'paid'),
    ship: move(['paid'], 'shipped'),
    cancel: move(['open', 'paid'], 'cancelled'),
    refund: move(['paid', 'shipped'], 'refunded'),
  };
}
