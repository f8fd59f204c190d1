/**
 * @module The coupons collection on PostgreSQL (from v3; its writes require If-Match): a taken code answers
 * 409 from the unique constraint, replace, update and delete are conditional on the revision read. Valid-until
 * dates are selected as text (`YYYY-MM-DD`): pg would turn a `date` into a local-time Date.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Coupon } from '../shop/generated/v3/coupons.js';
import { HttpProblem, NotFound, type HandlerContext, type ShopHandlers } from '../shop/generated/server/index.js';
import type { Cursors } from './cursor.js';
import { first, inTransaction, only, preconditions, writeIf } from './db.js';

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
    async list(query) {
      const after = cursors.decode(query.cursor, []);
      if (after instanceof HttpProblem) return after;
      const { rows } = await pool.query<CouponRow>(`SELECT ${COLUMNS} FROM coupons WHERE seq > $1 ORDER BY seq LIMIT $2`, [after, query.limit + 1]);
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return { data: page.map(couponOf), next_cursor: rows.length > query.limit && last ? cursors.encode(last.seq, []) : null };
    },

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
