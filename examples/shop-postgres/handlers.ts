/**
 * @module The shop example's handlers on PostgreSQL: every collection of examples/shop/api.ts (newest version,
 * v3) over one connection pool. Create the tables first (`createSchema` in schema.ts), then hand these to
 * `registerShopApi` with @restgen/postgres's outbox, endpoints and idempotency store (server.ts does both).
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { ShopHandlers } from '../shop/generated/server/index.js';
import { createCouponHandlers } from './coupons.js';
import { createCursors } from './cursor.js';
import { createCustomerHandlers } from './customers.js';
import { createOrderHandlers } from './orders.js';

/** Options of {@link createPostgresHandlers}. */
export interface PostgresHandlersOptions {
  /**
   * The key list cursors are signed with (default: random, per process). Every instance that serves one
   * database must share it, and keep it across restarts, for a cursor issued by one to work on another.
   */
  readonly cursorSecret?: string | Uint8Array;
}

/** The handlers of every shop collection over `pool`. */
export function createPostgresHandlers(pool: pg.Pool, options: PostgresHandlersOptions = {}): ShopHandlers {
  const secret = options.cursorSecret ?? randomBytes(32);
  const cursors = createCursors(typeof secret === 'string' ? Buffer.from(secret) : secret);
  return {
    customers: createCustomerHandlers(pool, cursors),
    orders: createOrderHandlers(pool, cursors),
    coupons: createCouponHandlers(pool, cursors),
  };
}
