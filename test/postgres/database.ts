/**
 * @module The PostgreSQL the tests run against: the cluster `scripts/ensure-postgres.sh` starts (installing
 * Debian's postgresql when missing) or POSTGRES_URL, and a fresh database per test file, dropped afterwards.
 * Without a server the tests are skipped with a message, except in CI (`CI=true`), where they fail.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';

const URL_FILE = new URL('../.tmp/postgres/url', import.meta.url).pathname;

/** The server's URL: POSTGRES_URL, or the cluster ensure-postgres.sh started (started now if need be); null without one. */
export function postgresUrl(): string | null {
  if (process.env['POSTGRES_URL']) return process.env['POSTGRES_URL'];
  try {
    return (
      execFileSync('bash', [new URL('../../scripts/ensure-postgres.sh', import.meta.url).pathname], {
        encoding: 'utf8',
        timeout: 300_000,
        stdio: ['ignore', 'pipe', 'pipe'],
      }).trim() || null
    );
  } catch (error) {
    // The script says why on stderr; a server recorded before may still answer.
    const why = (error as { stderr?: string }).stderr ?? String(error);
    if (existsSync(URL_FILE)) return readFileSync(URL_FILE, 'utf8').trim();
    console.warn(`ensure-postgres.sh failed: ${why}`);
    return null;
  }
}

/** Whether the PostgreSQL tests run: in CI a missing server is a failure, never a skip. */
export function requirePostgres(url: string | null): url is string {
  if (url !== null) return true;
  if (process.env['CI'] === 'true') throw new Error('CI=true and no PostgreSQL could be started: scripts/ensure-postgres.sh must install and start one');
  console.warn('SKIPPED: the PostgreSQL tests need a PostgreSQL server (scripts/ensure-postgres.sh installs and starts one; or set POSTGRES_URL)');
  return false;
}

/** A database of its own for one test file. */
export interface TestDatabase {
  readonly url: string;
  readonly pool: pg.Pool;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/** Creates an empty database on the server at `serverUrl` (named `rg_<random>`), with a pool on it. */
export async function createTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `rg_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 20 });
  return {
    url: url.toString(),
    pool,
    async drop() {
      await pool.end();
      const again = new pg.Client({ connectionString: serverUrl });
      await again.connect();
      try {
        // Not WITH (FORCE): that would terminate connections still closing, which then fail unhandled. A
        // connection of a killed child process goes away once the server notices: wait for it.
        for (let attempt = 1; ; attempt++)
          try {
            await again.query(`DROP DATABASE IF EXISTS ${name}`);
            break;
          } catch (error) {
            if (!(error instanceof pg.DatabaseError) || error.code !== '55006' || attempt === 100) throw error;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
      } finally {
        await again.end();
      }
    },
  };
}
