/**
 * The node-postgres `date` pitfall the real-database guide describes, on a real PostgreSQL, in a time zone far from
 * UTC (Pacific/Kiritimati, UTC+14): pg turns a `date` column into a `Date` at local midnight, whose ISO text names
 * the day before; selecting the column as text (what the shop example does), or `pg.types.setTypeParser(1082, ...)`,
 * keeps the day. And the shop example, run in that time zone, answers a coupon's `validUntil` as it was sent.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChild, type Child } from './child.ts';
import { createTestDatabase, postgresUrl, requirePostgres, type TestDatabase } from './database.ts';

const serverUrl = postgresUrl();
const ROOT = new URL('../../', import.meta.url).pathname;
const FAR_EAST = 'Pacific/Kiritimati';

/** What pg gives for a `date` in time zone `tz`: as the Date it parses (its ISO text), as text, and with the parser set. */
const PROBE = `
import pg from 'pg';
const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
const q = "SELECT '2026-03-01'::date AS day, '2026-03-01'::date::text AS text";
const parsed = (await client.query(q)).rows[0];
pg.types.setTypeParser(1082, (value) => value);
const kept = (await client.query(q)).rows[0];
await client.end();
console.log(JSON.stringify({ parsed: parsed.day.toISOString(), asText: parsed.text, withParser: kept.day }));
`;

describe.runIf(requirePostgres(serverUrl))('dates on PostgreSQL', () => {
  let db: TestDatabase;
  let shop: Child | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(serverUrl!);
  });
  afterAll(async () => {
    await shop?.stop();
    await db?.drop();
  });

  it(`pg reads a date as local midnight (${FAR_EAST}: the day before, in UTC); as text, or with the type parser, it keeps the day`, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', PROBE], {
      cwd: ROOT,
      env: { ...process.env, TZ: FAR_EAST, DATABASE_URL: db.url },
    });
    expect(JSON.parse(stdout)).toEqual({ parsed: '2026-02-28T10:00:00.000Z', asText: '2026-03-01', withParser: '2026-03-01' });
  });

  it(`the shop example answers a coupon's validUntil as sent, run in ${FAR_EAST}`, async () => {
    shop = await startChild({ DATABASE_URL: db.url, TZ: FAR_EAST });
    const headers = { authorization: 'Bearer admin', 'content-type': 'application/json' };
    const created = await fetch(`${shop.url}/v3/coupons`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ code: 'LEAP26', percentOff: 5, validUntil: '2026-03-01' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const read = (await (await fetch(`${shop.url}/v3/coupons/${id}`, { headers })).json()) as { validUntil: string };
    expect(read.validUntil).toBe('2026-03-01');
  });
});
