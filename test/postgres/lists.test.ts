/**
 * The shop's list queries over real HTTP on the PostgreSQL reference (the suite in test/queries/shop-lists.ts, which
 * the in-memory handlers run too): filters, sorts, stable pages, masks, cursors bound to their query, and expanded
 * customers read with one statement per page.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { shopListSuite } from '../queries/shop-lists.ts';
import { postgresUrl, requirePostgres } from './database.ts';
import { SCOPES, startShop, type RunningShop } from './shop.ts';

const serverUrl = postgresUrl();

describe.runIf(requirePostgres(serverUrl))('the shop on PostgreSQL', () => {
  let shop: RunningShop;
  let reads = 0;
  beforeAll(async () => {
    shop = await startShop(
      serverUrl!,
      // `orders` may do anything but read customers.
      { authenticate: ({ token }) => ({ id: token, scopes: token === 'orders' ? SCOPES.filter((s) => s !== 'customers:read') : SCOPES }) },
      (pool) => {
        // Counts the statements that read customers by id (get, getMany).
        const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
        (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
          if (typeof args[0] === 'string' && /FROM customers WHERE id =/.test(args[0])) reads++;
          return query(...args);
        };
      },
    );
  });
  afterAll(() => shop?.stop());

  shopListSuite('PostgreSQL', () => ({
    async call(method, path, body, token) {
      const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token ?? 'admin'}` };
      const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } };
      if (body !== undefined) init.body = JSON.stringify(body);
      const response = await fetch(shop.server.url + path, init);
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    },
    customerReads: () => {
      const n = reads;
      reads = 0;
      return n;
    },
  }));
});
