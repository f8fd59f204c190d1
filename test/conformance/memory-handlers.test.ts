/**
 * The generated in-memory handlers keep every promise `restgen conformance` checks: against both examples
 * (the shop: three path versions, a lifecycle, events, a collection that requires If-Match; the notes: header
 * versioning, a replace added later) every check that applies passes, the records the run made are gone
 * afterwards, and records it did not make are untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_IDS, type ConformanceReport } from '@restgen/conformance';
import { conform, failureLines, loadExample, stopAll, type Example } from './helpers.ts';

let shop: Example;
let notes: Example;
beforeAll(async () => {
  [shop, notes] = await Promise.all([loadExample('shop'), loadExample('notes')]);
});
afterAll(stopAll);

/** Records of others, there before the run (the newest version's shape). */
const CUSTOMER = {
  id: '0d3c4a4e-9a8e-4f0e-8d7e-2d1f1b0a0001',
  email: 'someone@example.org',
  name: 'Someone',
  tier: 'pro',
  tags: ['vip'],
  createdAt: '2025-01-01T00:00:00.000Z',
};
const ORDER = {
  id: '0d3c4a4e-9a8e-4f0e-8d7e-2d1f1b0a0002',
  customer_id: CUSTOMER.id,
  product_id: 3,
  quantity: 2,
  currency: 'USD',
  status: 'paid',
  createdAt: '2025-01-02T00:00:00.000Z',
};
const COUPON = { id: '0d3c4a4e-9a8e-4f0e-8d7e-2d1f1b0a0003', code: 'OTHERS10', percentOff: 10, validUntil: null };

const checked = (report: ConformanceReport) => new Set(report.results.filter((r) => r.status === 'passed').map((r) => r.check));

describe('the in-memory handlers pass', () => {
  it('the shop example: every version, every collection, and what others stored stays as it was', async () => {
    const server = await shop.start({ seed: { customers: [CUSTOMER], orders: [ORDER], coupons: [COUPON] } });
    const report = await conform(shop.contract, server.url);
    expect(failureLines(report)).toBe('');
    expect(report.results.filter((r) => r.status === 'skipped')).toEqual([]);
    // Every check ran somewhere (each one applies to some collection of the shop).
    expect([...checked(report)].sort()).toEqual([...CHECK_IDS].sort());
    expect(report.versions).toEqual(['v1', 'v2', 'v3']);
    expect(report.leftovers).toEqual([]);
    // The run deleted what it made and nothing else.
    for (const [path, record] of [
      ['customers', CUSTOMER],
      ['orders', ORDER],
      ['coupons', COUPON],
    ] as const) {
      const list = await server.call('GET', `/v3/${path}?limit=100`);
      expect(list.body.data, path).toEqual([record]);
    }
    expect(server.errors).toEqual([]);
  });

  it('the header-versioning example: both versions, a replace only the newer one has, a collection only the newer one has', async () => {
    const server = await notes.start();
    const report = await conform(notes.contract, server.url);
    expect(failureLines(report)).toBe('');
    expect(report.results.filter((r) => r.status === 'skipped')).toEqual([]);
    const ran = (check: string, version: string, collection: string) =>
      report.results.some((r) => r.check === check && r.version === version && r.collection === collection && r.status === 'passed');
    expect(ran('replace-complete', '2025-06', 'notes')).toBe(true);
    expect(ran('replace-complete', '2025-01', 'notes')).toBe(false);
    expect(ran('unique', '2025-06', 'labels')).toBe(true);
    expect(ran('versions', '2025-01 → 2025-06', 'notes')).toBe(true);
    expect(ran('pagination-concurrent', '2025-01', 'notes')).toBe(true);
    expect(report.leftovers).toEqual([]);
    expect((await server.call('GET', '/notes', { headers: { 'api-version': '2025-06' } })).body.data).toEqual([]);
  });

  it('a version past its sunset (410 to everything) is skipped, not failed', async () => {
    const server = await shop.start({ options: { now: () => new Date('2027-06-01T00:00:00Z') } });
    const report = await conform(shop.contract, server.url, { versions: ['v1', 'v3'], only: ['customers'] });
    expect(failureLines(report)).toBe('');
    expect(report.results.filter((r) => r.version === 'v1')).toEqual([
      {
        check: 'documented-answers',
        version: 'v1',
        collection: 'customers',
        status: 'skipped',
        reason: 'v1 answers 410 Gone: it is past its sunset',
        failures: [],
      },
    ]);
    expect(report.results.some((r) => r.version === 'v3' && r.status === 'passed')).toBe(true);
  });

  it('a run restricted with versions and only checks just those', async () => {
    const server = await shop.start();
    const report = await conform(shop.contract, server.url, { versions: ['v2'], only: ['orders'] });
    expect(failureLines(report)).toBe('');
    expect(new Set(report.results.map((r) => `${r.version} ${r.collection}`))).toEqual(new Set(['v2 orders']));
  });
});
