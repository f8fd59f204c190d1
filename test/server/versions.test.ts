/**
 * End to end over HTTP: one set of handlers serves v1, v2 and v3 side by side; each version sees its own
 * shapes (renames, removed and added fields, a type change, a field made optional), deprecated versions
 * carry Deprecation and Sunset, and a version past its sunset answers 410.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, testAuthenticate, type Running, type ServerModule } from './helpers.ts';

let mod: ServerModule;
let server: Running;
let customerId: string;

beforeAll(async () => {
  mod = await importServer(await generateInto('versions'));
  server = await start((app) =>
    registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS, rateLimit: false }),
  );
  const c = await server.call('POST', '/v1/customers', { body: { email: 'ann@example.com', name: 'Ann' } });
  customerId = c.body['id'] as string;
});
afterAll(() => server.close());

describe('orders across versions', () => {
  it('created in v1 (qty, note, integer reference) reads as v2 and v3 shapes', async () => {
    const created = await server.call('POST', '/v1/orders', { body: { customer_id: customerId, product_id: 7, qty: 2, note: 'leave at door', reference: 42 } });
    expect(created.status).toBe(201);
    const id = created.body['id'] as string;
    expect(created.headers.get('location')).toBe(`/v1/orders/${id}`);
    // note is not stored (removed in v2); v1 answers what the hook gives (no gift message: none).
    expect(created.body).toEqual({ id, customer_id: customerId, product_id: 7, qty: 2, reference: 42, status: 'open', createdAt: created.body['createdAt'] });

    const v2 = await server.call('GET', `/v2/orders/${id}`);
    expect(v2.body).toEqual({
      id,
      customer_id: customerId,
      product_id: 7,
      quantity: 2,
      currency: 'EUR',
      reference: 42,
      status: 'open',
      createdAt: created.body['createdAt'],
    });
    const v3 = await server.call('GET', `/v3/orders/${id}`);
    expect(v3.body).toMatchObject({ quantity: 2, currency: 'EUR', reference: 'RF-0042' });
    expect(v3.body).not.toHaveProperty('qty');
    expect(v3.body).not.toHaveProperty('note');
  });

  it('created in v3 reads as v1 (renamed back, later fields dropped, removed field from its hook, type converted down)', async () => {
    const created = await server.call('POST', '/v3/orders', {
      body: { customer_id: customerId, product_id: 3, quantity: 5, currency: 'USD', reference: 'AB-1234', giftMessage: 'Happy birthday' },
    });
    expect(created.status).toBe(201);
    const id = created.body['id'] as string;
    const v1 = await server.call('GET', `/v1/orders/${id}`);
    expect(v1.body).toEqual({
      id,
      customer_id: customerId,
      product_id: 3,
      qty: 5,
      note: 'Happy birthday',
      reference: 1234,
      status: 'open',
      createdAt: created.body['createdAt'],
    });
    const v2 = await server.call('GET', `/v2/orders/${id}`);
    expect(v2.body).toMatchObject({ quantity: 5, currency: 'USD', reference: 1234, giftMessage: 'Happy birthday' });
  });

  it('a v1 patch is migrated up (rename, type change) and answered in v1', async () => {
    const created = await server.call('POST', '/v2/orders', { body: { customer_id: customerId, product_id: 1, quantity: 1 } });
    const id = created.body['id'] as string;
    const patched = await server.call('PATCH', `/v1/orders/${id}`, { body: { qty: 9, reference: 7 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ qty: 9, reference: 7 });
    expect((await server.call('GET', `/v3/orders/${id}`)).body).toMatchObject({ quantity: 9, reference: 'RF-0007', currency: 'EUR' });
  });

  it('each version validates with its own schema', async () => {
    const v1WithV2Name = await server.call('POST', '/v1/orders', { body: { customer_id: customerId, product_id: 1, quantity: 1 } });
    expect(v1WithV2Name.status).toBe(400);
    expect(v1WithV2Name.body.errors!.map((e) => e.pointer).sort()).toEqual(['#/qty', '#/quantity']);
    const v2WithV1Name = await server.call('POST', '/v2/orders', { body: { customer_id: customerId, product_id: 1, qty: 1, note: 'x' } });
    expect(v2WithV1Name.body.errors!.map((e) => e.pointer).sort()).toEqual(['#/note', '#/qty', '#/quantity']);
    const v3IntReference = await server.call('POST', '/v3/orders', { body: { customer_id: customerId, product_id: 1, quantity: 1, reference: 12 } });
    expect(v3IntReference.body.errors!.map((e) => e.pointer)).toEqual(['#/reference']);
  });

  it("list filters use each version's names and answer in that version", async () => {
    const v1 = await server.call('GET', `/v1/orders?customer_id=${customerId}&limit=100`);
    expect(v1.status).toBe(200);
    expect(v1.body.data!.length).toBeGreaterThanOrEqual(3);
    for (const o of v1.body.data!) expect(Object.keys(o)).toContain('qty');
  });
});

describe('customers across versions', () => {
  it('a v3 customer without a name reads in v1 with the name its hook gives', async () => {
    const created = await server.call('POST', '/v3/customers', { body: { email: 'guest@example.com' } });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('name');
    const v1 = await server.call('GET', `/v1/customers/${created.body['id'] as string}`);
    expect(v1.body).toMatchObject({ email: 'guest@example.com', name: 'guest' });
    expect(v1.body).not.toHaveProperty('shipping');
  });

  it('v1 requires the name that v3 made optional', async () => {
    const answer = await server.call('POST', '/v1/customers', { body: { email: 'noname@example.com' } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors!.map((e) => e.pointer)).toEqual(['#/name']);
  });
});

describe('version lifecycle', () => {
  it('v1 answers Deprecation (RFC 9745) and Sunset (RFC 8594) headers; v2 and v3 do not', async () => {
    const v1 = await server.call('GET', '/v1/customers');
    expect(v1.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 8, 1) / 1000}`);
    expect(v1.headers.get('sunset')).toBe('Mon, 01 Mar 2027 00:00:00 GMT');
    const v1Error = await server.call('GET', '/v1/customers?limit=0');
    expect(v1Error.status).toBe(400);
    expect(v1Error.headers.get('deprecation')).not.toBeNull();
    for (const v of ['v2', 'v3']) {
      const answer = await server.call('GET', `/${v}/customers`);
      expect(answer.headers.get('deprecation')).toBeNull();
      expect(answer.headers.get('sunset')).toBeNull();
    }
  });

  it('after the sunset v1 answers 410 while v2 still works (the clock is read per request)', async () => {
    let now = new Date('2027-02-28T23:59:59Z');
    const late = await start((app) =>
      registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
        authenticate: testAuthenticate,
        migrations: SHOP_MIGRATIONS,
        rateLimit: false,
        now: () => now,
      }),
    );
    try {
      expect((await late.call('GET', '/v1/customers')).status).toBe(200);
      now = new Date('2027-03-01T00:00:00Z');
      const gone = await late.call('GET', '/v1/customers');
      expect(gone.status).toBe(410);
      expect(gone.body).toMatchObject({ code: 'version_sunset', status: 410 });
      // v3 is newer but not released: the answer recommends the newest released version.
      expect(gone.body['detail']).toBe('v1 was retired on Mon, 01 Mar 2027 00:00:00 GMT; use v2.');
      expect(gone.headers.get('sunset')).toBe('Mon, 01 Mar 2027 00:00:00 GMT');
      expect((await late.call('GET', '/v2/customers')).status).toBe(200);
    } finally {
      await late.close();
    }
  });
});

describe('startup checks', () => {
  it('refuses to start without the migration hooks, naming each', async () => {
    const app = (await import('fastify')).default();
    const partial = { v3: { orders: { reference: { up: (n: number) => String(n) } } } };
    await expect(registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { authenticate: testAuthenticate, migrations: partial })).rejects.toThrow(
      /migrations\.v2\.orders\.note\.value\(\)[\s\S]*migrations\.v3\.customers\.name\.whenMissing\(\)[\s\S]*migrations\.v3\.orders\.reference\.down\(\)/,
    );
    await app.close();
  });

  it('refuses to start without a handler or without a way to authenticate', async () => {
    const app = (await import('fastify')).default();
    const handlers = mod.createMemoryHandlers();
    delete handlers['orders']!['delete'];
    await expect(registerOf(mod, 'Shop')(app, handlers, { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS })).rejects.toThrow(
      /handlers\.orders\.delete/,
    );
    await expect(registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { migrations: SHOP_MIGRATIONS })).rejects.toThrow(/options\.authenticate/);
    await app.close();
  });
});
