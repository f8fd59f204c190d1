/**
 * Creates and upgrades the tables of `@restgen/postgres` in a database: the migrations not yet applied, in order,
 * in one transaction, each recorded in `restgen_schema_version`. Idempotent (a database that is up to date is left
 * as it is) and safe when several instances start at once: they take turns on an advisory lock, and the second
 * finds nothing left to do. A database migrated by a newer `@restgen/postgres` is refused, not touched.
 */
import type pg from 'pg';
import { inTransaction } from './client.js';
import { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations.js';

/** What {@link migrate} did. */
export interface MigrationResult {
  /** The version the database was at (0: none of the tables existed). */
  readonly from: number;
  /** The version it is at now. */
  readonly to: number;
  /** The migrations applied, oldest first (none when it was up to date). */
  readonly applied: readonly Pick<Migration, 'version' | 'description'>[];
}

/** The key of the advisory lock the migration holds (one for every database: the lock is per database anyway). */
const LOCK = "hashtext('restgen-postgres-migrate')";

const VERSION_TABLE = `CREATE TABLE IF NOT EXISTS restgen_schema_version (
  version      integer PRIMARY KEY,
  description  text NOT NULL,
  applied_at   timestamptz NOT NULL DEFAULT now()
)`;

/** The version `db` is at: 0 when no migration was applied (or the table does not exist). */
export async function schemaVersion(db: pg.Pool | pg.PoolClient): Promise<number> {
  const exists = await db.query<{ found: string | null }>("SELECT to_regclass('restgen_schema_version')::text AS found");
  if ((exists.rows[0]?.found ?? null) === null) return 0;
  const { rows } = await db.query<{ version: number | null }>('SELECT max(version) AS version FROM restgen_schema_version');
  return rows[0]?.version ?? 0;
}

/**
 * Applies the migrations the database at `pool` lacks. Throws (changing nothing) when the database is at a version
 * this package does not know, or when a migration fails.
 */
export async function migrate(pool: pg.Pool): Promise<MigrationResult> {
  return inTransaction(pool, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(${LOCK})`);
    await client.query(VERSION_TABLE);
    const from = await schemaVersion(client);
    if (from > LATEST_VERSION)
      throw new Error(
        `the database's restgen tables are at version ${from}, which a newer @restgen/postgres applied; this one knows versions up to ${LATEST_VERSION}: upgrade @restgen/postgres`,
      );
    const pending = MIGRATIONS.filter((m) => m.version > from);
    for (const m of pending) {
      await client.query(m.sql);
      await client.query('INSERT INTO restgen_schema_version (version, description) VALUES ($1, $2)', [m.version, m.description]);
    }
    return { from, to: Math.max(from, LATEST_VERSION), applied: pending.map(({ version, description }) => ({ version, description })) };
  });
}
