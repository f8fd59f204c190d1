/**
 * Behaviour of the generated zod schemas of the example, version by version: what each version's
 * requests accept and reject, what its responses carry.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { generate } from '../../generator/pipeline/generate.ts';
import { SHOP_API } from '../helpers/load-ir.ts';
import { tempDir } from '../helpers/temp-api.ts';

type Schemas = Record<string, z.ZodType>;
const tmp = tempDir('zod');
afterAll(tmp.cleanup);
const v: Record<string, Schemas> = {};

beforeAll(async () => {
  const result = await generate({ apiPath: SHOP_API, outDir: tmp.dir });
  expect(result.ok).toBe(true);
  for (const version of ['v1', 'v2', 'v3']) v[version] = (await import(path.join(tmp.dir, version, 'schemas.ts'))) as Schemas;
});

const s = (version: string, name: string): z.ZodType => {
  const schema = v[version]?.[name];
  if (!schema) throw new Error(`${version} has no ${name}`);
  return schema;
};
const issues = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};
const CUSTOMER = '5f0c1a56-4c2b-4f5e-9a55-2d3f1c1b7e11';
const order = { customer_id: CUSTOMER, product_id: 7 };

describe('renames and added fields', () => {
  it('accepts a renamed field only under the name of each version', () => {
    expect(issues(s('v1', 'OrderCreate'), { ...order, qty: 2 })).toEqual([]);
    expect(issues(s('v1', 'OrderCreate'), { ...order, quantity: 2 }).join()).toMatch(/quantity|Unrecognized/);
    expect(issues(s('v2', 'OrderCreate'), { ...order, quantity: 2 })).toEqual([]);
    expect(issues(s('v2', 'OrderCreate'), { ...order, qty: 2 }).length).toBeGreaterThan(0);
  });

  it('knows a field only in the versions it exists in, with its default from then on', () => {
    expect(issues(s('v1', 'OrderCreate'), { ...order, qty: 1, currency: 'EUR' }).length).toBeGreaterThan(0);
    expect(s('v2', 'OrderCreate').parse({ ...order, quantity: 1 })).toMatchObject({ currency: 'EUR' });
    expect(issues(s('v1', 'OrderCreate'), { ...order, qty: 1, note: 'ring twice' })).toEqual([]);
    expect(issues(s('v2', 'OrderCreate'), { ...order, quantity: 1, note: 'ring twice' }).length).toBeGreaterThan(0);
    expect(v.v1?.Coupon).toBeUndefined();
    expect(v.v3?.Coupon).toBeDefined();
  });

  it('applies a type change and an optionality change per version', () => {
    expect(issues(s('v2', 'OrderCreate'), { ...order, quantity: 1, reference: 42 })).toEqual([]);
    expect(issues(s('v2', 'OrderCreate'), { ...order, quantity: 1, reference: 'AB-1234' }).length).toBeGreaterThan(0);
    expect(issues(s('v3', 'OrderCreate'), { ...order, quantity: 1, reference: 'AB-1234' })).toEqual([]);
    expect(issues(s('v3', 'OrderCreate'), { ...order, quantity: 1, reference: 42 }).length).toBeGreaterThan(0);
    expect(issues(s('v2', 'CustomerCreate'), { email: 'a@b.co' }).join()).toContain('name');
    expect(issues(s('v3', 'CustomerCreate'), { email: 'a@b.co' })).toEqual([]);
  });
});

describe('requests', () => {
  it('rejects unknown and read-only fields, saying which', () => {
    expect(issues(s('v2', 'OrderCreate'), { ...order, quantity: 1, colour: 'red' }).join()).toContain('colour');
    const readOnly = issues(s('v2', 'OrderCreate'), { ...order, quantity: 1, status: 'paid', id: CUSTOMER });
    expect(readOnly).toEqual(expect.arrayContaining([expect.stringMatching(/^status: read-only/), expect.stringMatching(/^id: read-only/)]));
    expect(issues(s('v2', 'OrderPatch'), { status: 'paid' }).join()).toContain('read-only');
  });

  it('enforces every constraint', () => {
    const base = { ...order, quantity: 1 };
    expect(issues(s('v2', 'OrderCreate'), { ...base, quantity: 0 }).length).toBe(1);
    expect(issues(s('v2', 'OrderCreate'), { ...base, quantity: 1001 }).length).toBe(1);
    expect(issues(s('v2', 'OrderCreate'), { ...base, quantity: 1.5 }).length).toBe(1);
    expect(issues(s('v2', 'OrderCreate'), { ...base, customer_id: 'not-a-uuid' }).length).toBe(1);
    expect(issues(s('v2', 'OrderCreate'), { ...base, currency: 'GBP' }).length).toBe(1);
    expect(issues(s('v2', 'OrderCreate'), { ...base, giftMessage: 'x'.repeat(201) }).length).toBe(1);
    expect(issues(s('v3', 'OrderCreate'), { ...base, reference: 'ab-1234' }).length).toBe(1);
    expect(issues(s('v2', 'CustomerCreate'), { email: 'nope', name: 'A' }).length).toBe(1);
    expect(issues(s('v2', 'CustomerCreate'), { email: 'a@b.co', name: '' }).length).toBe(1);
    expect(issues(s('v2', 'CustomerCreate'), { email: 'a@b.co', name: 'A', tags: Array(11).fill('t') }).length).toBe(1);
    expect(issues(s('v2', 'CustomerCreate'), { email: 'a@b.co', name: 'A', password: 'short' }).length).toBe(1);
    expect(issues(s('v3', 'CouponCreate'), { code: 'SAVE10', percentOff: 10, validUntil: '2026-02-30' }).length).toBe(1);
    expect(issues(s('v3', 'CouponCreate'), { code: 'SAVE10', percentOff: 10, validUntil: null })).toEqual([]);
  });

  it('checks nested objects strictly in requests', () => {
    const shipping = { street: 'Main St 1', city: 'Berlin', zip: '10115', country: 'DE' };
    const customer = { email: 'a@b.co', name: 'A', shipping };
    expect(issues(s('v2', 'CustomerCreate'), customer)).toEqual([]);
    expect(issues(s('v2', 'CustomerCreate'), { ...customer, shipping: { ...shipping, zip: 'abc' } })).toEqual([expect.stringMatching(/^shipping\.zip/)]);
    expect(issues(s('v2', 'CustomerCreate'), { ...customer, shipping: { ...shipping, floor: 3 } }).join()).toContain('floor');
    expect(issues(s('v1', 'CustomerCreate'), customer).join()).toContain('shipping');
  });

  it('applies defaults on create and replace, not on patch', () => {
    expect(s('v2', 'CustomerCreate').parse({ email: 'a@b.co', name: 'A' })).toEqual({ email: 'a@b.co', name: 'A', tier: 'free', tags: [] });
    expect(s('v2', 'CustomerReplace').parse({ email: 'a@b.co', name: 'A' })).toMatchObject({ tier: 'free' });
    expect(s('v2', 'CustomerPatch').parse({ name: 'B' })).toEqual({ name: 'B' });
    const a = s('v2', 'CustomerCreate').parse({ email: 'a@b.co', name: 'A' }) as { tags: string[] };
    const b = s('v2', 'CustomerCreate').parse({ email: 'a@b.co', name: 'A' }) as { tags: string[] };
    expect(a.tags).not.toBe(b.tags);
  });
});

describe('responses', () => {
  const now = '2026-11-22T10:00:00Z';
  it('never contain write-only fields, and tolerate extra keys by dropping them', () => {
    const stored = { id: CUSTOMER, email: 'a@b.co', name: 'A', tier: 'pro', tags: [], createdAt: now, password: 'secret-secret', extra: 1 };
    expect(s('v2', 'Customer').parse(stored)).toEqual({ id: CUSTOMER, email: 'a@b.co', name: 'A', tier: 'pro', tags: [], createdAt: now });
  });

  it('require fields with defaults and read-only fields', () => {
    expect(issues(s('v2', 'Order'), { id: CUSTOMER, ...order, quantity: 1, status: 'open', createdAt: now }).join()).toContain('currency');
    expect(issues(s('v2', 'Order'), { id: CUSTOMER, ...order, quantity: 1, currency: 'EUR', createdAt: now }).join()).toContain('status');
  });

  it('wrap lists in the envelope', () => {
    expect(issues(s('v1', 'CustomerList'), { data: [], next_cursor: null })).toEqual([]);
    expect(issues(s('v1', 'CustomerList'), { data: [] }).join()).toContain('next_cursor');
  });
});

describe('list queries', () => {
  it('coerce, default and cap the limit', () => {
    expect(s('v2', 'OrderListQuery').parse({})).toEqual({ limit: 20 });
    expect(s('v2', 'OrderListQuery').parse({ limit: '500' })).toEqual({ limit: 100 });
    expect(issues(s('v2', 'OrderListQuery'), { limit: '0' }).length).toBe(1);
    expect(issues(s('v2', 'OrderListQuery'), { limit: '2.5' }).length).toBe(1);
    expect(issues(s('v2', 'OrderListQuery'), { limit: 'ten' }).length).toBe(1);
  });

  it('accept filterable fields only, with valid values', () => {
    expect(s('v2', 'OrderListQuery').parse({ status: 'paid', customer_id: CUSTOMER })).toMatchObject({ status: 'paid' });
    expect(issues(s('v2', 'OrderListQuery'), { status: 'lost' }).length).toBe(1);
    expect(issues(s('v2', 'OrderListQuery'), { quantity: '2' }).join()).toContain('quantity');
  });
});
