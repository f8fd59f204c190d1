/**
 * `@restgen/postgres`'s migration on a real PostgreSQL, as a function and as its command line (`restgen-postgres`,
 * bundled from source and run with node): it creates the tables and records their version; run again, or by five
 * instances at once, it changes nothing; a database a newer package migrated is refused untouched; and the command
 * line says what it did, with exit codes 0, 1 and 2, never printing the password.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS, migrate, schemaVersion } from '@restgen/postgres';
import { bundleForNode } from '../helpers/bundle-node.ts';
import { createTestDatabase, postgresUrl, requirePostgres, type TestDatabase } from './database.ts';

const serverUrl = postgresUrl();
const run = promisify(execFile);

/** Runs the bundled command line with `args`: its exit code and output. */
async function cli(script: string, args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args], { env: { ...process.env, DATABASE_URL: '', ...env } });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout, err: e.stderr };
  }
}

const TABLES = [
  'restgen_event_log',
  'restgen_event_log_head',
  'restgen_events',
  'restgen_idempotency',
  'restgen_schema_version',
  'restgen_webhook_endpoints',
  'restgen_webhook_outbox',
];

describe.runIf(requirePostgres(serverUrl))("@restgen/postgres's migration", () => {
  let db: TestDatabase;
  let script = '';
  beforeAll(async () => {
    db = await createTestDatabase(serverUrl!);
    script = await bundleForNode(new URL('../../packages/postgres/src/cli.ts', import.meta.url).pathname, 'restgen-postgres-cli');
  });
  afterAll(async () => db?.drop());
  const tables = async () =>
    (await db.pool.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE tablename LIKE 'restgen_%' ORDER BY 1")).rows.map((r) => r.name);

  it('creates every table once, records the version, and is idempotent when five instances run it at once', async () => {
    expect(await schemaVersion(db.pool)).toBe(0);
    const results = await Promise.all(Array.from({ length: 5 }, () => migrate(db.pool)));
    expect(results.filter((r) => r.applied.length > 0)).toEqual([
      { from: 0, to: LATEST_VERSION, applied: MIGRATIONS.map(({ version, description }) => ({ version, description })) },
    ]);
    expect(results.filter((r) => r.applied.length === 0).every((r) => r.from === LATEST_VERSION && r.to === LATEST_VERSION)).toBe(true);
    expect(await tables()).toEqual(TABLES);
    expect(await schemaVersion(db.pool)).toBe(LATEST_VERSION);
    const { rows } = await db.pool.query<{ version: number }>('SELECT version FROM restgen_schema_version ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it("lays out restgen_events as Debezium's outbox event router reads it by default", async () => {
    const { rows } = await db.pool.query<{ column_name: string; data_type: string; is_nullable: string }>(
      "SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = 'restgen_events' ORDER BY ordinal_position",
    );
    expect(rows.map((r) => [r.column_name, r.data_type, r.is_nullable])).toEqual([
      ['id', 'uuid', 'NO'],
      ['aggregatetype', 'character varying', 'NO'],
      ['aggregateid', 'character varying', 'NO'],
      ['type', 'character varying', 'NO'],
      ['payload', 'jsonb', 'YES'],
      ['timestamp', 'timestamp with time zone', 'NO'],
    ]);
  });

  it('upgrades a database 0.1.0 migrated (version 1) to the event log, keeping its rows', async () => {
    const old = await createTestDatabase(serverUrl!);
    try {
      // What @restgen/postgres 0.1.0's migrate left: version 1 and its tables, with a row.
      await old.pool.query(
        'CREATE TABLE restgen_schema_version (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      await old.pool.query(MIGRATIONS[0]!.sql);
      await old.pool.query('INSERT INTO restgen_schema_version (version, description) VALUES (1, $1)', [MIGRATIONS[0]!.description]);
      await old.pool.query(`INSERT INTO restgen_webhook_endpoints (id, record) VALUES ('e1', '{}')`);
      const result = await migrate(old.pool);
      expect(result).toEqual({ from: 1, to: 2, applied: [{ version: 2, description: MIGRATIONS[1]!.description }] });
      expect((await old.pool.query('SELECT id FROM restgen_webhook_endpoints')).rows).toEqual([{ id: 'e1' }]);
      expect((await old.pool.query('SELECT head FROM restgen_event_log_head')).rows).toEqual([{ head: '0' }]);
    } finally {
      await old.drop();
    }
  });

  it('refuses a database a newer @restgen/postgres migrated, changing nothing', async () => {
    await db.pool.query("INSERT INTO restgen_schema_version (version, description) VALUES ($1, 'from the future')", [LATEST_VERSION + 1]);
    try {
      await expect(migrate(db.pool)).rejects.toThrow(`at version ${LATEST_VERSION + 1}, which a newer @restgen/postgres applied`);
      const status = await cli(script, ['status', db.url]);
      expect(status.code).toBe(1);
      expect(status.out).toContain('newer than this package');
    } finally {
      await db.pool.query('DELETE FROM restgen_schema_version WHERE version = $1', [LATEST_VERSION + 1]);
    }
  });

  it('the command line migrates a fresh database, then says it is up to date; status tells the version', async () => {
    const fresh = await createTestDatabase(serverUrl!);
    try {
      const first = await cli(script, ['migrate'], { DATABASE_URL: fresh.url });
      expect(first).toMatchObject({ code: 0, err: '' });
      expect(first.out).toBe(
        `restgen tables migrated from version 0 to ${LATEST_VERSION}: ${MIGRATIONS.map((m) => `${m.version} (${m.description})`).join('; ')}\n`,
      );
      expect((await cli(script, ['migrate', fresh.url])).out).toBe(`restgen tables up to date (version ${LATEST_VERSION})\n`);
      expect((await cli(script, ['status', fresh.url])).out).toBe(
        `restgen tables at version ${LATEST_VERSION}; this @restgen/postgres knows ${LATEST_VERSION} (up to date)\n`,
      );
    } finally {
      await fresh.drop();
    }
  });

  it('exit code 2 for a usage error, 1 when the database cannot be reached, and never the password in a message', async () => {
    expect((await cli(script, [])).code).toBe(2);
    expect((await cli(script, ['upgrade'])).err).toContain('unknown arguments: upgrade');
    expect((await cli(script, ['migrate'])).err).toContain('no database URL: pass one, or set DATABASE_URL');
    const url = new URL(db.url);
    url.password = 'not-the-password-s3cret';
    url.port = '1';
    const refused = await cli(script, ['migrate', url.toString()]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^restgen-postgres: migrate on postgres:\/\/restgen:\*\*\*@127\.0\.0\.1:1\/\w+ failed: /);
    expect(refused.err).not.toContain('s3cret');
    expect((await cli(script, ['--help'])).out).toContain('usage: restgen-postgres <migrate|status>');
  });
});
