/**
 * @module What every handler of the example shares: a transaction that commits only when the handler
 * answers a resource (a problem rolls it back), a unique violation (SQLSTATE 23505) answered as 409 with the
 * field it concerns, and the conditional-write loop: read the row, decide (404, 412, 409 or go on), write
 * with the revision read in the WHERE, and decide again when another write came between (0 rows).
 */
import pg from 'pg';
import { Conflict, HttpProblem, NotFound, PreconditionFailed, type HandlerContext } from '../shop/generated/server/index.js';

/** The field each unique constraint of `schema.sql` protects, for the 409 it answers. */
const UNIQUE_FIELDS: Readonly<Record<string, string>> = {
  customers_email_key: 'email',
  coupons_code_key: 'code',
};

/** The 409 of a unique violation, or null when `error` is something else. */
export function uniqueConflict(error: unknown): Conflict | null {
  if (!(error instanceof pg.DatabaseError) || error.code !== '23505') return null;
  const field = UNIQUE_FIELDS[error.constraint ?? ''];
  return new Conflict(field === undefined ? 'A resource with the same unique value exists.' : `Another resource has this ${field}.`, field);
}

/**
 * Runs `work` in one transaction on one connection of `pool`: committed when it answers a resource, rolled
 * back when it answers a problem or throws. A unique violation is answered 409; any other error is thrown on
 * (the runtime answers 500 and logs it).
 */
export async function inTransaction<T>(pool: pg.Pool, work: (tx: pg.PoolClient) => Promise<T | HttpProblem>): Promise<T | HttpProblem> {
  const tx = await pool.connect();
  let answer: T | HttpProblem;
  try {
    await tx.query('BEGIN');
    answer = await work(tx);
    await tx.query(answer instanceof HttpProblem ? 'ROLLBACK' : 'COMMIT');
  } catch (error) {
    // The transaction is aborted (a failed statement) or the connection is gone: roll back, or drop the connection.
    const rolledBack = await tx.query('ROLLBACK').then(
      () => true,
      () => false,
    );
    tx.release(!rolledBack);
    const conflict = uniqueConflict(error);
    if (conflict !== null) return conflict;
    throw error;
  }
  tx.release();
  return answer;
}

/** A table row as the conditional writes read it: its revision besides the resource's columns. */
export interface Revised {
  readonly revision: string;
}

/**
 * Rounds of the conditional-write loop before it gives up (500). Each lost round is a round another writer
 * won, so N concurrent writers need at most N rounds: the cap only stops a runaway.
 */
const ROUNDS = 100;

/**
 * A write that holds only if the row is still the one its decision was made on: `read` the row; `decide` on
 * it (a problem ends here: 404, 412, 409); `write` it with the revision read in the WHERE, which yields null
 * when no row matched (another write came between): then read and decide again.
 */
export async function writeIf<R extends Revised, A>(
  read: () => Promise<R | null>,
  decide: (row: R | null) => HttpProblem | null,
  write: (row: R) => Promise<A | null>,
): Promise<A | HttpProblem> {
  for (let round = 0; round < ROUNDS; round++) {
    const row = await read();
    const problem = decide(row);
    if (problem !== null) return problem;
    if (row === null) throw new Error('decide let a missing row through');
    const written = await write(row);
    if (written !== null) return written;
  }
  throw new Error(`a conditional write lost ${ROUNDS} rounds in a row to concurrent writes`);
}

/**
 * The decision every conditional write starts with: a missing row answers 404, or 412 when the request
 * sends If-Match (a concurrent delete won); a row that no longer satisfies the request's If-Match /
 * If-None-Match answers 412. `show` turns a row into the resource the ETag is computed from.
 */
export function preconditions<R>(ctx: HandlerContext, what: string, show: (row: R) => object): (row: R | null) => HttpProblem | null {
  return (row) => {
    if (row === null) return ctx.condition !== null && !ctx.condition.matches(null) ? new PreconditionFailed() : new NotFound(`No ${what} has this id.`);
    if (ctx.condition !== null && !ctx.condition.matches(show(row))) return new PreconditionFailed();
    return null;
  };
}

/** The first row of a result, or null. */
export const first = <R extends pg.QueryResultRow>(result: pg.QueryResult<R>): R | null => result.rows[0] ?? null;

/** The one row of a result that always has one (`INSERT ... RETURNING`). */
export function only<R extends pg.QueryResultRow>(result: pg.QueryResult<R>): R {
  const row = result.rows[0];
  if (row === undefined) throw new Error(`expected a row from ${result.command}, got none`);
  return row;
}

/** A JSON value for a jsonb parameter (pg would send an array as a PostgreSQL array), or null. */
export const jsonb = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));
