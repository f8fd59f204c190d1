/**
 * Webhook endpoints as a table (`restgen_webhook_endpoints`), shared by every instance and by a separate
 * dispatcher. `update` is a compare-and-set on the row's revision: a change made meanwhile (a rotated secret, a
 * failure counted by the dispatcher) is never overwritten with an older copy.
 */
import type pg from 'pg';
import type { EndpointRecord, EndpointStore } from '@restgen/runtime';

interface EndpointRow {
  readonly record: EndpointRecord;
  readonly revision: string;
}

/** Compare-and-set rounds before an update gives up; each lost round is one another writer won. */
const ROUNDS = 100;

/** The endpoints table of the database `pool` connects to (created by `migrate`). */
export function createPostgresEndpoints(pool: pg.Pool): EndpointStore {
  const read = (id: string) =>
    pool.query<EndpointRow>('SELECT record, revision FROM restgen_webhook_endpoints WHERE id = $1', [id]).then((r) => r.rows[0] ?? null);
  return {
    async list() {
      const { rows } = await pool.query<EndpointRow>("SELECT record, revision FROM restgen_webhook_endpoints ORDER BY record->>'createdAt', id");
      return rows.map((r) => r.record);
    },
    get: async (id) => (await read(id))?.record ?? null,
    async put(record) {
      await pool.query('INSERT INTO restgen_webhook_endpoints (id, record) VALUES ($1, $2)', [record.id, JSON.stringify(record)]);
    },
    async update(id, change) {
      for (let round = 0; round < ROUNDS; round++) {
        const row = await read(id);
        if (row === null) return null;
        const next = change(row.record);
        if (next === row.record) return next;
        const { rowCount } = await pool.query('UPDATE restgen_webhook_endpoints SET record = $3, revision = revision + 1 WHERE id = $1 AND revision = $2', [
          id,
          row.revision,
          JSON.stringify(next),
        ]);
        if (rowCount === 1) return next;
      }
      throw new Error(`webhook endpoint ${id}: more than ${ROUNDS} concurrent updates won over this one`);
    },
    async delete(id) {
      const { rowCount } = await pool.query('DELETE FROM restgen_webhook_endpoints WHERE id = $1', [id]);
      return rowCount === 1;
    },
  };
}
