/**
 * @module The shop's list queries over real HTTP, one suite for every store (the memory handlers and the PostgreSQL
 * reference run it alike, as hono runs one router suite for every router): orders by `status[in]`, by a range on
 * `total` and on `createdAt`, sorted by `-createdAt` and `total` with stable pages, masks, cursors bound to their
 * query, `expand=customer_id` with the caller's credential and in the caller's version, coupons in their
 * `defaultSort` with absent values last, and refusals naming the parameter. Every record is made through the API.
 */
import { describe, expect, it } from 'vitest';

/** An HTTP answer. */
export interface ListAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown>;
}

/** A running shop: calls with a bearer token (`admin` has every scope, `orders` lacks customers:read; null: none). */
export interface ShopTarget {
  call(method: string, path: string, body?: unknown, token?: string | null): Promise<ListAnswer>;
  /** How many reads of customers the store made since the last call (null when the store cannot tell). */
  customerReads(): number | null;
}

const ids = (a: ListAnswer): string[] => ((a.body['data'] ?? []) as { id: string }[]).map((x) => x.id);
const data = (a: ListAnswer) => (a.body['data'] ?? []) as Record<string, unknown>[];
const firstError = (a: ListAnswer) => (a.body['errors'] as { pointer: string; allowed?: string[] }[])[0]!;

/** Walks every page of `path` (a query without cursor) `limit` at a time; the ids in order. */
async function walk(shop: ShopTarget, path: string): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const answer: ListAnswer = await shop.call('GET', `${path}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    seen.push(...ids(answer));
    cursor = answer.body['next_cursor'] as string | null;
    if (cursor === null) return seen;
  }
  throw new Error('more than 50 pages');
}

/** The suite, against the shop `started` gives (each test makes its own customer, so stores may be shared). */
export function shopListSuite(store: string, started: () => ShopTarget): void {
  /** A customer of its own and 6 orders of it: totals, states (through transitions), creation order known. */
  async function orders(tag: string) {
    const shop = started();
    const customer = await shop.call('POST', '/v3/customers', { email: `${tag}-${Math.random().toString(36).slice(2)}@example.com`, name: tag });
    expect(customer.status).toBe(201);
    const customerId = customer.body['id'] as string;
    const totals = [2500, 900, 5000, 1000, 4999, 2500];
    const made: { id: string; total: number; createdAt: string }[] = [];
    for (const total of totals) {
      const order = await shop.call('POST', '/v3/orders', { customer_id: customerId, product_id: 7, quantity: 1, total });
      expect(order.status, JSON.stringify(order.body)).toBe(201);
      made.push({ id: order.body['id'] as string, total, createdAt: order.body['createdAt'] as string });
    }
    // States: 0 open, 1 paid, 2 shipped, 3 cancelled, 4 paid, 5 open.
    for (const i of [1, 2, 4]) expect((await shop.call('POST', `/v3/orders/${made[i]!.id}:pay`)).status).toBe(200);
    expect((await shop.call('POST', `/v3/orders/${made[2]!.id}:ship`, { carrier: 'DHL' })).status).toBe(200);
    expect((await shop.call('POST', `/v3/orders/${made[3]!.id}:cancel`, {})).status).toBe(200);
    return { shop, customerId, made, of: (...i: number[]) => i.map((n) => made[n]!.id) };
  }

  describe(`${store}: the shop's lists`, () => {
    it('filter orders by status[in], a range on total (two operators, AND) and a range on createdAt', async () => {
      const { shop, customerId, of, made } = await orders('filters');
      const mine = `/v3/orders?customer_id=${customerId}&limit=100`;
      expect(ids(await shop.call('GET', `${mine}&status[in]=paid,shipped`)).sort()).toEqual(of(1, 2, 4).sort());
      expect(ids(await shop.call('GET', `${mine}&total[gte]=1000&total[lt]=5000`)).sort()).toEqual(of(0, 3, 4, 5).sort());
      expect(ids(await shop.call('GET', `${mine}&total[gt]=2500&status=paid`))).toEqual(of(4));
      const from = encodeURIComponent(made[2]!.createdAt);
      const all = ids(await shop.call('GET', `${mine}&createdAt[gte]=${from}`));
      expect(all).toEqual(expect.arrayContaining(of(2, 3, 4, 5)));
      expect(all).not.toContain(made[0]!.id);
    });

    it('sort by -createdAt and by total (ties broken by the id), pages stable, every order once', async () => {
      const { shop, customerId, made } = await orders('sorts');
      const mine = `/v3/orders?customer_id=${customerId}`;
      const newest = await walk(shop, `${mine}&sort=-createdAt&limit=2`);
      // Created one after the other: newest first is the reverse (equal timestamps fall back to the id).
      const byTime = [...made].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt > b.createdAt ? -1 : 1));
      expect(newest).toEqual(byTime.map((o) => o.id));
      const cheapest = await walk(shop, `${mine}&sort=total&limit=4`);
      const byTotal = [...made].sort((a, b) => a.total - b.total || (a.id < b.id ? -1 : 1));
      expect(cheapest).toEqual(byTotal.map((o) => o.id));
      const dearest = await walk(shop, `${mine}&sort=-total,createdAt&limit=3`);
      expect(dearest.slice(0, 2)).toEqual([made[2]!.id, made[4]!.id]);
    });

    it('a cursor is bound to its sort and filters: another answers 400 cursor_mismatch', async () => {
      const { shop, customerId } = await orders('cursors');
      const first = await shop.call('GET', `/v3/orders?customer_id=${customerId}&sort=total&limit=2`);
      const cursor = encodeURIComponent(first.body['next_cursor'] as string);
      expect((await shop.call('GET', `/v3/orders?customer_id=${customerId}&sort=total&limit=3&cursor=${cursor}`)).status).toBe(200);
      for (const other of ['sort=-total', 'sort=total&status=open', 'sort=createdAt']) {
        const answer = await shop.call('GET', `/v3/orders?customer_id=${customerId}&${other}&limit=2&cursor=${cursor}`);
        expect(answer.status, other).toBe(400);
        expect(answer.body).toMatchObject({ code: 'cursor_mismatch', errors: [{ pointer: '/query/cursor' }] });
      }
    });

    it('masks list and get answers to the fields named (and the id); a write-only field cannot be named', async () => {
      const { shop, customerId, made } = await orders('masks');
      const page = await shop.call('GET', `/v3/orders?customer_id=${customerId}&fields=total,status&sort=total&limit=1`);
      expect(data(page)).toEqual([{ id: made[1]!.id, total: 900, status: 'paid' }]);
      expect((await shop.call('GET', `/v1/orders/${made[0]!.id}?fields=qty`)).body).toEqual({ id: made[0]!.id, qty: 1 });
      const secret = await shop.call('GET', `/v3/customers/${customerId}?fields=password`);
      expect(secret.status).toBe(400);
      expect(firstError(secret).pointer).toBe('/query/fields');
    });

    it('expands customer_id as the caller’s version shows the customer, reading customers once per page, with the caller’s scopes', async () => {
      const { shop, customerId } = await orders('expand');
      shop.customerReads();
      const page = await shop.call('GET', `/v3/orders?customer_id=${customerId}&expand=customer_id&limit=5`);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      const reads = shop.customerReads();
      if (reads !== null) expect(reads).toBe(1);
      const customer = (await shop.call('GET', `/v3/customers/${customerId}`)).body;
      for (const order of data(page)) expect(order['customer_id']).toEqual(customer);
      // v1 shows the customer as v1 does (its name required: the whenMissing hook or the stored one).
      const v1 = await shop.call('GET', `/v1/orders?customer_id=${customerId}&expand=customer_id&limit=1`);
      expect(data(v1)[0]!['customer_id']).toEqual((await shop.call('GET', `/v1/customers/${customerId}`)).body);
      // A transition's answer expands too.
      const open = data(await shop.call('GET', `/v3/orders?customer_id=${customerId}&status=open&limit=1`))[0]!;
      const cancelled = await shop.call('POST', `/v3/orders/${open['id']}:cancel?expand=customer_id`, {});
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      expect(cancelled.body).toMatchObject({ status: 'cancelled', customer_id: customer });
      const forbidden = await shop.call('GET', `/v3/orders?customer_id=${customerId}&expand=customer_id`, undefined, 'orders');
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toMatchObject({ code: 'insufficient_scope', scopes: ['customers:read'] });
      // Orders are public in v2; their customers are not.
      expect((await shop.call('GET', `/v2/orders?customer_id=${customerId}`, undefined, null)).status).toBe(200);
      expect((await shop.call('GET', `/v2/orders?customer_id=${customerId}&expand=customer_id`, undefined, null)).status).toBe(401);
    });

    it('lists coupons in their defaultSort (code) and sorts absent values last in either direction', async () => {
      const shop = started();
      const tag = Math.random()
        .toString(36)
        .slice(2, 8)
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, 'X');
      const made: Record<string, string> = {};
      for (const [code, validUntil] of [
        [`ZZ${tag}`, '2027-01-01'],
        [`AA${tag}`, null],
        [`MM${tag}`, '2026-06-30'],
      ] as const) {
        const coupon = await shop.call('POST', '/v3/coupons', { code, percentOff: 10, validUntil });
        expect(coupon.status, JSON.stringify(coupon.body)).toBe(201);
        made[code.slice(0, 2)] = coupon.body['id'] as string;
      }
      const mine = (list: string[]) => list.filter((id) => Object.values(made).includes(id));
      expect(mine(await walk(shop, '/v3/coupons?limit=50'))).toEqual([made['AA'], made['MM'], made['ZZ']]);
      expect(mine(await walk(shop, '/v3/coupons?limit=50&sort=validUntil'))).toEqual([made['MM'], made['ZZ'], made['AA']]);
      expect(mine(await walk(shop, '/v3/coupons?limit=50&sort=-validUntil'))).toEqual([made['ZZ'], made['MM'], made['AA']]);
      expect(mine(await walk(shop, '/v3/coupons?limit=50&validUntil[lt]=2026-12-31'))).toEqual([made['MM']]);
    });

    it('refuses what the version does not declare, naming the parameter and what is allowed', async () => {
      const shop = started();
      const v1 = await shop.call('GET', '/v1/orders?total[gte]=1');
      expect(v1.status).toBe(400);
      expect(firstError(v1).pointer).toBe('/query/total[gte]');
      const op = await shop.call('GET', '/v3/orders?status[ne]=open');
      expect(firstError(op)).toMatchObject({ pointer: '/query/status[ne]', allowed: ['status', 'status[eq]', 'status[in]'] });
      const sort = await shop.call('GET', '/v3/orders?sort=quantity');
      expect(firstError(sort)).toMatchObject({ pointer: '/query/sort', allowed: ['total', '-total', 'createdAt', '-createdAt'] });
      expect(firstError(await shop.call('GET', '/v3/orders?expand=product_id'))).toMatchObject({ pointer: '/query/expand', allowed: ['customer_id'] });
    });
  });
}
