/**
 * The shop's list queries over real HTTP on the in-memory handlers (the suite in shop-lists.ts; the PostgreSQL
 * reference runs the same one in test/postgres/lists.test.ts).
 */
import { afterAll, beforeAll } from 'vitest';
import { SCOPES } from '../postgres/shop.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running } from '../server/helpers.ts';
import { shopListSuite } from './shop-lists.ts';

let shop: Running;
let reads = 0;

beforeAll(async () => {
  const mod = await importServer(await generateInto('shop-lists'));
  const handlers = mod.createMemoryHandlers() as Record<string, Record<string, (...args: never[]) => unknown>>;
  const customers = handlers['customers']!;
  for (const name of ['get', 'getMany'] as const) {
    const read = customers[name]!.bind(customers);
    customers[name] = ((...args: never[]) => (reads++, read(...args))) as never;
  }
  shop = await start((app) =>
    registerOf(mod, 'Shop')(app, handlers, {
      // `orders` may do anything but read customers.
      authenticate: ({ token }: { token: string }) => ({ id: token, scopes: token === 'orders' ? SCOPES.filter((s) => s !== 'customers:read') : SCOPES }),
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
    }),
  );
});
afterAll(() => shop.close());

shopListSuite('memory', () => ({
  call: (method, path, body, token) => shop.call(method, path, { ...(body === undefined ? {} : { body }), token: token === undefined ? 'admin' : token }),
  customerReads: () => {
    const n = reads;
    reads = 0;
    return n;
  },
}));
