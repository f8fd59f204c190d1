/**
 * @module The packed-package test's program on `@restgen/postgres` (`test/package/packed.test.ts`): written into the
 * fresh project as `pg-usage.ts`, type-checked in both module modes and run built against a migrated database. It
 * prints what the test checks as one JSON line.
 */

/** A server on the generated code that keeps its idempotent answers and webhooks in PostgreSQL (`@restgen/postgres`). */
export const PG_USAGE = `import Fastify from 'fastify';
import pg from 'pg';
import { createPostgresEndpoints, createPostgresEventLog, createPostgresIdempotency, createPostgresOutbox, migrate } from '@restgen/postgres';
import { createMemoryHandlers, registerTodoApi } from './generated/server/index.js';

const pool = new pg.Pool({ connectionString: process.argv[2] });
const migrated = await migrate(pool);
const app = Fastify();
await registerTodoApi(app, createMemoryHandlers(), {
  authenticate: async () => ({ id: 'u1', scopes: ['tasks:read', 'tasks:write'] }),
  idempotency: createPostgresIdempotency(pool),
  webhooks: { outbox: createPostgresOutbox(pool), endpoints: createPostgresEndpoints(pool) },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('not listening on a port');
const create = () =>
  fetch(\`http://127.0.0.1:\${address.port}/v1/tasks\`, {
    method: 'POST',
    headers: { authorization: 'Bearer secret', 'content-type': 'application/json', 'idempotency-key': 'once' },
    body: JSON.stringify({ name: 'Only once' }),
  });
const first = await create();
const again = await create();
const firstBody = (await first.json()) as { id: string };
const againBody = (await again.json()) as { id: string };
const kept = await pool.query('SELECT count(*)::int AS n FROM restgen_idempotency');
// The event stream's log (this API has no events, so it is used directly): numbered once appended.
const log = createPostgresEventLog(pool);
await log.append([{ type: 'task.noted', time: Date.now(), data: '{}' }]);
const page = await log.read(0, 10);
console.log(JSON.stringify({ migratedTo: migrated.to, applied: migrated.applied.length, statuses: [first.status, again.status], sameId: firstBody.id === againBody.id, replayed: again.headers.get('idempotent-replayed'), kept: kept.rows[0], logged: page.events.map((e) => e.seq) }));
await app.close();
await pool.end();
`;
