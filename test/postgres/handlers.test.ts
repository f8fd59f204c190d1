/**
 * The shop example's handlers on a real PostgreSQL (examples/shop-postgres), end to end over HTTP: creates,
 * reads and lists (filters, keyset pages walked to the end, tampered cursors 400), updates that change only
 * the fields sent, replaces, deletes, unique values answered 409 (SQLSTATE 23505), If-Match on every write
 * (412 when stale, 412 once the resource is gone), If-None-Match 304, lifecycle transitions (409 from a state
 * that does not allow them), idempotent creates replayed by the runtime, every version reading what
 * another wrote, and an order's invoice (a file kept as jsonb, its content in the file store).
 */
import { createHash } from 'node:crypto';
import { createDiskFileStore, type StoredFile } from '@restgen/runtime';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_FILES } from '../server/helpers.ts';
import { postgresUrl, requirePostgres } from './database.ts';
import { startShop, type RunningShop } from './shop.ts';

const serverUrl = postgresUrl();
/** The store the shop keeps invoices in (startShop's), read directly. */
const files = createDiskFileStore(TEST_FILES);
/**
 * Whether the store still has `key`. A body it hands out is let go at once: the file may be deleted between the
 * store's stat and the stream's open (the runtime deletes a replaced content after answering), and the stream's
 * ENOENT, with no reader, would be an uncaught error.
 */
const stored = async (key: string): Promise<boolean> => {
  const got = await files.get(key);
  got?.body.on('error', () => undefined).destroy();
  return got !== null;
};

describe.runIf(requirePostgres(serverUrl))('the shop on PostgreSQL', () => {
  let shop: RunningShop;
  beforeAll(async () => {
    shop = await startShop(serverUrl!);
  });
  afterAll(() => shop?.stop());

  const newCustomer = async (email: string, extra: object = {}) => {
    const created = await shop.call('POST', '/v3/customers', { email, name: email.split('@')[0], ...extra });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created;
  };

  it('creates, reads and lists a customer; every version reads what another wrote; the password never comes back', async () => {
    const created = await shop.call('POST', '/v1/customers', { email: 'ann@example.com', name: 'Ann', tags: ['vip'] });
    expect(created.status).toBe(201);
    const id = created.body['id'] as string;
    expect(created.headers.get('location')).toBe(`/v1/customers/${id}`);
    expect(created.body).toMatchObject({ email: 'ann@example.com', name: 'Ann', tier: 'free', tags: ['vip'] });
    const etag = created.headers.get('etag');
    for (const version of ['v1', 'v2', 'v3']) {
      const got = await shop.call('GET', `/${version}/customers/${id}`);
      expect(got.status).toBe(200);
      expect(got.headers.get('etag')).toBe(etag);
    }
    const withPassword = await shop.call('POST', '/v3/customers', { email: 'pw@example.com', password: 'correct horse battery' });
    expect(JSON.stringify(withPassword.body)).not.toContain('horse');
    const row = await shop.db.pool.query<{ password: string }>('SELECT password FROM customers WHERE id = $1', [withPassword.body['id']]);
    expect(row.rows[0]!.password).toMatch(/^scrypt\$/);
    // v2 requires a name: the guest customer (v3, no name) answers the local part of its email.
    expect((await shop.call('GET', `/v2/customers/${withPassword.body['id'] as string}`)).body['name']).toBe('pw');
    expect((await shop.call('GET', '/v3/customers/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d99')).status).toBe(404);
  });

  it('a unique email answers 409 on create, replace and update, and nothing is written', async () => {
    await newCustomer('taken@example.com');
    const other = await newCustomer('other@example.com');
    const id = other.body['id'] as string;
    const duplicate = await shop.call('POST', '/v3/customers', { email: 'taken@example.com' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 'conflict', field: 'email' });
    expect((await shop.call('PATCH', `/v3/customers/${id}`, { email: 'taken@example.com' })).status).toBe(409);
    expect((await shop.call('PUT', `/v3/customers/${id}`, { email: 'taken@example.com', name: 'X' })).status).toBe(409);
    expect((await shop.call('GET', `/v3/customers/${id}`)).body['email']).toBe('other@example.com');
    const count = await shop.db.pool.query<{ n: string }>("SELECT count(*) AS n FROM customers WHERE email = 'taken@example.com'");
    expect(count.rows[0]!.n).toBe('1');
  });

  it('an update changes only the fields sent; a replace replaces (fields not sent are gone); read-only fields stay', async () => {
    const created = await newCustomer('patch@example.com', {
      tier: 'pro',
      tags: ['a', 'b'],
      shipping: { street: 'Main 1', city: 'Bern', zip: '3000', country: 'CH' },
    });
    const id = created.body['id'] as string;
    const patched = await shop.call('PATCH', `/v3/customers/${id}`, { tags: ['c'] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      email: 'patch@example.com',
      name: 'patch',
      tier: 'pro',
      tags: ['c'],
      shipping: { city: 'Bern' },
      createdAt: created.body['createdAt'],
    });
    const replaced = await shop.call('PUT', `/v3/customers/${id}`, { email: 'patch@example.com' });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ id, email: 'patch@example.com', tier: 'free', tags: [], createdAt: created.body['createdAt'] });
    // An older version's update arrives migrated up: v1's qty is v3's quantity.
    const customer = created.body['id'] as string;
    const order = await shop.call('POST', '/v1/orders', { customer_id: customer, product_id: 7, qty: 2 });
    expect(order.status).toBe(201);
    const v1 = await shop.call('PATCH', `/v1/orders/${order.body['id'] as string}`, { qty: 5 });
    expect(v1.body).toMatchObject({ qty: 5, status: 'open' });
    expect((await shop.call('GET', `/v3/orders/${order.body['id'] as string}`)).body).toMatchObject({ quantity: 5, currency: 'EUR', product_id: 7 });
  });

  it('a delete deletes: then get answers 404, a second delete 404, and one with If-Match 412', async () => {
    const created = await newCustomer('gone@example.com');
    const id = created.body['id'] as string;
    const etag = created.headers.get('etag')!;
    expect((await shop.call('DELETE', `/v3/customers/${id}`)).status).toBe(204);
    expect((await shop.call('GET', `/v3/customers/${id}`)).status).toBe(404);
    expect((await shop.call('DELETE', `/v3/customers/${id}`)).status).toBe(404);
    expect((await shop.call('DELETE', `/v3/customers/${id}`, undefined, { 'if-match': etag })).status).toBe(412);
    // Its email is free again.
    await newCustomer('gone@example.com');
  });

  it('If-Match on update, replace and delete: the current ETag goes through, a stale one answers 412 and changes nothing', async () => {
    const created = await newCustomer('match@example.com');
    const id = created.body['id'] as string;
    const first = created.headers.get('etag')!;
    const updated = await shop.call('PATCH', `/v3/customers/${id}`, { name: 'Second' }, { 'if-match': first });
    expect(updated.status).toBe(200);
    const second = updated.headers.get('etag')!;
    expect(second).not.toBe(first);
    expect((await shop.call('PATCH', `/v3/customers/${id}`, { name: 'Stale' }, { 'if-match': first })).status).toBe(412);
    expect((await shop.call('PUT', `/v3/customers/${id}`, { email: 'match@example.com', name: 'Stale' }, { 'if-match': first })).status).toBe(412);
    expect((await shop.call('DELETE', `/v3/customers/${id}`, undefined, { 'if-match': first })).status).toBe(412);
    expect((await shop.call('GET', `/v3/customers/${id}`)).body['name']).toBe('Second');
    const notModified = await shop.call('GET', `/v3/customers/${id}`, undefined, { 'if-none-match': second });
    expect(notModified.status).toBe(304);
    expect((await shop.call('PUT', `/v3/customers/${id}`, { email: 'match@example.com', name: 'Third' }, { 'if-match': second })).status).toBe(200);
  });

  it('coupons (writes require If-Match): 428 without it, 409 on a taken code, 200 with the current ETag', async () => {
    const created = await shop.call('POST', '/v3/coupons', { code: 'SPRING24', percentOff: 10, validUntil: '2026-06-30' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ code: 'SPRING24', validUntil: '2026-06-30' });
    const id = created.body['id'] as string;
    expect((await shop.call('POST', '/v3/coupons', { code: 'SPRING24', percentOff: 5, validUntil: null })).status).toBe(409);
    expect((await shop.call('PATCH', `/v3/coupons/${id}`, { percentOff: 20 })).status).toBe(428);
    const patched = await shop.call('PATCH', `/v3/coupons/${id}`, { validUntil: null }, { 'if-match': created.headers.get('etag')! });
    expect(patched.body).toMatchObject({ percentOff: 10, validUntil: null });
  });

  it('lists: filters return only matching records; walking every page returns every record once; a cursor for other filters or changed answers 400', async () => {
    const customer = (await newCustomer('lister@example.com')).body['id'] as string;
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push((await shop.call('POST', '/v3/orders', { customer_id: customer, product_id: i + 1, quantity: 1 })).body['id'] as string);
    await shop.call('POST', `/v3/orders/${ids[0]!}:pay`);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<RunningShop['call']>> = await shop.call(
        'GET',
        `/v3/orders?customer_id=${customer}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.data!.map((o) => o['id'] as string));
      cursor = page.body.next_cursor ?? null;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(seen).toEqual(ids);
    expect(pages).toBe(3);
    const paid = await shop.call('GET', `/v3/orders?customer_id=${customer}&status=paid`);
    expect(paid.body.data!.map((o) => o['id'])).toEqual([ids[0]]);
    const first = await shop.call('GET', `/v3/orders?customer_id=${customer}&limit=2`);
    const next = first.body.next_cursor!;
    expect((await shop.call('GET', `/v3/orders?customer_id=${customer}&limit=2&cursor=${next}`)).body.data!.map((o) => o['id'])).toEqual(ids.slice(2, 4));
    // Issued for other filters, or changed in any way (another seq, another tag): 400, never another page.
    expect((await shop.call('GET', `/v3/orders?status=open&limit=2&cursor=${next}`)).status).toBe(400);
    // The server's cursor is the handlers' behind the query's digest: `<digest>.<position>.<HMAC>`.
    const [digest, position, signature] = next.split('.') as [string, string, string];
    const seq = (JSON.parse(Buffer.from(position, 'base64url').toString()) as { seq: string }).seq;
    const moved = Buffer.from(JSON.stringify({ seq: String(Number(seq) - 1) })).toString('base64url');
    for (const tampered of [`${digest}.${moved}.${signature}`, `${next.slice(0, -2)}${next.endsWith('AA') ? 'BB' : 'AA'}`, 'garbage', `${next}x`]) {
      const answer = await shop.call('GET', `/v3/orders?customer_id=${customer}&limit=2&cursor=${tampered}`);
      expect(answer.status, tampered).toBe(400);
      expect(answer.body['errors']).toEqual([expect.objectContaining({ pointer: '/query/cursor' })]);
    }
    expect((await shop.call('GET', '/v3/customers?tier=pro&email=nobody%40example.com')).body).toEqual({ data: [], next_cursor: null });
  });

  it('transitions: from an allowed state only (409 with the state otherwise), If-Match 412 when stale', async () => {
    const customer = (await newCustomer('moves@example.com')).body['id'] as string;
    const order = await shop.call('POST', '/v3/orders', { customer_id: customer, product_id: 1, quantity: 1 });
    const id = order.body['id'] as string;
    expect((await shop.call('POST', `/v3/orders/${id}:ship`, { carrier: 'DHL' })).body).toMatchObject({
      status: 409,
      code: 'invalid_transition',
      state: 'open',
    });
    expect((await shop.call('POST', `/v3/orders/${id}:pay`, undefined, { 'if-match': '"stale"' })).status).toBe(412);
    const paid = await shop.call('POST', `/v3/orders/${id}:pay`, undefined, { 'if-match': order.headers.get('etag')! });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ id, status: 'paid' });
    expect((await shop.call('POST', `/v3/orders/${id}:ship`, { carrier: 'DHL' })).body).toMatchObject({ status: 'shipped' });
    // v1 and v2 show refunded as cancelled.
    expect((await shop.call('POST', `/v3/orders/${id}:refund`)).body).toMatchObject({ status: 'refunded' });
    expect((await shop.call('GET', `/v1/orders/${id}`)).body).toMatchObject({ status: 'cancelled' });
    expect((await shop.call('POST', `/v3/orders/${id}:cancel`)).status).toBe(409);
  });

  it('an invoice (v3) is uploaded to an order, kept as jsonb, downloaded, replaced and removed with its content', async () => {
    const customer = (await newCustomer('invoice@example.com')).body['id'] as string;
    const id = (await shop.call('POST', '/v3/orders', { customer_id: customer, product_id: 2, quantity: 1 })).body['id'] as string;
    const pdf = (text: string) => new Blob([`%PDF-1.7\n${text}`], { type: 'application/pdf' });
    const upload = async (text: string) => {
      const form = new FormData();
      form.append('invoice', pdf(text), 'INV-1.pdf');
      const response = await fetch(`${shop.server.url}/v3/orders/${id}`, { method: 'PATCH', headers: { authorization: 'Bearer admin' }, body: form });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const first = await upload('first');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const sha256 = createHash('sha256').update('%PDF-1.7\nfirst').digest('hex');
    expect(first.body['invoice']).toEqual({ name: 'INV-1.pdf', type: 'application/pdf', size: 14, sha256, href: `/v3/orders/${id}/invoice` });
    // The row keeps what the runtime handed over, the store key included; answers never show the key.
    const row = async () => (await shop.db.pool.query<{ invoice: StoredFile | null }>('SELECT invoice FROM orders WHERE id = $1', [id])).rows[0]!.invoice;
    const kept = (await row())!;
    expect(kept).toMatchObject({ name: 'INV-1.pdf', sha256, key: expect.stringMatching(/^orders\/invoice\//) });
    expect((await shop.call('GET', `/v3/orders/${id}`)).body['invoice']).toEqual(first.body['invoice']);
    expect((await shop.call('GET', `/v2/orders/${id}`)).body).not.toHaveProperty('invoice');
    const download = await fetch(`${shop.server.url}/v3/orders/${id}/invoice`, { headers: { authorization: 'Bearer admin' } });
    expect([download.status, download.headers.get('etag'), await download.text()]).toEqual([200, `"${sha256}"`, '%PDF-1.7\nfirst']);
    // A new invoice replaces the old one, whose content is deleted; null removes it and its content.
    expect((await upload('second')).body['invoice']).toMatchObject({ size: 15 });
    const replaced = (await row())!;
    await vi.waitFor(async () => expect(await stored(kept.key)).toBe(false), { timeout: 10_000, interval: 50 });
    expect((await shop.call('PATCH', `/v3/orders/${id}`, { invoice: null })).body).not.toHaveProperty('invoice');
    expect(await row()).toBeNull();
    await vi.waitFor(async () => expect(await stored(replaced.key)).toBe(false), { timeout: 10_000, interval: 50 });
    expect((await fetch(`${shop.server.url}/v3/orders/${id}/invoice`, { headers: { authorization: 'Bearer admin' } })).status).toBe(404);
  });

  it('an idempotent create runs once: the retry answers the same resource, and one row exists', async () => {
    const customer = (await newCustomer('idem@example.com')).body['id'] as string;
    const key = { 'idempotency-key': 'create-order-1' };
    const first = await shop.call('POST', '/v3/orders', { customer_id: customer, product_id: 3, quantity: 1 }, key);
    const again = await shop.call('POST', '/v3/orders', { customer_id: customer, product_id: 3, quantity: 1 }, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body['id']).toBe(first.body['id']);
    const rows = await shop.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM orders WHERE customer_id = $1', [customer]);
    expect(rows.rows[0]!.n).toBe('1');
  });
});
