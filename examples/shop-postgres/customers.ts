/**
 * @module The customers collection on PostgreSQL: create (a taken email answers 409 from the unique
 * constraint), get and getMany (the refs orders expand), list (keyset pages in creation order or sorted by
 * createdAt; ?email= and ?tier= filters), replace and update (conditional on the
 * revision read, so If-Match holds atomically), delete (the same). The write-only password is stored as a
 * scrypt hash and never selected into an answer.
 */
import { randomBytes, randomUUID, scrypt } from 'node:crypto';
import { promisify } from 'node:util';
import type pg from 'pg';
import type { Customer } from '../shop/generated/v3/customers.js';
import { HttpProblem, NotFound, type HandlerContext, type ShopHandlers } from '../shop/generated/server/index.js';
import type { Cursors } from './cursor.js';
import { first, inTransaction, jsonb, only, preconditions, writeIf } from './db.js';
import type { Table } from './list-query.js';
import { pageOf } from './pages.js';

/** A row of `customers` as the handlers select it (never the password). */
interface CustomerRow {
  readonly id: string;
  readonly seq: string;
  readonly revision: string;
  readonly email: string;
  readonly name: string | null;
  readonly tier: Customer['tier'];
  readonly shipping: Customer['shipping'] | null;
  readonly tags: string[];
  readonly created_at: Date;
}
const COLUMNS = 'id, seq, revision, email, name, tier, shipping, tags, created_at';

/** What lists filter and sort customers by: each field of the contract that a query may name, and its column. */
const CUSTOMERS: Table = {
  name: 'customers',
  seq: 'seq',
  columns: {
    id: { column: 'id', type: 'uuid' },
    email: { column: 'email', type: 'text' },
    tier: { column: 'tier', type: 'text' },
    createdAt: { column: 'created_at', type: 'timestamptz' },
  },
};

/** The resource of a row (absent optional fields left out, not null). */
const customerOf = (row: CustomerRow): Customer => ({
  id: row.id,
  email: row.email,
  ...(row.name === null ? {} : { name: row.name }),
  tier: row.tier,
  ...(row.shipping === null ? {} : { shipping: row.shipping }),
  tags: row.tags,
  createdAt: row.created_at.toISOString(),
});

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;
/** `scrypt$<salt>$<hash>` of a password, or null without one. */
async function passwordHash(password: string | undefined): Promise<string | null> {
  if (password === undefined) return null;
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64url')}$${(await scryptAsync(password, salt, 32)).toString('base64url')}`;
}

/** What a replace or an update writes: every column but the read-only ones, and the new password's hash. */
interface Written {
  readonly email: string;
  readonly name: string | undefined;
  readonly tier: Customer['tier'];
  readonly shipping: Customer['shipping'];
  readonly tags: readonly string[];
  /** A new hash, `null` to remove the password, `undefined` to keep it. */
  readonly password: string | null | undefined;
}

/** The customers handlers over `pool`. */
export function createCustomerHandlers(pool: pg.Pool, cursors: Cursors): ShopHandlers['customers'] {
  const read = (db: pg.Pool | pg.PoolClient, id: string) => db.query<CustomerRow>(`SELECT ${COLUMNS} FROM customers WHERE id = $1`, [id]).then(first);

  /** Replace and update: the row read, changed by `change`, written only while its revision is the one read. */
  const write = (id: string, ctx: HandlerContext, change: (current: Customer) => Promise<Written>) =>
    inTransaction(pool, async (tx) => {
      const written = await writeIf(
        () => read(tx, id),
        preconditions(ctx, 'customer', customerOf),
        async (row) => {
          const next = await change(customerOf(row));
          return tx
            .query<CustomerRow>(
              `UPDATE customers
                  SET email = $3, name = $4, tier = $5, shipping = $6, tags = $7,
                      password = CASE WHEN $9 THEN password ELSE $8 END, revision = revision + 1
                WHERE id = $1 AND revision = $2
            RETURNING ${COLUMNS}`,
              [id, row.revision, next.email, next.name ?? null, next.tier, jsonb(next.shipping), JSON.stringify(next.tags), next.password ?? null, next.password === undefined],
            )
            .then(first);
        },
      );
      if (written instanceof HttpProblem) return written;
      const customer = customerOf(written);
      await ctx.events.write(tx, customer);
      return customer;
    });

  return {
    list: (query) => pageOf(pool, { table: CUSTOMERS, select: COLUMNS, resource: customerOf }, query, cursors),

    // One query for every customer a page of orders expands.
    async getMany(ids) {
      const { rows } = await pool.query<CustomerRow>(`SELECT ${COLUMNS} FROM customers WHERE id = ANY($1::uuid[])`, [ids]);
      return rows.map(customerOf);
    },

    async get(id) {
      const row = await read(pool, id);
      return row === null ? new NotFound('No customer has this id.') : customerOf(row);
    },

    create: (body, ctx) =>
      inTransaction(pool, async (tx) => {
        const row = await tx
          .query<CustomerRow>(
            `INSERT INTO customers (id, email, name, tier, password, shipping, tags, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
          RETURNING ${COLUMNS}`,
            [randomUUID(), body.email, body.name ?? null, body.tier, await passwordHash(body.password), jsonb(body.shipping), JSON.stringify(body.tags), new Date()],
          )
          .then(only);
        const customer = customerOf(row);
        await ctx.events.write(tx, customer);
        return customer;
      }),

    // A complete replacement: fields not sent are removed (the password too); id and createdAt stay.
    replace: (id, body, ctx) =>
      write(id, ctx, async () => ({ email: body.email, name: body.name, tier: body.tier, shipping: body.shipping, tags: body.tags, password: await passwordHash(body.password) })),

    // Only the fields sent change, merged into the row read (which the write then requires unchanged).
    update: (id, patch, ctx) =>
      write(id, ctx, async (current) => ({
        email: patch.email ?? current.email,
        name: patch.name ?? current.name,
        tier: patch.tier ?? current.tier,
        shipping: patch.shipping ?? current.shipping,
        tags: patch.tags ?? current.tags,
        password: patch.password === undefined ? undefined : await passwordHash(patch.password),
      })),

    delete: (id, ctx) =>
      inTransaction(pool, async (tx) => {
        const deleted = await writeIf(
          () => read(tx, id),
          preconditions(ctx, 'customer', customerOf),
          (row) => tx.query<CustomerRow>(`DELETE FROM customers WHERE id = $1 AND revision = $2 RETURNING ${COLUMNS}`, [id, row.revision]).then(first),
        );
        if (deleted instanceof HttpProblem) return deleted;
        // A delete's event carries the resource as it was.
        await ctx.events.write(tx, customerOf(deleted));
        return undefined;
      }),
  };
}
