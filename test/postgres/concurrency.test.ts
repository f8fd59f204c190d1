/**
 * Concurrent writes on the shop example's PostgreSQL handlers, over HTTP, with every single-row read slowed
 * down (so the requests all read before any writes, as under load): N updates or deletes with the same
 * If-Match give exactly one 2xx and N-1 412; N transitions that exclude each other give exactly one 200 and
 * 409 for the rest, and the final state is the winner's; N creates with one Idempotency-Key make one row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUrl, requirePostgres } from './database.ts';
import { startShop, type RunningShop } from './shop.ts';
import { slowSingleRowReads } from './slow-reads.ts';

const serverUrl = postgresUrl();
const N = 6;

describe.runIf(requirePostgres(serverUrl))('concurrent writes on PostgreSQL', () => {
  let shop: RunningShop;
  let customer = '';
  beforeAll(async () => {
    shop = await startShop(serverUrl!, {}, (pool) => slowSingleRowReads(pool, 100));
    customer = (await shop.call('POST', '/v3/customers', { email: 'race@example.com', name: 'Race' })).body['id'] as string;
  });
  afterAll(() => shop?.stop());

  const newOrder = () => shop.call('POST', '/v3/orders', { customer_id: customer, product_id: 1, quantity: 1 });
  const statuses = (answers: readonly { status: number }[]) => answers.map((a) => a.status).sort();

  it(`${N} updates with the same If-Match: one 200, ${N - 1} 412, and the winner's value stored`, async () => {
    const order = await newOrder();
    const id = order.body['id'] as string;
    const etag = order.headers.get('etag')!;
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => shop.call('PATCH', `/v3/orders/${id}`, { quantity: 10 + i }, { 'if-match': etag })));
    expect(statuses(answers)).toEqual([200, ...Array<number>(N - 1).fill(412)]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await shop.call('GET', `/v3/orders/${id}`)).body['quantity']).toBe(winner.body['quantity']);
  });

  it(`${N} replaces with the same If-Match: one 200, ${N - 1} 412`, async () => {
    const created = await shop.call('POST', '/v3/customers', { email: 'replace-race@example.com', name: 'R' });
    const id = created.body['id'] as string;
    const etag = created.headers.get('etag')!;
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) => shop.call('PUT', `/v3/customers/${id}`, { email: 'replace-race@example.com', name: `R${i}` }, { 'if-match': etag })),
    );
    expect(statuses(answers)).toEqual([200, ...Array<number>(N - 1).fill(412)]);
  });

  it(`${N} deletes with the same If-Match: one 204, ${N - 1} 412 (never 404: the resource the ETag named is gone)`, async () => {
    const order = await newOrder();
    const id = order.body['id'] as string;
    const etag = order.headers.get('etag')!;
    const answers = await Promise.all(Array.from({ length: N }, () => shop.call('DELETE', `/v3/orders/${id}`, undefined, { 'if-match': etag })));
    expect(statuses(answers)).toEqual([204, ...Array<number>(N - 1).fill(412)]);
  });

  it(`${N} pays of one open order: one 200, ${N - 1} 409 (the order is paid by then)`, async () => {
    const id = (await newOrder()).body['id'] as string;
    const answers = await Promise.all(Array.from({ length: N }, () => shop.call('POST', `/v3/orders/${id}:pay`)));
    expect(statuses(answers)).toEqual([200, ...Array<number>(N - 1).fill(409)]);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body['state'] === 'paid')).toBe(true);
  });

  it("ships and cancels of one paid order, each excluding the other: exactly one 200, the rest 409, and the final state is the winner's", async () => {
    const id = (await newOrder()).body['id'] as string;
    await shop.call('POST', `/v3/orders/${id}:pay`);
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        i % 2 === 0 ? shop.call('POST', `/v3/orders/${id}:ship`, { carrier: 'DHL' }) : shop.call('POST', `/v3/orders/${id}:cancel`, { reason: 'race' }),
      ),
    );
    expect(statuses(answers)).toEqual([200, ...Array<number>(N - 1).fill(409)]);
    const winner = answers.find((a) => a.status === 200)!.body['status'];
    expect(['shipped', 'cancelled']).toContain(winner);
    expect((await shop.call('GET', `/v3/orders/${id}`)).body['status']).toBe(winner);
  });

  it(`${N} creates with one Idempotency-Key: one order, every answer the same`, async () => {
    const answers = await Promise.all(
      Array.from({ length: N }, () =>
        shop.call('POST', '/v3/orders', { customer_id: customer, product_id: 99, quantity: 1 }, { 'idempotency-key': 'one-order' }),
      ),
    );
    expect(new Set(answers.map((a) => a.body['id'])).size).toBe(1);
    const rows = await shop.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM orders WHERE product_id = 99');
    expect(rows.rows[0]!.n).toBe('1');
  });
});
