/**
 * End to end over HTTP on the ledger example: which version answers a request. The header when sent (a
 * version's name, or a date resolved to the newest released version on or before it; unreleased versions
 * only by name); else the principal's pin; else `versioning.default`; a date before the first version or a
 * value that is neither answers 400 listing the versions. Every answer after resolution, errors included,
 * echoes the version, and `Vary` names the header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallInit } from '../server/helpers.ts';
import { startLedger, type Ledger } from './ledger.ts';

let ledger: Ledger;
beforeAll(async () => {
  ledger = await startLedger('versions-resolution');
});
afterAll(() => ledger.server.close());

const VERSIONS = ['2025-01-15', '2025-09-01', '2026-03-01'];

/** A call with the API key `key` (null: none) and the `Ledger-Version` header when `version` is given. */
const call = (method: string, path: string, key: string | null, version?: string, init: CallInit = {}) =>
  ledger.server.call(method, path, {
    ...init,
    token: null,
    headers: { ...(key === null ? {} : { 'x-api-key': key }), ...(version === undefined ? {} : { 'ledger-version': version }), ...init.headers },
  });

/** Creates an account through `version` (old versions call the name `holder`). */
async function account(version: string): Promise<string> {
  const name = version === '2025-01-15' ? { holder: 'Ada' } : { name: 'Ada' };
  const created = await call('POST', '/accounts', 'key-new', version, { body: { ...name, currency: 'EUR' } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body['id'] as string;
}

describe('the header, when sent', () => {
  it('selects the version it names, and the answer echoes it', async () => {
    const id = await account('2025-09-01');
    const old = await call('GET', `/accounts/${id}`, 'key-new', '2025-01-15');
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({ id, holder: 'Ada' });
    expect(old.headers.get('ledger-version')).toBe('2025-01-15');
    const current = await call('GET', `/accounts/${id}`, 'key-old', '2025-09-01');
    expect(current.body).toMatchObject({ id, name: 'Ada', overdraftLimit: 0 });
    expect(current.headers.get('ledger-version')).toBe('2025-09-01');
  });

  it('a date between two versions resolves to the newest released version on or before it', async () => {
    const id = await account('2025-09-01');
    for (const [date, version] of [
      ['2025-01-15', '2025-01-15'],
      ['2025-06-30', '2025-01-15'],
      ['2025-08-31', '2025-01-15'],
      ['2025-09-02', '2025-09-01'],
      // After the newest released version: that one, never the unreleased 2026-03-01 (whose date has passed).
      ['2026-03-02', '2025-09-01'],
      ['2031-12-31', '2025-09-01'],
    ] as const) {
      const answer = await call('GET', `/accounts/${id}`, 'key-new', date);
      expect(answer.status, date).toBe(200);
      expect(answer.headers.get('ledger-version'), date).toBe(version);
      expect(answer.body, date).toHaveProperty(version === '2025-01-15' ? 'holder' : 'name', 'Ada');
    }
  });

  it('an unreleased version answers only to its exact name', async () => {
    const id = await account('2025-09-01');
    const created = await call('POST', '/transactions', 'key-new', '2026-03-01', {
      body: { account_id: id, amountMinor: 500, direction: 'credit', reference: 'INV-7' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.headers.get('ledger-version')).toBe('2026-03-01');
    expect(created.body).toMatchObject({ amountMinor: 500, reference: 'INV-7' });
    // 2025-09-01's transactions have no reference: a date after 2026-03-01 does not reach the unreleased version.
    const dated = await call('POST', '/transactions', 'key-new', '2026-06-01', {
      body: { account_id: id, amountMinor: 5, direction: 'debit', reference: 'X' },
    });
    expect(dated.status).toBe(400);
    expect(dated.headers.get('ledger-version')).toBe('2025-09-01');
  });

  it('a date before the first version, garbage, or an impossible date answers 400 listing the versions, and echoes nothing', async () => {
    for (const value of ['2025-01-14', '1999-12-31', 'banana', '2025-02-30', 'v1', '', '2025-9-1', '2025-09-01T00:00:00Z']) {
      const answer = await call('GET', '/accounts', 'key-new', value);
      expect(answer.status, value).toBe(400);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(answer.body, value).toMatchObject({ status: 400, code: 'unknown_version', versions: VERSIONS });
      expect(answer.body['detail'], value).toContain('2025-01-15, 2025-09-01, 2026-03-01');
      expect(answer.body['detail'], value).toContain('Ledger-Version');
      expect(answer.headers.get('ledger-version'), value).toBeNull();
    }
  });

  it('wins over the pin', async () => {
    await account('2025-09-01');
    const answer = await call('GET', '/accounts', 'key-old', '2025-09-01');
    expect(answer.headers.get('ledger-version')).toBe('2025-09-01');
  });
});

describe('without the header', () => {
  it("the principal's pin selects the version (a pinned date resolves like the header's)", async () => {
    const id = await account('2025-09-01');
    for (const key of ['key-old', 'key-dated']) {
      const answer = await call('GET', `/accounts/${id}`, key);
      expect(answer.status, key).toBe(200);
      expect(answer.headers.get('ledger-version'), key).toBe('2025-01-15');
      expect(answer.body, key).toMatchObject({ holder: 'Ada' });
    }
  });

  it("the default ('latest': the newest released version) when the principal has no pin", async () => {
    const id = await account('2025-09-01');
    const answer = await call('GET', `/accounts/${id}`, 'key-new');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('ledger-version')).toBe('2025-09-01');
    expect(answer.body).toMatchObject({ name: 'Ada' });
  });

  it('asks the pin once per request, after authentication, with the principal (null when anonymous)', async () => {
    ledger.pinCalls.length = 0;
    await call('GET', '/accounts', 'key-old');
    await call('GET', '/accounts', null);
    await call('GET', '/accounts', 'key-old', '2025-09-01');
    expect(ledger.pinCalls).toEqual(['acct-old', null]);
  });

  it('a refused credential answers 401 before the pin is asked', async () => {
    ledger.pinCalls.length = 0;
    const refused = await call('GET', '/accounts', 'key-unknown');
    expect(refused.status).toBe(401);
    expect(refused.body['code']).toBe('invalid_token');
    expect(ledger.pinCalls).toEqual([]);
  });
});

describe('echo', () => {
  it('every answer after resolution carries the version, errors included; Vary names the header', async () => {
    const missing = await call('GET', '/accounts/7d1c7f1e-6f0a-4b8e-9d3e-2f0c1a2b3c4d', 'key-old');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ledger-version')).toBe('2025-01-15');
    const invalid = await call('POST', '/accounts', 'key-new', '2025-06-30', { body: { name: 'Ada', currency: 'EUR' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body['code']).toBe('validation_failed');
    expect(invalid.headers.get('ledger-version')).toBe('2025-01-15');
    const anonymous = await call('GET', '/accounts', null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('ledger-version')).toBe('2025-09-01');
    const forbidden = await call('POST', '/accounts', 'key-reader', '2025-09-01', { body: { name: 'R', currency: 'EUR' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('ledger-version')).toBe('2025-09-01');
    const badJson = await call('POST', '/accounts', 'key-new', '2025-09-01', { raw: '{', headers: { 'content-type': 'application/json' } });
    expect(badJson.status).toBe(400);
    expect(badJson.headers.get('ledger-version')).toBe('2025-09-01');
    for (const answer of [missing, invalid, anonymous, forbidden, badJson]) expect(answer.headers.get('vary')).toContain('Ledger-Version');
  });

  it('a method no version offers answers 405 before any version is resolved (no credential checked): no echo', async () => {
    ledger.pinCalls.length = 0;
    const method = await call('PUT', '/transactions', 'key-old', undefined, { body: {} });
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect(method.headers.get('ledger-version')).toBeNull();
    expect(method.headers.get('vary')).toContain('Ledger-Version');
    expect(ledger.pinCalls).toEqual([]);
  });

  it("serves each version's OpenAPI document by the same rules", async () => {
    const pinned = await call('GET', '/openapi.json', 'key-old');
    expect(pinned.status).toBe(200);
    expect(pinned.headers.get('ledger-version')).toBe('2025-01-15');
    expect((pinned.body['info'] as { version: string }).version).toBe('2025-01-15');
    const dated = await call('GET', '/openapi.json', null, '2026-01-01');
    expect((dated.body['info'] as { version: string }).version).toBe('2025-09-01');
  });
});
