/**
 * @module The coupons collection on PostgreSQL (from v3; its writes require If-Match): a taken code answers
 * 409 from the unique constraint, replace, update and delete are conditional on the revision read; lists sort by
 * code unless asked otherwise (the collection's defaultSort), and filter by percentOff and validUntil. Valid-until
 * dates are selected as text (`YYYY-MM-DD`): pg would turn a `date` into a local-time Date.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Coupon } from '../shop/generated/v3/coupons.js';
import { HttpProblem, NotFound, type HandlerContext, type ShopHandlers } from '../shop/generated/server/index.js';
import type { Cursors } from './cursor.js';
import { first, inTransaction, only, preconditions, writeIf } from './db.js';
import type { Table } from './list-query.js';
import { pageOf } from './pages.js';

/** A row of `coupons`. */
interface CouponRow {
  readonly id: string;
  readonly seq: string;
  readonly revision: string;
  readonly code: string;
  readonly percent_off: number;
  readonly valid_until: string | null;
}
const COLUMNS = 'id, seq, revision, code, percent_off, valid_until::text AS valid_until';

const couponOf = (row: CouponRow): Coupon => ({ id: row.id, code: row.code, percentOff: row.percent_off, validUntil: row.valid_until });

/** What lists filter and sort coupons by: each field of the contract that a query may name, and its column. */
const COUPONS: Table = {
  name: 'coupons',
  seq: 'seq',
  columns: {
    id: { column: 'id', type: 'uuid' },
    code: { column: 'code', type: 'text' },
    percentOff: { column: 'percent_off', type: 'integer' },
    validUntil: { column: 'valid_until', type: 'date' },
  },
};

/** The coupons handlers over `pool`. */
export function createCouponHandlers(pool: pg.Pool, cursors: Cursors): ShopHandlers['coupons'] {
  const read = (db: pg.Pool | pg.PoolClient, id: string) => db.query<CouponRow>(`SELECT ${COLUMNS} FROM coupons WHERE id = $1`, [id]).then(first);

  /** Replace and update: the row read, changed by `change`, written only while its revision is the one read. */
  const write = (id: string, ctx: HandlerContext, change: (current: Coupon) => Omit<Coupon, 'id'>) =>
    inTransaction(pool, async (tx) => {
      const written = await writeIf(
        () => read(tx, id),
        preconditions(ctx, 'coupon', couponOf),
        (row) => {
          const next = change(couponOf(row));
          return tx
            .query<CouponRow>(
              `UPDATE coupons SET code = $3, percent_off = $4, valid_until = $5, revision = revision + 1
                WHERE id = $1 AND revision = $2
            RETURNING ${COLUMNS}`,
              [id, row.revision, next.code, next.percentOff, next.validUntil],
            )
            .then(first);
        },
      );
      if (written instanceof HttpProblem) return written;
      const coupon = couponOf(written);
      await ctx.events.write(tx, coupon);
      return coupon;
    });

  return {
    list: (query) => pageOf(pool, { table: COUPONS, select: COLUMNS, resource: couponOf }, query, cursors),

    async get(id) {
      const row = await read(pool, id);
      return row === null ? new NotFound('No coupon has this id.') : couponOf(row);
    },

    create: (body, ctx) =>
      inTransaction(pool, async (tx) => {
        const row = await tx
          .query<CouponRow>(`INSERT INTO coupons (id, code, percent_off, valid_until) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`, [randomUUID(), body.code, body.percentOff, body.validUntil])
          .then(only);
        const coupon = couponOf(row);
        await ctx.events.write(tx, coupon);
        return coupon;
      }),

    replace: (id, body, ctx) => write(id, ctx, () => ({ code: body.code, percentOff: body.percentOff, validUntil: body.validUntil })),

    update: (id, patch, ctx) =>
      write(id, ctx, (current) => ({
        code: patch.code ?? current.code,
        percentOff: patch.percentOff ?? current.percentOff,
        // null is a value here (no end date): only an absent field keeps the current one.
        validUntil: patch.validUntil === undefined ? current.validUntil : patch.validUntil,
      })),

    delete: (id, ctx) =>
      inTransaction(pool, async (tx) => {
        const deleted = await writeIf(
          () => read(tx, id),
          preconditions(ctx, 'coupon', couponOf),
          (row) => tx.query<CouponRow>(`DELETE FROM coupons WHERE id = $1 AND revision = $2 RETURNING ${COLUMNS}`, [id, row.revision]).then(first),
        );
        if (deleted instanceof HttpProblem) return deleted;
        await ctx.events.write(tx, couponOf(deleted));
        return undefined;
      }),
  };
}
