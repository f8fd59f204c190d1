/**
 * `restgen conformance` against the shop's handlers on PostgreSQL (examples/shop-postgres): the reference handlers
 * keep every promise the contract makes of them (conditional writes and transitions atomic in the database,
 * keyset pages stable under concurrent inserts, unique constraints answering 409, filters, idempotent creates),
 * in every version. Run through the command line as a team runs it against its staging server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.ts';
import { SHOP_API } from '../helpers/load-ir.ts';
import { postgresUrl, requirePostgres } from './database.ts';
import { startShop, type RunningShop } from './shop.ts';

const serverUrl = postgresUrl();

describe.runIf(requirePostgres(serverUrl))('restgen conformance against the shop on PostgreSQL', () => {
  let shop: RunningShop;
  beforeAll(async () => {
    shop = await startShop(serverUrl!);
  });
  afterAll(async () => shop?.stop());

  it('passes every check of every version, and leaves the records it did not create alone', async () => {
    const before = await shop.call('POST', '/v3/customers', { email: 'kept@example.com', name: 'Kept' });
    expect(before.status).toBe(201);
    const result = await runCli(process.cwd(), [
      'conformance',
      SHOP_API,
      '--url',
      shop.server.url,
      '--header',
      'Authorization: Bearer conformance',
      '--seed',
      '7',
      '--format',
      'json',
    ]);
    const report = JSON.parse(result.out) as {
      summary: { failed: number; passed: number; leftovers: number };
      results: { status: string; check: string; version: string; collection: string }[];
    };
    expect(
      report.results.filter((r) => r.status === 'failed'),
      result.err,
    ).toEqual([]);
    expect(result.code).toBe(0);
    expect(report.summary.passed).toBeGreaterThan(40);
    // The list queries' checks ran on the reference's own SQL: v3's orders sort, filter with ranges and expand.
    const passed = (check: string) => report.results.some((r) => r.check === check && r.version === 'v3' && r.collection === 'orders' && r.status === 'passed');
    for (const check of ['sort', 'filter-operators', 'cursor-mismatch', 'field-masks', 'expand']) expect(passed(check), check).toBe(true);
    expect(report.summary.leftovers).toBe(0);
    const kept = await shop.call('GET', `/v3/customers/${String(before.body['id'])}`);
    expect(kept.status).toBe(200);
  }, 120_000);
});
