/**
 * End to end over HTTP, raw requests: a single-resource answer of the newest version is serialized once and
 * sent as the very text its ETag was hashed from. What a client sees must not change with it: the content
 * type and charset of every answer (JSON, problem+json), the ETag (the first 132 bits of BLAKE2s-256 of the
 * resource's canonical text, the same in every version), `Content-Length` in bytes (non-ASCII text), HEAD,
 * and 304 answers that still carry the ETag.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ShopV1 from '../../examples/shop/generated/v1/orders.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, testAuthenticate, type Running } from './helpers.ts';

let shop: Running;
let customer = '';
const JSON_TYPE = 'application/json; charset=utf-8';

beforeAll(async () => {
  const mod = await importServer(await generateInto('serialized-once'));
  shop = await start((app) =>
    registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS, rateLimit: false }),
  );
  customer = (await shop.call('POST', '/v3/customers', { body: { email: 'once@example.com', name: 'Once' } })).body['id'] as string;
});
afterAll(() => shop.close());

/** A raw answer: status, headers and the body exactly as sent. */
async function raw(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(shop.url + path, {
    method,
    headers: { authorization: 'Bearer admin', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString('utf8') };
}

/** The tag the README documents: the first 132 bits (22 base64url characters) of BLAKE2s-256 of the text. */
const tagOf = (text: string) => `"${createHash('blake2s256').update(text).digest('base64url').slice(0, 22)}"`;

describe('single-resource answers serialized once', () => {
  it('create, get and update of the newest version: JSON in UTF-8, Content-Length in bytes, the ETag hashed from the body sent', async () => {
    const created = await raw('POST', '/v3/orders', { customer_id: customer, product_id: 7, quantity: 2, giftMessage: 'Grüße 🎁 für dich' });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe(JSON_TYPE);
    expect(Number(created.headers.get('content-length'))).toBe(created.bytes.length);
    expect(created.bytes.length).toBeGreaterThan(created.text.length);
    const order = JSON.parse(created.text) as Record<string, unknown>;
    expect(order['giftMessage']).toBe('Grüße 🎁 für dich');
    expect(created.headers.get('etag')).toBe(tagOf(created.text));
    expect(created.headers.get('location')).toBe(`/v3/orders/${order['id'] as string}`);

    const got = await raw('GET', `/v3/orders/${order['id'] as string}`);
    expect(got.headers.get('content-type')).toBe(JSON_TYPE);
    expect(got.text).toBe(created.text);
    expect(got.headers.get('etag')).toBe(created.headers.get('etag'));

    const updated = await raw('PATCH', `/v3/orders/${order['id'] as string}`, { quantity: 5 });
    expect(updated.status).toBe(200);
    expect(updated.headers.get('content-type')).toBe(JSON_TYPE);
    expect(JSON.parse(updated.text)).toMatchObject({ quantity: 5 });
    expect(updated.headers.get('etag')).toBe(tagOf(updated.text));
  });

  it('an older version answers its own shape with the same ETag and the same content type', async () => {
    const created = await raw('POST', '/v3/orders', { customer_id: customer, product_id: 8, quantity: 3 });
    const id = (JSON.parse(created.text) as { id: string }).id;
    const v1 = await raw('GET', `/v1/orders/${id}`);
    expect(v1.headers.get('content-type')).toBe(JSON_TYPE);
    expect(JSON.parse(v1.text)).toMatchObject({ id, qty: 3 });
    expect(v1.headers.get('etag')).toBe(created.headers.get('etag'));
  });

  it('HEAD carries the GET headers (ETag, type, length in bytes) and no body; 304 carries the ETag and no body', async () => {
    const created = await raw('POST', '/v3/orders', { customer_id: customer, product_id: 9, quantity: 1, giftMessage: 'ça' });
    const path = `/v3/orders/${(JSON.parse(created.text) as { id: string }).id}`;
    const got = await raw('GET', path);
    const head = await raw('HEAD', path);
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    expect(head.headers.get('etag')).toBe(got.headers.get('etag'));
    expect(head.headers.get('content-type')).toBe(JSON_TYPE);
    expect(Number(head.headers.get('content-length'))).toBe(got.bytes.length);
    const notModified = await raw('GET', path, undefined, { 'if-none-match': got.headers.get('etag')! });
    expect(notModified.status).toBe(304);
    expect(notModified.bytes.length).toBe(0);
    expect(notModified.headers.get('etag')).toBe(got.headers.get('etag'));
    const stale = await raw('PATCH', path, { quantity: 2 }, { 'if-match': '"stale"' });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  });

  it('lists and problems keep their content types', async () => {
    const list = await raw('GET', `/v3/orders?customer_id=${customer}`);
    expect(list.headers.get('content-type')).toBe(JSON_TYPE);
    expect(list.headers.get('etag')).toBeNull();
    const missing = await raw('GET', '/v3/orders/0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    const invalid = await raw('POST', '/v3/orders', { customer_id: customer, product_id: 0, quantity: 1 });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  });

  it('lists and older versions are sent as text written from the schema: the bytes JSON.stringify gives the answer, keys in schema order', async () => {
    const created = await raw('POST', '/v1/orders', { customer_id: customer, product_id: 11, qty: 4 });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe(JSON_TYPE);
    expect(Number(created.headers.get('content-length'))).toBe(created.bytes.length);
    const order = JSON.parse(created.text) as Record<string, unknown>;
    expect(created.text).toBe(JSON.stringify(order));
    expect(Object.keys(order)).toEqual(Object.keys(ShopV1.Order.shape).filter((k) => k in order));
    expect(order).toMatchObject({ qty: 4 });
    // The ETag is the newest version's, whatever version answers.
    const v3 = await raw('GET', `/v3/orders/${order['id'] as string}`);
    expect(created.headers.get('etag')).toBe(v3.headers.get('etag'));
    expect(v3.headers.get('etag')).toBe(tagOf(v3.text));
    for (const path of [`/v1/orders?customer_id=${customer}`, `/v3/orders?customer_id=${customer}&limit=2`]) {
      const list = await raw('GET', path);
      expect(list.status).toBe(200);
      expect(Number(list.headers.get('content-length'))).toBe(list.bytes.length);
      const page = JSON.parse(list.text) as { data: unknown[]; next_cursor: string | null };
      expect(page.data.length).toBeGreaterThan(0);
      expect(list.text).toBe(JSON.stringify(page));
      expect(Object.keys(page)).toEqual(['data', 'next_cursor']);
    }
    const empty = await raw('GET', '/v1/orders?customer_id=0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e');
    expect(empty.text).toBe('{"data":[],"next_cursor":null}');
  });

  it('an idempotent create answers and replays the very text a create without a key answers', async () => {
    const body = { customer_id: customer, product_id: 12, qty: 1, note: 'é' };
    const first = await raw('POST', '/v1/orders', body, { 'idempotency-key': 'once-text-1' });
    const again = await raw('POST', '/v1/orders', body, { 'idempotency-key': 'once-text-1' });
    expect(first.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(first.text).toBe(JSON.stringify(JSON.parse(first.text)));
    const id = (JSON.parse(first.text) as { id: string }).id;
    expect(first.headers.get('location')).toBe(`/v1/orders/${id}`);
    expect((await raw('GET', `/v1/orders/${id}`)).text).toBe(first.text);
  });
});
