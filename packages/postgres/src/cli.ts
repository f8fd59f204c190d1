#!/usr/bin/env node
/**
 * `restgen-postgres`: the migration's command line.
 *
 *     restgen-postgres migrate [postgres://...]   creates or upgrades the tables (DATABASE_URL when no URL is given)
 *     restgen-postgres status [postgres://...]    prints the version the database is at, and the newest this package knows
 *
 * Exit codes: 0 done (or up to date), 1 the database refused or could not be reached, 2 a usage error. The only
 * module of the package that touches the process.
 */
import pg from 'pg';
import { migrate, schemaVersion } from './migrate.js';
import { LATEST_VERSION } from './migrations.js';

const USAGE = `usage: restgen-postgres <migrate|status> [postgres://user:password@host:port/database]
  migrate   creates the tables of @restgen/postgres, or applies the migrations the database lacks (idempotent)
  status    prints the version the database is at and the newest this package knows
The URL defaults to DATABASE_URL.`;

/** The URL without its password, for messages. */
const shown = (url: string): string => {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the URL given';
  }
};

async function main(args: readonly string[]): Promise<number> {
  const [command, given, ...rest] = args;
  if (command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if ((command !== 'migrate' && command !== 'status') || rest.length > 0) {
    process.stderr.write(`restgen-postgres: ${command === undefined ? 'no command' : `unknown arguments: ${args.join(' ')}`}\n${USAGE}\n`);
    return 2;
  }
  const url = given ?? process.env['DATABASE_URL'];
  if (url === undefined || url === '') {
    process.stderr.write(`restgen-postgres: no database URL: pass one, or set DATABASE_URL\n${USAGE}\n`);
    return 2;
  }
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  // An idle connection the server drops must not end the process with an unhandled error.
  pool.on('error', () => undefined);
  try {
    if (command === 'status') {
      const version = await schemaVersion(pool);
      const state = version === LATEST_VERSION ? 'up to date' : version < LATEST_VERSION ? 'migrate to upgrade' : 'newer than this package';
      process.stdout.write(`restgen tables at version ${version}; this @restgen/postgres knows ${LATEST_VERSION} (${state})\n`);
      return version > LATEST_VERSION ? 1 : 0;
    }
    const result = await migrate(pool);
    if (result.applied.length === 0) process.stdout.write(`restgen tables up to date (version ${result.to})\n`);
    else
      process.stdout.write(
        `restgen tables migrated from version ${result.from} to ${result.to}: ${result.applied.map((m) => `${m.version} (${m.description})`).join('; ')}\n`,
      );
    return 0;
  } catch (error) {
    // No control character of a server's message reaches the terminal.
    const message = (error instanceof Error ? error.message : String(error)).replace(/\p{Cc}/gu, ' ');
    process.stderr.write(`restgen-postgres: ${command} on ${shown(url)} failed: ${message}\n`);
    return 1;
  } finally {
    await pool.end().catch(() => undefined);
  }
}

process.exitCode = await main(process.argv.slice(2));
