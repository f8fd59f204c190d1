/**
 * @module Creates the shop's tables in a database: restgen's own (webhook endpoints, the outbox, idempotency
 * records), by `@restgen/postgres`'s versioned migration, then the shop's (`schema.sql`). Idempotent, and safe when
 * several instances start at once (they take turns on advisory locks). Run it as a script to prepare a database:
 *
 *     node --import jiti/register examples/shop-postgres/schema.ts postgres://user:pass@127.0.0.1:5432/shop
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { migrate } from '@restgen/postgres';
import pg from 'pg';

/** The text of `schema.sql`. */
export const schemaSql = (): Promise<string> => readFile(new URL('./schema.sql', import.meta.url), 'utf8');

/** Creates every table and index that does not exist yet (each step in one transaction, under an advisory lock). */
export async function createSchema(pool: pg.Pool): Promise<void> {
  await migrate(pool);
  const sql = await schemaSql();
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Two instances running `CREATE TABLE IF NOT EXISTS` at once can both try to create the table.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('restgen-shop-schema'))");
    await client.query(sql);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const url = process.argv[2] ?? process.env['DATABASE_URL'];
  if (url === undefined) {
    console.error('usage: schema.ts <postgres URL> (or set DATABASE_URL)');
    process.exitCode = 2;
  } else {
    const pool = new pg.Pool({ connectionString: url });
    await createSchema(pool).finally(() => pool.end());
    console.log('schema created');
  }
}
