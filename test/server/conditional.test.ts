/**
 * End to end over HTTP, raw requests: ETags and conditional requests on every operation. A strong ETag on
 * every single-resource answer (create, get, replace, update, transitions; 304 too), the same in every
 * version that shows the same stored revision; `If-None-Match` on get (304, also HEAD); `If-Match` on
 * replace, update, delete and transitions (412 when stale or when the resource is gone, `*` semantics);
 * `If-None-Match` on a write (412 when it matches); and `requireIfMatch` (428 without If-Match) on the
 * shop's coupons and on a lifecycle's transitions of an API versioned by a header.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline/generate.ts';
import { tempDir, writeFiles } from '../helpers/temp-api.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, testAuthenticate, type Answer, type Running } from './helpers.ts';

let shop: Running;
let customer = '';

beforeAll(async () => {
  const mod = await importServer(await generateInto('conditional'));
  shop = await start((app) =>
    registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS, rateLimit: false }),
  );
  customer = (await shop.call('POST', '/v3/customers', { body: { email: 'etag@example.com', name: 'Etag' } })).body['id'] as string;
});
afterAll(() => shop.close());

const etagOf = (a: Answer) => a.headers.get('etag');
const newOrder = async () => shop.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 7, quantity: 2 } });
const STRONG = /^"[A-Za-z0-9_-]{22}"$/;

describe('ETags', () => {
  it('on create, get, update and transitions; the same in every version for the same stored revision', async () => {
    const created = await newOrder();
    const id = created.body['id'] as string;
    const tag = etagOf(created)!;
    expect(tag).toMatch(STRONG);
    for (const v of ['v1', 'v2', 'v3']) expect(etagOf(await shop.call('GET', `/${v}/orders/${id}`)), v).toBe(tag);
    const updated = await shop.call('PATCH', `/v1/orders/${id}`, { body: { qty: 3 } });
    expect(etagOf(updated)).toMatch(STRONG);
    expect(etagOf(updated)).not.toBe(tag);
    expect(etagOf(await shop.call('GET', `/v3/orders/${id}`))).toBe(etagOf(updated));
    const paid = await shop.call('POST', `/v2/orders/${id}:pay`);
    expect(etagOf(paid)).not.toBe(etagOf(updated));
    expect(etagOf(await shop.call('GET', `/v1/orders/${id}`))).toBe(etagOf(paid));
    // Lists and deletes carry none; a replaced resource does.
    expect(etagOf(await shop.call('GET', `/v3/orders?customer_id=${customer}`))).toBeNull();
    const c = await shop.call('POST', '/v3/customers', { body: { email: 'replace@example.com', name: 'R' } });
    const replaced = await shop.call('PUT', `/v3/customers/${c.body['id'] as string}`, { body: { email: 'replace@example.com', name: 'R2' } });
    expect(etagOf(replaced)).toMatch(STRONG);
    expect(etagOf(replaced)).not.toBe(etagOf(c));
  });

  it('a write-only field is not part of the ETag (no version shows it), and its value never leaks through it', async () => {
    const c = await shop.call('POST', '/v3/customers', { body: { email: 'secret@example.com', name: 'S', password: 'correct horse battery' } });
    const same = await shop.call('PATCH', `/v3/customers/${c.body['id'] as string}`, { body: { password: 'another long password' } });
    expect(etagOf(same)).toBe(etagOf(c));
  });
});

describe('If-None-Match on get', () => {
  it('304 without a body while the resource keeps the tag (weak or listed tags too, HEAD too); 200 once it changed', async () => {
    const created = await newOrder();
    const id = created.body['id'] as string;
    const tag = etagOf(created)!;
    for (const header of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
      const answer = await shop.call('GET', `/v1/orders/${id}`, { headers: { 'if-none-match': header } });
      expect(answer.status, header).toBe(304);
      expect(answer.body).toEqual({});
      expect(etagOf(answer)).toBe(tag);
    }
    const head = await fetch(`${shop.url}/v3/orders/${id}`, { method: 'HEAD', headers: { 'if-none-match': tag, authorization: 'Bearer admin' } });
    expect(head.status).toBe(304);
    expect((await shop.call('GET', `/v3/orders/${id}`, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
    expect((await shop.call('POST', `/v3/orders/${id}:pay`, { body: {} })).status).toBe(200);
    const changed = await shop.call('GET', `/v3/orders/${id}`, { headers: { 'if-none-match': tag } });
    expect(changed.status).toBe(200);
    expect(changed.body['status']).toBe('paid');
    // A deprecated version's 304 still carries its Deprecation and Sunset headers.
    const v1 = await shop.call('GET', `/v1/orders/${id}`, { headers: { 'if-none-match': etagOf(changed)! } });
    expect(v1.status).toBe(304);
    expect(v1.headers.get('deprecation')).toMatch(/^@\d+$/);
  });
  it('If-Match on get: 412 when it names another tag', async () => {
    const created = await newOrder();
    const id = created.body['id'] as string;
    expect((await shop.call('GET', `/v3/orders/${id}`, { headers: { 'if-match': etagOf(created)! } })).status).toBe(200);
    expect((await shop.call('GET', `/v3/orders/${id}`, { headers: { 'if-match': '"other"' } })).status).toBe(412);
  });
});

describe('If-Match on writes', () => {
  it('update: stale answers 412 and changes nothing; the current tag or * passes', async () => {
    const created = await newOrder();
    const id = created.body['id'] as string;
    const tag = etagOf(created)!;
    const moved = await shop.call('PATCH', `/v3/orders/${id}`, { body: { quantity: 5 } });
    const stale = await shop.call('PATCH', `/v3/orders/${id}`, { body: { quantity: 9 }, headers: { 'if-match': tag } });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: 'precondition_failed', title: 'Precondition Failed' });
    expect((await shop.call('GET', `/v3/orders/${id}`)).body['quantity']).toBe(5);
    // An ETag read in v1 is good for a v3 write: the same revision, the same tag.
    const v1Tag = etagOf(await shop.call('GET', `/v1/orders/${id}`))!;
    expect(v1Tag).toBe(etagOf(moved));
    expect((await shop.call('PATCH', `/v3/orders/${id}`, { body: { quantity: 9 }, headers: { 'if-match': v1Tag } })).body).toMatchObject({ quantity: 9 });
    expect((await shop.call('PATCH', `/v3/orders/${id}`, { body: { quantity: 10 }, headers: { 'if-match': '*' } })).status).toBe(200);
    // A weak tag never matches If-Match (strong comparison).
    expect(
      (
        await shop.call('PATCH', `/v3/orders/${id}`, {
          body: { quantity: 11 },
          headers: { 'if-match': `W/${etagOf(await shop.call('GET', `/v3/orders/${id}`))!}` },
        })
      ).status,
    ).toBe(412);
  });
  it('If-None-Match on a write: 412 when it matches (* on an existing resource)', async () => {
    const created = await newOrder();
    const id = created.body['id'] as string;
    expect((await shop.call('PATCH', `/v3/orders/${id}`, { body: { quantity: 3 }, headers: { 'if-none-match': '*' } })).status).toBe(412);
    expect((await shop.call('PATCH', `/v3/orders/${id}`, { body: { quantity: 3 }, headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });
  it('delete: stale 412, current 204; a resource that is gone fails If-Match (412), even *', async () => {
    const created = await newOrder();
    const id = created.body['id'] as string;
    await shop.call('PATCH', `/v3/orders/${id}`, { body: { quantity: 4 } });
    expect((await shop.call('DELETE', `/v3/orders/${id}`, { headers: { 'if-match': etagOf(created)! } })).status).toBe(412);
    const current = etagOf(await shop.call('GET', `/v3/orders/${id}`))!;
    expect((await shop.call('DELETE', `/v3/orders/${id}`, { headers: { 'if-match': current } })).status).toBe(204);
    expect((await shop.call('DELETE', `/v3/orders/${id}`, { headers: { 'if-match': '*' } })).status).toBe(412);
    expect((await shop.call('PATCH', `/v3/orders/${id}`, { body: { quantity: 1 }, headers: { 'if-match': current } })).status).toBe(412);
    expect((await shop.call('GET', `/v3/orders/${id}`, { headers: { 'if-match': current } })).status).toBe(412);
    expect((await shop.call('DELETE', `/v3/orders/${id}`)).status).toBe(404);
    // An id that names no resource at all: 404, or 412 with If-Match.
    expect((await shop.call('PATCH', '/v3/orders/not-an-id', { body: { quantity: 1 } })).status).toBe(404);
    expect((await shop.call('PATCH', '/v3/orders/not-an-id', { body: { quantity: 1 }, headers: { 'if-match': '*' } })).status).toBe(412);
    expect((await shop.call('POST', '/v3/orders/not-an-id:pay', { headers: { 'if-match': '*' } })).status).toBe(412);
  });
  it('transitions: stale 412 (the state stays), current 200', async () => {
    const created = await newOrder();
    const id = created.body['id'] as string;
    await shop.call('PATCH', `/v3/orders/${id}`, { body: { quantity: 8 } });
    expect((await shop.call('POST', `/v3/orders/${id}:pay`, { headers: { 'if-match': etagOf(created)! } })).status).toBe(412);
    expect((await shop.call('GET', `/v3/orders/${id}`)).body['status']).toBe('open');
    const current = etagOf(await shop.call('GET', `/v2/orders/${id}`))!;
    const paid = await shop.call('POST', `/v2/orders/${id}:pay`, { headers: { 'if-match': current } });
    expect(paid.body).toMatchObject({ status: 'paid' });
    // A precondition is checked before the state: a stale tag on a move that is not allowed is still 412.
    expect((await shop.call('POST', `/v3/orders/${id}:pay`, { headers: { 'if-match': current } })).status).toBe(412);
  });
});

describe('requireIfMatch: writes without If-Match answer 428', () => {
  it('coupons: replace, update and delete need If-Match; create, get and list do not', async () => {
    const created = await shop.call('POST', '/v3/coupons', { body: { code: 'ETAG10', percentOff: 10, validUntil: null } });
    expect(created.status).toBe(201);
    const id = created.body['id'] as string;
    expect((await shop.call('GET', `/v3/coupons/${id}`)).status).toBe(200);
    expect((await shop.call('GET', '/v3/coupons')).status).toBe(200);
    const body = { code: 'ETAG20', percentOff: 20, validUntil: null };
    for (const [method, send] of [
      ['PUT', body],
      ['PATCH', { percentOff: 15 }],
      ['DELETE', undefined],
    ] as const) {
      const answer = await shop.call(method, `/v3/coupons/${id}`, send === undefined ? {} : { body: send });
      expect(answer.status, method).toBe(428);
      expect(answer.body).toMatchObject({ code: 'precondition_required', title: 'Precondition Required' });
    }
    // Credentials come first (401); If-Match is required before the body is read (a bad body is 428 too).
    expect((await shop.call('PATCH', `/v3/coupons/${id}`, { body: { percentOff: 15 }, token: null })).status).toBe(401);
    expect((await shop.call('PATCH', `/v3/coupons/${id}`, { body: { percentOff: 'x' } })).status).toBe(428);
    const replaced = await shop.call('PUT', `/v3/coupons/${id}`, { body, headers: { 'if-match': etagOf(created)! } });
    expect(replaced.body).toMatchObject({ code: 'ETAG20' });
    expect((await shop.call('PATCH', `/v3/coupons/${id}`, { body: { percentOff: 15 }, headers: { 'if-match': etagOf(created)! } })).status).toBe(412);
    const updated = await shop.call('PATCH', `/v3/coupons/${id}`, { body: { percentOff: 15 }, headers: { 'if-match': etagOf(replaced)! } });
    expect(updated.body).toMatchObject({ percentOff: 15 });
    expect((await shop.call('DELETE', `/v3/coupons/${id}`, { headers: { 'if-match': etagOf(updated)! } })).status).toBe(204);
  });
});

describe('a lifecycle with requireIfMatch, versioned by a header', () => {
  const tmp = tempDir('conditional-desk');
  let desk: Running;
  const v = (version: string, extra: Record<string, string> = {}) => ({ headers: { 'api-version': version, ...extra }, token: null });

  beforeAll(async () => {
    writeFiles(tmp.dir, {
      'api.ts': `import { collection, defineApi, f } from 'restgen';
export default defineApi({
  name: 'desk',
  versions: { '2025-01': { released: '2025-01-01' }, '2025-06': {} },
  versioning: { in: 'header', header: 'Api-Version' },
  collections: {
    tickets: collection({
      fields: {
        id: f.id(),
        title: f.string().min(1),
        state: f.enum(['new', 'open', 'closed', 'archived']).readOnly().valueAddedIn('2025-06', 'archived', { fallback: 'closed' }),
      },
      requireIfMatch: true,
      lifecycle: {
        field: 'state',
        initial: 'new',
        transitions: {
          open: { from: ['new'], to: 'open' },
          close: { from: ['new', 'open'], to: 'closed', input: { why: f.string().optional() } },
          archive: { from: ['closed'], to: 'archived', addedIn: '2025-06' },
        },
      },
    }),
  },
});
`,
    });
    const outDir = path.join(tmp.dir, 'generated');
    const result = await generate({ apiPath: path.join(tmp.dir, 'api.ts'), outDir });
    expect(result.diagnostics).toEqual([]);
    const mod = await importServer(outDir);
    desk = await start((app) => registerOf(mod, 'Desk')(app, mod.createMemoryHandlers()));
  });
  afterAll(async () => {
    await desk?.close();
    tmp.cleanup();
  });

  it('a transition without If-Match is 428; with the current tag it moves; each version shows its own states', async () => {
    const created = await desk.call('POST', '/tickets', { body: { title: 'Printer' }, ...v('2025-06') });
    expect(created.body).toMatchObject({ state: 'new' });
    expect(created.headers.get('vary')).toContain('Api-Version');
    const id = created.body['id'] as string;
    expect((await desk.call('POST', `/tickets/${id}:open`, v('2025-06'))).status).toBe(428);
    const opened = await desk.call('POST', `/tickets/${id}:open`, v('2025-01', { 'if-match': etagOf(created)! }));
    expect(opened.body).toMatchObject({ state: 'open' });
    const closed = await desk.call('POST', `/tickets/${id}:close`, { ...v('2025-06', { 'if-match': etagOf(opened)! }), body: { why: 'fixed' } });
    expect(closed.body).toMatchObject({ state: 'closed' });
    // archive arrives in 2025-06: 2025-01 has no such method.
    const early = await desk.call('POST', `/tickets/${id}:archive`, v('2025-01', { 'if-match': etagOf(closed)! }));
    expect(early.status).toBe(404);
    expect(early.body['detail']).toBe('/tickets/{id}:archive does not exist in 2025-01.');
    const archived = await desk.call('POST', `/tickets/${id}:archive`, v('2025-06', { 'if-match': etagOf(closed)! }));
    expect(archived.body).toMatchObject({ state: 'archived' });
    const old = await desk.call('GET', `/tickets/${id}`, v('2025-01'));
    expect(old.body).toMatchObject({ state: 'closed' });
    expect(etagOf(old)).toBe(etagOf(archived));
    const conflict = await desk.call('POST', `/tickets/${id}:close`, v('2025-01', { 'if-match': etagOf(old)! }));
    expect(conflict.body).toMatchObject({ status: 409, code: 'invalid_transition', state: 'closed', allowed: [] });
    expect((await desk.call('POST', `/tickets/${id}:nope`, v('2025-06'))).status).toBe(404);
    expect((await desk.call('POST', `/tickets/${id}:open`, { token: null })).body).toMatchObject({ status: 400, code: 'unknown_version' });
  });
});
