/**
 * End to end over HTTP: every item of a list page is checked against the response schema of the version
 * answered on every request, however often the same values were answered before (the same objects returned
 * again, changed in place). A value of the wrong
 * type or a malformed format (uuid, date-time) answers 500 with the item's pointer logged; a value that
 * breaks only a pattern (a constraint requests enforce: data stored under an older contract) is answered,
 * escaped as JSON.stringify escapes it, and reported to `onOutdatedValue` with its pointer; a write-only or
 * unknown field never reaches the wire, and a value put right is answered again. The page's text is what
 * JSON.stringify makes of the shaped items.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OutdatedValue } from '../../packages/runtime/src/older-data.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, testAuthenticate, type Running } from './helpers.ts';

/** The customers the list handler answers: the same objects every time, changed in place by the tests. */
const stored: Record<string, unknown>[] = Array.from({ length: 20 }, (_, i) => ({
  id: `6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d${String(i).padStart(2, '0')}`,
  email: `c${i}@example.com`,
  name: `Customer "${i}"`,
  tier: i % 2 === 0 ? 'free' : 'pro',
  shipping: { street: 'Main St 1', city: 'Springfield', zip: `${10000 + i}`, country: 'US' },
  tags: ['a', `t${i}`],
  createdAt: `2026-03-${String(1 + i).padStart(2, '0')}T09:30:00.000Z`,
}));
const original = stored.map((c) => structuredClone(c));
const reported: OutdatedValue[] = [];

let shop: Running;
beforeAll(async () => {
  const mod = await importServer(await generateInto('list-checks'));
  const handlers = mod.createMemoryHandlers() as Record<string, Record<string, unknown>>;
  handlers['customers']!['list'] = () => ({ data: stored, next_cursor: null });
  shop = await start((app) =>
    registerOf(mod, 'Shop')(app, handlers, {
      authenticate: testAuthenticate,
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      onOutdatedValue: (report: OutdatedValue) => reported.push(report),
    }),
  );
});
afterAll(() => shop.close());
// Every test leaves the stored customers as they were, whatever it broke.
afterEach(() => {
  stored.splice(0, stored.length, ...original.map((c) => structuredClone(c)));
  reported.length = 0;
});

/** GET the v3 page of 20, as its text. */
const page = async () => {
  const response = await fetch(`${shop.url}/v3/customers?limit=20`, { headers: { authorization: 'Bearer admin' } });
  return { status: response.status, text: await response.text() };
};
const shipping = (c: Record<string, unknown>) => c['shipping'] as Record<string, unknown>;

describe('a list page of the same stored objects', () => {
  it('is answered as JSON.stringify writes it, request after request', async () => {
    for (let i = 0; i < 3; i++) expect(await page()).toEqual({ status: 200, text: JSON.stringify({ data: original, next_cursor: null }) });
    expect(reported).toEqual([]);
  });

  it.each<[string, (c: Record<string, unknown>) => void, string]>([
    ['an id that is no uuid', (c) => (c['id'] = `${c['id'] as string}x`), '#/data/7/id'],
    ['a date-time that is none', (c) => (c['createdAt'] = '2026-02-30T09:30:00.000Z'), '#/data/7/createdAt'],
    ['a tier of the wrong type', (c) => (c['tier'] = 42), '#/data/7/tier'],
    ['a zip of the wrong type', (c) => (shipping(c)['zip'] = 10007), '#/data/7/shipping/zip'],
  ])('answers 500 for %s in an item answered before, and the page again once it is put right', async (_what, breakIt, pointer) => {
    expect((await page()).status).toBe(200);
    breakIt(stored[7]!);
    const broken = await page();
    expect(broken.status).toBe(500);
    expect(broken.text).not.toContain('Customer');
    expect(shop.errors.join('')).toContain(`at ${pointer}`);
    stored[7] = structuredClone(original[7]!);
    expect(await page()).toEqual({ status: 200, text: JSON.stringify({ data: original, next_cursor: null }) });
  });

  it.each<[string, string, string]>([
    ['a zip of letters', 'zip', 'ABCDE'],
    ['a quote and a backslash where the country code goes', 'country', 'U"\\'],
  ])('answers %s (a pattern only requests enforce), escaped and reported', async (_what, key, value) => {
    expect((await page()).status).toBe(200);
    shipping(stored[7]!)[key] = value;
    const expected = original.map((c) => structuredClone(c));
    shipping(expected[7]!)[key] = value;
    expect(await page()).toEqual({ status: 200, text: JSON.stringify({ data: expected, next_cursor: null }) });
    expect(reported.map((r) => r.pointer)).toEqual([`#/data/7/shipping/${key}`]);
  });

  it('never answers a write-only or unknown field', async () => {
    stored[3]!['password'] = 'correct horse battery staple';
    stored[4]!['internal'] = { secret: true };
    const { status, text } = await page();
    expect(status).toBe(200);
    expect(text).not.toContain('password');
    expect(text).not.toContain('internal');
    expect(text).toBe(JSON.stringify({ data: original, next_cursor: null }));
  });
});
