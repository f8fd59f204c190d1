/**
 * Data written under an older contract stays readable: records stored while a bound was looser (a longer
 * name, a larger quantity, more tags, a code the pattern now refuses, an enum value since removed) are
 * answered on GET and list in every version, logged at warn and reported to `onOutdatedValue`, as is a record stored
 * before a field with a default existed (answered with the default); a value of
 * another type, a malformed format or a missing required field still answers 500, and no write-only or
 * unknown key leaks through the tolerant path. The relaxed schema itself is tested as a unit first.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defaultsOf, relaxedSchema, withDefaults, type OutdatedValue } from '../../packages/runtime/src/older-data.ts';
import { createDiskFileStore, createMemoryHandlers, registerShopApi } from '../../examples/shop/generated/server/index.ts';
import { SHOP_MIGRATIONS, TEST_FILES, testAuthenticate } from '../server/helpers.ts';

describe('the relaxed response schema', () => {
  const schema = z.object({
    id: z.uuid(),
    subject: z.string().min(1).max(100),
    code: z.string().regex(/^[A-Z]{2}$/),
    count: z.int().min(1).max(10),
    state: z.enum(['open', 'closed']),
    tags: z.array(z.string().max(3)).max(2),
    email: z.email().max(20),
    at: z.iso.datetime({ offset: true }),
    note: z.string().max(5).optional().nullable(),
  });
  const ok = {
    id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11',
    subject: 's',
    code: 'AB',
    count: 1,
    state: 'open',
    tags: [],
    email: 'a@b.co',
    at: '2026-01-01T00:00:00Z',
  };
  const relaxed = relaxedSchema(schema)!;

  it('accepts what only requests refuse: lengths, patterns, bounds, array sizes, enum values no longer listed', () => {
    const older = {
      ...ok,
      subject: 'x'.repeat(150),
      code: 'abc',
      count: 5000,
      state: 'archived',
      tags: ['long tag', 'b', 'c'],
      email: 'a-long-address@example.com',
      note: 'longer than five',
    };
    expect(schema.safeParse(older).success).toBe(false);
    expect(relaxed.parse(older)).toEqual(older);
  });

  it('still refuses another type, a missing field, a malformed format, a fraction where an int is due, and drops unknown keys', () => {
    for (const broken of [
      { ...ok, subject: 42 },
      { ...ok, count: 1.5 },
      { ...ok, state: 7 },
      { ...ok, id: 'not-a-uuid' },
      { ...ok, email: 'nope' },
      { ...ok, at: 'yesterday' },
      { ...ok, tags: 'a' },
      { ...ok, tags: [1] },
    ])
      expect(relaxed.safeParse(broken).success, JSON.stringify(broken)).toBe(false);
    const { subject: _s, ...missing } = ok;
    expect(relaxed.safeParse(missing).success).toBe(false);
    expect(relaxed.parse({ ...ok, secret: 'x' })).not.toHaveProperty('secret');
  });

  it('reads the defaults of a create body (fresh copies each time) and fills only what is absent', () => {
    const create = z.strictObject({ id: z.uuid(), tags: z.array(z.string()).default([]), tier: z.enum(['free', 'pro']).default('free'), name: z.string() });
    const defaults = defaultsOf(create);
    expect(defaults.map((d) => d.key)).toEqual(['tags', 'tier']);
    const filled = withDefaults({ id: ok.id, tier: 'pro' }, defaults);
    expect(filled).toEqual({ value: { id: ok.id, tier: 'pro', tags: [] }, filled: ['tags'] });
    expect(defaults[0]!.value()).not.toBe(defaults[0]!.value());
    const whole = { id: ok.id, tags: ['a'], tier: 'free' };
    expect(withDefaults(whole, defaults).value).toBe(whole);
    expect(defaultsOf(undefined)).toEqual([]);
  });

  it('is null for a schema without request-only constraints (nothing to tolerate)', () => {
    expect(relaxedSchema(z.object({ id: z.uuid(), done: z.boolean(), at: z.iso.date().nullable() }))).toBeNull();
  });
});

const CUSTOMER = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d01';
const LONG_NAME = `${'Long name '.repeat(25)}`.trim();
const CREATED = '2026-01-15T10:00:00.000Z';
/** Records as an earlier contract let them be stored (the shop's bounds are tighter now). */
const SEED = {
  customers: [
    // name max 200 (250 characters), tags max 10 items (11), tier 'enterprise' no longer listed; a write-only password and an unknown key stored beside.
    {
      id: CUSTOMER,
      email: 'old@example.com',
      name: LONG_NAME,
      tier: 'enterprise',
      tags: Array.from({ length: 11 }, (_, i) => `t${i}`),
      createdAt: CREATED,
      password: 'STORED-SECRET',
      internalNote: 'INTERNAL',
    },
    // Another type where a string is due: still a 500.
    { id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d02', email: 'typo@example.com', name: 42, tier: 'free', tags: [], createdAt: CREATED },
    // A malformed email: a format, not a request-only constraint, still a 500.
    { id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d03', email: 'not-an-email', name: 'N', tier: 'free', tags: [], createdAt: CREATED },
  ],
  orders: [
    // quantity max 1000 (5000), reference pattern /^[A-Z]{2}-\d{4,16}$/ ('rf-1').
    {
      id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11',
      customer_id: CUSTOMER,
      product_id: 7,
      quantity: 5000,
      currency: 'EUR',
      reference: 'RF-12',
      total: 0,
      status: 'open',
      createdAt: CREATED,
    },
    // Stored before v3 added total (a default of 0): no total at all.
    {
      id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d12',
      customer_id: '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d04',
      product_id: 7,
      quantity: 2,
      currency: 'USD',
      status: 'paid',
      createdAt: CREATED,
    },
  ],
};

describe('older data on the wire (the shop example on seeded memory handlers)', () => {
  let app: FastifyInstance;
  let url = '';
  const logs: Record<string, unknown>[] = [];
  const reported: OutdatedValue[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    app = Fastify({ logger: { level: 'warn', stream } });
    await registerShopApi(app, createMemoryHandlers(SEED as never), {
      authenticate: testAuthenticate,
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      onOutdatedValue: (report) => reported.push(report),
      files: createDiskFileStore(TEST_FILES),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app.close());

  const get = async (path: string) => {
    const response = await fetch(url + path, { headers: { authorization: 'Bearer admin' } });
    return { status: response.status, etag: response.headers.get('etag'), text: await response.text() };
  };

  it.each(['v1', 'v2', 'v3'])('%s: GET answers the stored customer as it is, logged at warn and reported', async (version) => {
    const before = reported.length;
    const answer = await get(`/${version}/customers/${CUSTOMER}`);
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.text) as Record<string, unknown>;
    expect(body).toMatchObject({ id: CUSTOMER, name: LONG_NAME, tier: 'enterprise' });
    expect(body['tags']).toHaveLength(11);
    expect(answer.text).not.toContain('STORED-SECRET');
    expect(answer.text).not.toContain('INTERNAL');
    expect(answer.etag).toMatch(/^"[\w-]{22}"$/);
    expect(reported.slice(before)).toEqual([
      expect.objectContaining({ version, collection: 'customers', source: 'handlers.customers.get', pointer: expect.stringMatching(/^#\/(name|tier|tags)$/) }),
    ]);
    expect(logs.find((l) => l['level'] === 40 && l['version'] === version && l['source'] === 'handlers.customers.get')).toMatchObject({
      collection: 'customers',
    });
  });

  it('the tolerated answer keeps its ETag: If-None-Match answers 304, and an If-Match write with it goes through', async () => {
    const first = await get(`/v3/customers/${CUSTOMER}`);
    const again = await fetch(`${url}/v3/customers/${CUSTOMER}`, { headers: { authorization: 'Bearer admin', 'if-none-match': first.etag! } });
    expect(again.status).toBe(304);
    // The record can be fixed with a conditional write: the ETag a client read names the stored revision.
    const fixed = await fetch(`${url}/v3/customers/${CUSTOMER}`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer admin', 'content-type': 'application/json', 'if-match': first.etag! },
      body: JSON.stringify({ tags: ['fixed'] }),
    });
    expect(fixed.status).toBe(200);
    expect(await fixed.json()).toMatchObject({ name: LONG_NAME, tags: ['fixed'] });
  });

  it('a list page holding an outdated record answers 200 with it (filtered to leave out the broken ones)', async () => {
    const page = await get('/v3/customers?email=old%40example.com');
    expect(page.status).toBe(200);
    expect(JSON.parse(page.text)).toMatchObject({ data: [{ id: CUSTOMER, name: LONG_NAME }], next_cursor: null });
    expect(reported.at(-1)).toMatchObject({ source: 'handlers.customers.list', pointer: expect.stringMatching(/^#\/data\/0\//) });
  });

  it.each(['v1', 'v2', 'v3'])('%s: an order with a quantity above the maximum and a reference the pattern refuses answers on GET and list', async (version) => {
    const one = await get(`/${version}/orders/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11`);
    expect(one.status).toBe(200);
    const body = JSON.parse(one.text) as Record<string, unknown>;
    expect(body[version === 'v1' ? 'qty' : 'quantity']).toBe(5000);
    const page = await get(`/${version}/orders?customer_id=${CUSTOMER}`);
    expect(page.status).toBe(200);
    expect((JSON.parse(page.text) as { data: unknown[] }).data).toHaveLength(1);
  });

  it('an order stored before v3 added total answers v3 with its default (noted), and v1 and v2 as they are', async () => {
    const before = reported.length;
    const v3 = await get('/v3/orders/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d12');
    expect(v3.status).toBe(200);
    expect(JSON.parse(v3.text)).toMatchObject({ quantity: 2, currency: 'USD', status: 'paid', total: 0 });
    expect(reported.slice(before)).toEqual([
      expect.objectContaining({ version: 'v3', collection: 'orders', pointer: '#/total', detail: expect.stringContaining('answered with its default') }),
    ]);
    for (const version of ['v1', 'v2']) {
      const older = await get(`/${version}/orders/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d12`);
      expect(older.status).toBe(200);
      expect(JSON.parse(older.text)).not.toHaveProperty('total');
    }
    expect(reported).toHaveLength(before + 1);
  });

  it('a value of another type, or a malformed format, still answers 500 (GET and the whole list page)', async () => {
    expect((await get('/v3/customers/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d02')).status).toBe(500);
    expect((await get('/v3/customers/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d03')).status).toBe(500);
    expect((await get('/v3/customers?tier=free')).status).toBe(500);
    expect(logs.find((l) => l['level'] === 50 && l['pointer'] === '#/name')).toMatchObject({ version: 'v3' });
  });
});
