/**
 * @module The orders collection on PostgreSQL, with its lifecycle: create, get, list (keyset pages, ?status=
 * and ?customer_id= filters), update and delete conditional on the revision read (If-Match holds
 * atomically), and the transitions pay, ship, cancel and refund, whose UPDATE names the states they start
 * from besides the revision. Every write inserts its webhook event in its own transaction
 * (`ctx.events.write`): an event exists if and only if its change committed.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Order } from '../shop/generated/v3/orders.js';
import { HttpProblem, InvalidTransition, NotFound, type HandlerContext, type ShopHandlers } from '../shop/generated/server/index.js';
import type { Cursors, Filters } from './cursor.js';
import { first, inTransaction, only, preconditions, writeIf } from './db.js';

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
  readonly status: Order['status'];
  readonly created_at: Date;
}
const COLUMNS = 'id, seq, revision, customer_id, product_id, quantity, currency, reference, gift_message, status, created_at';

/** A bigint column's text as a number; one a number cannot hold exactly is an error, not a silently other id. */
function safeInteger(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`orders.product_id ${text} is past 2^53 - 1, which the API cannot answer`);
  return n;
}

/** The resource of a row. */
const orderOf = (row: OrderRow): Order => ({
  id: row.id,
  customer_id: row.customer_id,
  product_id: safeInteger(row.product_id),
  quantity: row.quantity,
  currency: row.currency,
  ...(row.reference === null ? {} : { reference: row.reference }),
  ...(row.gift_message === null ? {} : { giftMessage: row.gift_message }),
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
    async list(query) {
      const filters: Filters = [
        ...(query.customer_id === undefined ? [] : [['customer_id', query.customer_id] as const]),
        ...(query.status === undefined ? [] : [['status', query.status] as const]),
      ];
      const after = cursors.decode(query.cursor, filters);
      if (after instanceof HttpProblem) return after;
      // Column names come from the list above, never from the request; values are parameters.
      const where = filters.map(([column], i) => ` AND ${column} = $${i + 3}`).join('');
      const { rows } = await pool.query<OrderRow>(`SELECT ${COLUMNS} FROM orders WHERE seq > $1${where} ORDER BY seq LIMIT $2`, [after, query.limit + 1, ...filters.map(([, value]) => value)]);
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return { data: page.map(orderOf), next_cursor: rows.length > query.limit && last ? cursors.encode(last.seq, filters) : null };
    },

    async get(id) {
      const row = await read(pool, id);
      return row === null ? new NotFound('No order has this id.') : orderOf(row);
    },

    create: (body, ctx) =>
      inTransaction(pool, async (tx) => {
        const row = await tx
          .query<OrderRow>(
            `INSERT INTO orders (id, customer_id, product_id, quantity, currency, reference, gift_message, status, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8)
          RETURNING ${COLUMNS}`,
            [randomUUID(), body.customer_id, body.product_id, body.quantity, body.currency, body.reference ?? null, body.giftMessage ?? null, new Date()],
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
                        revision = revision + 1
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
