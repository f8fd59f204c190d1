/**
 * An injection fuzz of list queries against the PostgreSQL reference, over real HTTP: hostile values and parameter
 * names in every parameter a list, a get and a write read (filters and their operators, `sort`, `fields`,
 * `expand`, `limit`, `cursor`), alone and mixed with valid ones. Not one answers 5xx, the server logs no error (a
 * failed SQL statement would be one), everything refused is a 400 problem+json, and the table is as it was. Seeded;
 * LIST_FUZZ_RUNS sets how many requests (1,000 by default).
 */
import fc from 'fast-check';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUrl, requirePostgres } from './database.ts';
import { startShop, type RunningShop } from './shop.ts';

const serverUrl = postgresUrl();
const RUNS = Number(process.env['LIST_FUZZ_RUNS'] ?? 1000);

/** Text an attacker tries in a value or a name: SQL, JSON, encodings, sizes, prototype keys. */
const HOSTILE = [
  "' OR 1=1 --",
  "'; DROP TABLE orders; --",
  '") OR ("1"="1',
  '1; SELECT pg_sleep(10)',
  '$1',
  '$$',
  '\\',
  '%',
  '_',
  '\u0000',
  '%00',
  '\u202e',
  'é😀',
  '-',
  '--',
  ',',
  ',,',
  '[]',
  '{}',
  '[object Object]',
  '__proto__',
  'constructor',
  'toString',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x10',
  '99999999999999999999999999',
  '2026-13-45T99:99:99Z',
  '2026-01-01T00:00:00Z; DROP TABLE orders',
  'open) OR (1=1',
  'id DESC; --',
  'total COLLATE "C"',
  'customer_id::text',
  'x'.repeat(4000),
  // Values that pass validation: they reach the SQL, as parameters.
  "x'--@example.com",
  "o'brien@example.com",
  '99999999999',
  '-99999999999',
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999999999+14:00',
];
/** Names an attacker tries as a parameter: operators that do not exist, fields that are not filters, SQL in brackets. */
const NAMES = [
  'status',
  'status[in]',
  'status[ne]',
  'status[eq]',
  'status[like]',
  'status[in][0]',
  'total[gte]',
  'total[lt]',
  "total[gte]'",
  'total[gte];DROP',
  'createdAt[gte]',
  'customer_id',
  'customer_id[in]',
  'quantity',
  'quantity[gt]',
  'product_id',
  'reference',
  'sort',
  'fields',
  'expand',
  'limit',
  'cursor',
  '__proto__',
  'constructor',
  '[gte]',
  'total[]',
  'total[gte][lt]',
  "status') OR ('1'='1",
];

/** Values each parameter takes, edge cases included, to mix with hostile text: a request that passes validation runs SQL. */
const VALID: Readonly<Record<string, readonly string[]>> = {
  status: ['open', 'paid'],
  'status[eq]': ['shipped'],
  'status[in]': ['open,paid', 'paid,paid', 'refunded'],
  'total[gte]': ['0', '1000', '99999999999', '-99999999999'],
  'total[lt]': ['2000', '9007199254740991'],
  'createdAt[gte]': ['0000-01-01T00:00:00Z', '2026-01-01T00:00:00+14:00', '9999-12-31T23:59:59.999999999Z'],
  customer_id: ['00000000-0000-4000-8000-000000000000'],
  sort: ['total', '-total', 'createdAt,-total'],
  fields: ['id,total', 'status,customer_id'],
  expand: ['customer_id'],
  limit: ['1', '100', '1000000000000000000000'],
};
const hostile = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 30 }));
const list = (of: fc.Arbitrary<string>) => fc.array(of, { minLength: 1, maxLength: 4 }).map((p) => p.join(','));
/** One parameter: a known name with a valid, hostile or mixed value, or a hostile name. */
const param = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(...Object.keys(VALID)).chain((name) => {
      const valid = fc.constantFrom(...VALID[name]!);
      return fc.tuple(
        fc.constant(name),
        fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: hostile }, { weight: 1, arbitrary: list(fc.oneof(valid, hostile)) }),
      );
    }),
  },
  { weight: 1, arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...NAMES), hostile), fc.oneof(hostile, list(hostile))) },
);
const request = fc.record({
  path: fc.constantFrom('/v3/orders', '/v3/orders', '/v3/orders', '/v3/coupons', '/v1/orders', '/v3/customers', 'ORDER'),
  params: fc.array(param, { minLength: 1, maxLength: 3 }),
  method: fc.constantFrom('GET', 'GET', 'GET', 'POST'),
});

describe.runIf(requirePostgres(serverUrl))('hostile list queries against the PostgreSQL reference', () => {
  let shop: RunningShop;
  const logged: string[] = [];
  let order = '';
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(chunk.toString());
        done();
      },
    });
    shop = await startShop(serverUrl!, { logger: { level: 'error', stream } } as never);
    const customer = await shop.call('POST', '/v3/customers', { email: 'fuzz@example.com', name: 'Fuzz' });
    for (let i = 0; i < 3; i++) {
      const made = await shop.call('POST', '/v3/orders', { customer_id: customer.body['id'], product_id: 1, quantity: 1, total: i * 1000 });
      order = made.body['id'] as string;
    }
  });
  afterAll(() => shop?.stop());

  it('hands values that pass validation to SQL as parameters: quotes, whole numbers beyond a 32-bit column, the year 0000', async () => {
    for (const [path, ids] of [
      [`/v3/customers?email=${encodeURIComponent("x'--@example.com")}`, 0],
      ['/v3/orders?total[gte]=99999999999', 0],
      ['/v3/orders?total[lt]=99999999999&total[gt]=-99999999999&sort=-total', 3],
      ['/v3/coupons?percentOff[lte]=99999999999&validUntil[gte]=0000-01-01', 0],
      ['/v3/orders?createdAt[gte]=0000-01-01T00:00:00Z', 3],
      ['/v3/orders?createdAt[lt]=0000-01-01T00:00:00Z', 0],
      [`/v3/orders?createdAt[lt]=${encodeURIComponent('9999-12-31T23:59:59.999999999+14:00')}&sort=createdAt`, 3],
    ] as const) {
      const answer = await shop.call('GET', path);
      expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
      expect((answer.body['data'] as unknown[]).length, path).toBe(ids);
    }
    expect(logged).toEqual([]);
  });

  it(`answers ${RUNS} hostile queries with 200 or 400 problem+json, never 5xx, and no SQL error`, async () => {
    const statuses = new Map<number, number>();
    const before = (await shop.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM orders')).rows[0]!.n;
    const cursor = ((await shop.call('GET', '/v3/orders?limit=1')).body['next_cursor'] as string) ?? '';
    await fc.assert(
      fc.asyncProperty(request, fc.boolean(), async ({ path, params, method }, withCursor) => {
        const query = new URLSearchParams(params);
        // A real cursor of another query, or a forged one, beside the hostile parameters.
        if (withCursor)
          query.append(
            'cursor',
            Math.random() < 0.5 ? cursor : `${cursor.slice(0, 13)}${Buffer.from(JSON.stringify({ after: params.map(([, v]) => v) })).toString('base64url')}.x`,
          );
        // A write reads `?expand=` only: its hostile queries go to a create of orders (with a valid body).
        const target = method === 'POST' ? '/v3/orders' : path === 'ORDER' ? `/v3/orders/${order}` : path;
        const answer = await shop.call(method, `${target}?${query}`, method === 'POST' ? { customer_id: order, product_id: 1, quantity: 1 } : undefined);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        expect(answer.status, `${method} ${target}?${query}: ${JSON.stringify(answer.body)}`).toBeLessThan(500);
        if (answer.status >= 400) {
          expect(answer.headers.get('content-type'), `${target}?${query}`).toMatch(/^application\/problem\+json/);
          expect([400, 404], `${method} ${target}?${query}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
        }
      }),
      { numRuns: RUNS, seed: 45, endOnFailure: true },
    );
    // No statement failed: the server logged no error (a SQL error is logged and answers 500).
    expect(logged.filter((line) => line.includes('"level":50'))).toEqual([]);
    const refused = statuses.get(400) ?? 0;
    // A run sized by hand reports what it saw (`LIST_FUZZ_RUNS=10000 npx vitest run test/postgres/list-injection.test.ts`).
    if (process.env['LIST_FUZZ_RUNS'] !== undefined) console.log(`list fuzz: ${RUNS} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    // Both kinds of answer occur: refusals, and queries that passed validation and ran their SQL.
    expect(refused, JSON.stringify([...statuses])).toBeGreaterThan(RUNS / 2);
    expect((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0), JSON.stringify([...statuses])).toBeGreaterThan(RUNS / 20);
    // Only the creates the fuzz sent that were valid wrote anything: the table holds what it held, or more orders.
    const after = (await shop.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM orders')).rows[0]!.n;
    expect(Number(after)).toBeGreaterThanOrEqual(Number(before));
    const tables = await shop.db.pool.query<{ n: string }>("SELECT count(*) AS n FROM pg_tables WHERE tablename IN ('orders', 'customers', 'coupons')");
    expect(tables.rows[0]!.n).toBe('3');
  });
});
