/**
 * The shop's product ids on PostgreSQL: the documents allow any product_id up to 2^53 − 1, so the column is a bigint
 * (an integer column answered 500 to a valid create), read back as the number that was written; and a database made
 * while it was an integer column is widened by `createSchema`, its rows kept. (`restgen conformance`'s bounds check
 * against the example, in conformance.test.ts, sends the largest value too.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchema, schemaSql } from '../../examples/shop-postgres/schema.ts';
import { createTestDatabase, postgresUrl, requirePostgres, type TestDatabase } from './database.ts';
import { startShop, type RunningShop } from './shop.ts';

const serverUrl = postgresUrl();

describe.runIf(requirePostgres(serverUrl))('orders.product_id on PostgreSQL', () => {
  let shop: RunningShop;
  let old: TestDatabase;
  beforeAll(async () => {
    [shop, old] = await Promise.all([startShop(serverUrl!), createTestDatabase(serverUrl!)]);
  });
  afterAll(async () => Promise.all([shop?.stop(), old?.drop()]));

  it('holds the largest id the documents allow, and answers it as written', async () => {
    const customer = await shop.call('POST', '/v3/customers', { email: 'big-ids@example.com', name: 'Big' });
    const created = await shop.call('POST', '/v3/orders', { customer_id: customer.body['id'], product_id: 2 ** 53 - 1, quantity: 1 });
    expect(created.status).toBe(201);
    expect(created.body['product_id']).toBe(2 ** 53 - 1);
    expect((await shop.call('GET', `/v3/orders/${String(created.body['id'])}`)).body['product_id']).toBe(2 ** 53 - 1);
  });

  it('widens the integer column of a database made before, keeping its rows', async () => {
    // The schema as it was: product_id an integer column.
    const before = (await schemaSql()).replace('product_id    bigint NOT NULL', 'product_id    integer NOT NULL');
    expect(before).toContain('product_id    integer NOT NULL');
    await old.pool.query(before);
    await old.pool.query(
      `INSERT INTO orders (id, customer_id, product_id, quantity, currency, status, created_at)
       VALUES ('0d3c4a4e-9a8e-4f0e-8d7e-2d1f1b0a0002', '0d3c4a4e-9a8e-4f0e-8d7e-2d1f1b0a0001', 7, 1, 'EUR', 'open', now())`,
    );
    await createSchema(old.pool);
    const column = await old.pool.query<{ data_type: string }>(
      "SELECT data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'orders' AND column_name = 'product_id'",
    );
    expect(column.rows[0]!.data_type).toBe('bigint');
    expect((await old.pool.query<{ product_id: string }>('SELECT product_id FROM orders')).rows).toEqual([{ product_id: '7' }]);
    // Run again, it changes nothing.
    await createSchema(old.pool);
  });
});
