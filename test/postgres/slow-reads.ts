/**
 * @module Latency a test adds to a pool's single-row reads (`SELECT ... WHERE id = $1`), as a database under
 * load has: concurrent requests then all read the row before any of them writes, so a handler whose write
 * does not re-check what it read (in its WHERE) lets more than one of them through.
 */
import type pg from 'pg';

type Callback = (error: Error | null, result: unknown) => void;
type Query = (...args: unknown[]) => unknown;

/** Delays the answer of every single-row read by `ms` on every connection `pool` opens from now on. */
export function slowSingleRowReads(pool: pg.Pool, ms: number): void {
  const slow = (text: unknown) => typeof text === 'string' && /^SELECT .* WHERE id = \$1$/s.test(text);
  pool.on('connect', (client) => {
    const target = client as unknown as { query: Query };
    const query = target.query.bind(client) as Query;
    target.query = (...args: unknown[]) => {
      if (!slow(args[0])) return query(...args);
      const last = args.at(-1);
      // pg-pool calls with a callback; handlers await a promise.
      if (typeof last === 'function') {
        const done = last as Callback;
        return query(...args.slice(0, -1), (error: Error | null, result: unknown) => setTimeout(() => done(error, result), ms));
      }
      return (query(...args) as Promise<unknown>).then((result) => new Promise((resolve) => setTimeout(() => resolve(result), ms)));
    };
  });
}
