/**
 * The transaction a handler hands to `ctx.events.write(tx, ...)`: the pg client that holds it (`pool.connect()`),
 * never the pool, whose every query would commit on its own, outside the handler's transaction.
 */
import pg from 'pg';

/** A connection a query can be sent through. */
export type Queryable = Pick<pg.ClientBase, 'query'>;

/** `tx` as a client, or a TypeError naming `what` and the fix. */
export function clientOf(tx: unknown, what: string): Queryable {
  if (tx instanceof pg.Pool)
    throw new TypeError(`${what}: tx is the pool; pass the client that holds the transaction (const tx = await pool.connect(); BEGIN ...)`);
  if (typeof tx !== 'object' || tx === null || typeof (tx as { query?: unknown }).query !== 'function')
    throw new TypeError(`${what}: tx must be the pg client (from pool.connect()) that holds the handler's transaction`);
  return tx as Queryable;
}

/**
 * Runs `work` in one transaction on a connection of `pool` (opened with `begin`): committed when it returns, rolled
 * back when it throws. A connection that cannot roll back (it broke) is dropped from the pool, not handed out again.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    broken = !(await client.query('ROLLBACK').then(
      () => true,
      () => false,
    ));
    throw error;
  } finally {
    client.release(broken);
  }
}
