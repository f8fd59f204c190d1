/**
 * A property test of list queries: for random datasets of the shop's orders and coupons and random queries (filters
 * with every operator the shop declares, sorts in either direction, page sizes), written as query strings and read
 * by the v3 query schema and the runtime exactly as a request is, the in-memory store, the PostgreSQL reference
 * (examples/shop-postgres) and a plain JavaScript reference written here agree exactly on which records, in which
 * order, walking every page. Seeded; LIST_PROPERTY_RUNS sets how many runs (500 by default).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCouponHandlers } from '../../examples/shop-postgres/coupons.ts';
import { createCursors } from '../../examples/shop-postgres/cursor.ts';
import { createOrderHandlers } from '../../examples/shop-postgres/orders.ts';
import { createSchema } from '../../examples/shop-postgres/schema.ts';
import * as couponsModule from '../../examples/shop/generated/server/collections/coupons.ts';
import * as ordersModule from '../../examples/shop/generated/server/collections/orders.ts';
import { createListQuery } from '../../packages/runtime/src/list-query.ts';
import { createMemoryCollection } from '../../packages/runtime/src/memory-store.ts';
import { routeOf } from '../../packages/runtime/src/route-table.ts';
import type { ListQuery, Page } from '../../packages/runtime/src/types.ts';
import { createTestDatabase, postgresUrl, requirePostgres, type TestDatabase } from './database.ts';

const serverUrl = postgresUrl();
const RUNS = Number(process.env['LIST_PROPERTY_RUNS'] ?? 500);
const ctx = {} as never;

type Row = Record<string, unknown> & { id: string };
const CUSTOMERS = ['6f1c2f0e-8d0b-4b7a-9c39-000000000001', '6f1c2f0e-8d0b-4b7a-9c39-000000000002', '6f1c2f0e-8d0b-4b7a-9c39-000000000003'];
const STATES = ['open', 'paid', 'shipped', 'cancelled', 'refunded'] as const;
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

// Few distinct values, so that ties and equal bounds are common.
const instant = fc.integer({ min: 0, max: 5 }).map((n) => new Date(Date.UTC(2026, 0, 1, n, 0, 0, n * 7)).toISOString());
const date = fc.integer({ min: 1, max: 6 }).map((d) => `2026-03-0${d}`);
const order = fc.record({
  customer_id: fc.constantFrom(...CUSTOMERS),
  total: fc.integer({ min: 0, max: 6 }).map((n) => n * 500),
  status: fc.constantFrom(...STATES),
  createdAt: instant,
});
const coupon = fc.record({
  code: fc.stringMatching(/^[A-Z0-9]{4,6}$/),
  percentOff: fc.integer({ min: 1, max: 5 }).map((n) => n * 10),
  validUntil: fc.option(date, { nil: null }),
});

/** Query-string parameters of one list, as a client sends them. */
type Wire = Record<string, string>;
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const sortOf = (keys: readonly string[]) =>
  fc.subarray([...keys]).chain((picked) => fc.tuple(...picked.map((k) => fc.constantFrom(k, `-${k}`))).map((parts) => parts.join(',')));
const orderQuery = fc
  .record({
    customer_id: maybe(fc.constantFrom(...CUSTOMERS)),
    status: maybe(fc.constantFrom(...STATES)),
    'status[in]': maybe(fc.subarray([...STATES], { minLength: 1 }).map((s) => s.join(','))),
    'total[gt]': maybe(fc.integer({ min: 0, max: 6 }).map((n) => String(n * 500))),
    'total[gte]': maybe(fc.integer({ min: 0, max: 6 }).map((n) => String(n * 500))),
    'total[lt]': maybe(fc.integer({ min: 0, max: 6 }).map((n) => String(n * 500))),
    'total[lte]': maybe(fc.integer({ min: 0, max: 6 }).map((n) => String(n * 500))),
    'createdAt[gte]': maybe(instant),
    'createdAt[lt]': maybe(instant.map((t) => t.replace('Z', '+00:00'))),
    sort: maybe(sortOf(['total', 'createdAt'])),
  })
  .map(defined);
const couponQuery = fc
  .record({
    'percentOff[gte]': maybe(fc.integer({ min: 1, max: 5 }).map((n) => String(n * 10))),
    'percentOff[lte]': maybe(fc.integer({ min: 1, max: 5 }).map((n) => String(n * 10))),
    'validUntil[gte]': maybe(date),
    'validUntil[lt]': maybe(date),
    sort: maybe(sortOf(['code', 'percentOff', 'validUntil'])),
  })
  .map(defined);

function defined(record: Record<string, string | undefined>): Wire {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined && v !== '')) as Wire;
}

/** The plain JavaScript reference: filter, then sort (absent values last, the id last), as the API defines them. */
function reference(rows: readonly Row[], query: ListQuery, instants: ReadonlySet<string>): string[] {
  const value = (row: Row, field: string): number | string | null => {
    const v = row[field];
    if (v === undefined || v === null) return null;
    return instants.has(field) ? Date.parse(String(v)) : (v as number | string);
  };
  const operand = (field: string, v: unknown) => (instants.has(field) ? Date.parse(String(v)) : (v as number | string));
  const tests: Record<string, (a: number | string, b: unknown, field: string) => boolean> = {
    eq: (a, b, f) => a === operand(f, b),
    ne: (a, b, f) => a !== operand(f, b),
    in: (a, b, f) => (b as unknown[]).some((x) => operand(f, x) === a),
    gt: (a, b, f) => a > operand(f, b),
    gte: (a, b, f) => a >= operand(f, b),
    lt: (a, b, f) => a < operand(f, b),
    lte: (a, b, f) => a <= operand(f, b),
  };
  const kept = rows.filter((row) =>
    Object.entries(query.filter).every(([field, ops]) =>
      Object.entries(ops ?? {}).every(([op, b]) => {
        const a = value(row, field);
        return a !== null && tests[op]!(a, b, field);
      }),
    ),
  );
  if (query.sort.length === 0) return kept.map((r) => r.id);
  return [...kept]
    .sort((x, y) => {
      for (const { field, direction } of query.sort) {
        const a = value(x, field);
        const b = value(y, field);
        if (a === b) continue;
        if (a === null) return 1;
        if (b === null) return -1;
        return (a < b ? -1 : 1) * (direction === 'desc' ? -1 : 1);
      }
      return 0;
    })
    .map((r) => r.id);
}

/** Every page of a handler's list, `limit` at a time: the ids in order. */
async function walk(list: (q: ListQuery) => unknown, query: ListQuery): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = (await list({ ...query, ...(cursor === undefined ? {} : { cursor }) })) as Page<Row>;
    if (!Array.isArray(page.data)) throw new Error(`not a page: ${JSON.stringify(page)}`);
    seen.push(...page.data.map((r) => r.id));
    if (page.next_cursor === null) return seen;
    cursor = page.next_cursor;
  }
  throw new Error('more than 100 pages');
}

describe.runIf(requirePostgres(serverUrl))('list queries: memory store, PostgreSQL reference and a JavaScript reference agree', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(serverUrl!);
    await createSchema(db.pool);
  });
  afterAll(() => db?.drop());

  /** The query a request with these parameters hands a list handler (through the v3 schema and the runtime). */
  function parsed(module: typeof ordersModule | typeof couponsModule, wire: Wire, limit: number): ListQuery {
    const route = routeOf(module.routes, 'v3')!;
    const flat = route.schemas.query!.parse({ ...wire, limit: String(limit) }) as Record<string, unknown>;
    const query = createListQuery(route, 'id', new Map())(flat);
    if (!('filter' in query)) throw new Error(`refused: ${JSON.stringify(query)}`);
    return query;
  }

  it(`agree on ${RUNS} random datasets and queries, every page walked`, async () => {
    const cursors = createCursors(Buffer.from('property'));
    const pgOrders = createOrderHandlers(db.pool, cursors);
    const pgCoupons = createCouponHandlers(db.pool, cursors);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({
            kind: fc.constant('orders' as const),
            rows: fc.array(order, { maxLength: 12 }),
            wire: orderQuery,
            limit: fc.integer({ min: 1, max: 5 }),
          }),
          fc.record({
            kind: fc.constant('coupons' as const),
            rows: fc.uniqueArray(coupon, { maxLength: 10, selector: (c) => c.code }),
            wire: couponQuery,
            limit: fc.integer({ min: 1, max: 5 }),
          }),
        ),
        async ({ kind, rows, wire, limit }) => {
          const records: Row[] = rows.map((r, i) => ({ id: uuid(i + 1), ...r }));
          const orders = kind === 'orders';
          const module = orders ? ordersModule : couponsModule;
          const query = parsed(module, wire, limit);
          // The defaultSort (coupons by code) arrives in the query, as with a request without ?sort=.
          const instants = new Set(module.memory.instants ?? []);
          const expected = reference(records, query, instants);
          const memory = createMemoryCollection(module.memory, orders ? records.map((r) => ({ ...r, product_id: 1, quantity: 1, currency: 'EUR' })) : records);
          expect(await walk((q) => memory.list(q, ctx), query), 'memory').toEqual(expected);
          // One statement each: the tables emptied (DELETE: TRUNCATE costs far more on tables this small), the rows
          // inserted in dataset order (their seq is the order of creation, as the memory store's).
          await db.pool.query('DELETE FROM orders; DELETE FROM coupons');
          if (orders)
            await db.pool.query(
              `INSERT INTO orders (id, customer_id, product_id, quantity, currency, total, status, created_at)
               SELECT id, customer_id, 1, 1, 'EUR', total, status, created_at
                 FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[], $5::timestamptz[]) WITH ORDINALITY AS r(id, customer_id, total, status, created_at, n)
                ORDER BY n`,
              [
                records.map((r) => r.id),
                records.map((r) => r['customer_id']),
                records.map((r) => r['total']),
                records.map((r) => r['status']),
                records.map((r) => r['createdAt']),
              ],
            );
          else
            await db.pool.query(
              `INSERT INTO coupons (id, code, percent_off, valid_until)
               SELECT id, code, percent_off, valid_until
                 FROM unnest($1::uuid[], $2::text[], $3::int[], $4::date[]) WITH ORDINALITY AS r(id, code, percent_off, valid_until, n)
                ORDER BY n`,
              [records.map((r) => r.id), records.map((r) => r['code']), records.map((r) => r['percentOff']), records.map((r) => r['validUntil'])],
            );
          const handlers = orders ? pgOrders : pgCoupons;
          expect(await walk((q) => handlers.list(q as never, ctx), query), 'PostgreSQL').toEqual(expected);
        },
      ),
      { numRuns: RUNS, seed: 45, endOnFailure: true },
    );
  });
});
