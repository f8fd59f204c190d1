/**
 * End to end over HTTP on the ledger example, with the server's clock injected: brownout windows answer
 * 410 `version_brownout` with `Retry-After` (seconds to the window's end), `Sunset` and `Link`, and nothing
 * changes outside them; deprecated versions send `Deprecation`, `Sunset` and `Link` to their docs page
 * (`rel="deprecation"`, `rel="sunset"`); the sunset retires the version.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDINARY_DAY, startLedger, type Ledger } from './ledger.ts';

let ledger: Ledger;
beforeAll(async () => {
  ledger = await startLedger('versions-lifecycle');
});
afterAll(() => ledger.server.close());

const DOCS = 'https://docs.example.com/upgrade/2025-01-15';
const LINK = `<${DOCS}>; rel="deprecation", <${DOCS}>; rel="sunset"`;
const WINDOW = { start: Date.UTC(2026, 5, 1, 10), end: Date.UTC(2026, 5, 1, 11) };

const get = (key: string, version?: string) =>
  ledger.server.call('GET', '/accounts', { token: null, headers: { 'x-api-key': key, ...(version ? { 'ledger-version': version } : {}) } });

describe('brownouts', () => {
  it('inside the window, a request resolved to the version answers 410 version_brownout with Retry-After, Sunset and Link', async () => {
    ledger.setNow(WINDOW.start + 30 * 60_000 + 400);
    for (const [key, version] of [
      ['key-new', '2025-01-15'],
      ['key-new', '2025-06-30'],
      ['key-old', undefined],
    ] as const) {
      const answer = await get(key, version);
      expect(answer.status, `${key} ${version}`).toBe(410);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(answer.body).toMatchObject({ status: 410, code: 'version_brownout', title: 'Gone' });
      expect(answer.body['detail']).toContain('2026-06-01T11:00:00.000Z');
      expect(answer.body['detail']).toContain('2025-09-01');
      // 29 min 59.6 s to the end, rounded up.
      expect(answer.headers.get('retry-after')).toBe('1800');
      expect(answer.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
      expect(answer.headers.get('link')).toBe(LINK);
      expect(answer.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 0, 1) / 1000}`);
      expect(answer.headers.get('ledger-version')).toBe('2025-01-15');
    }
  });

  it('other versions are served as usual during the window', async () => {
    ledger.setNow(WINDOW.start);
    const current = await get('key-new');
    expect(current.status).toBe(200);
    expect(current.headers.get('ledger-version')).toBe('2025-09-01');
    expect(current.headers.get('link')).toBeNull();
  });

  it('outside the window the version is served normally ([start, end): the end is outside)', async () => {
    for (const now of [WINDOW.start - 1, WINDOW.end, ORDINARY_DAY]) {
      ledger.setNow(now);
      const answer = await get('key-old');
      expect(answer.status, new Date(now).toISOString()).toBe(200);
      expect(answer.headers.get('retry-after')).toBeNull();
    }
    ledger.setNow(WINDOW.start);
    expect((await get('key-old')).status).toBe(410);
  });

  it('the sunset retires the version for good', async () => {
    ledger.setNow(Date.UTC(2027, 5, 1));
    const answer = await get('key-new', '2025-01-15');
    expect(answer.status).toBe(410);
    expect(answer.body['code']).toBe('version_sunset');
    expect(answer.headers.get('link')).toBe(LINK);
    ledger.setNow(ORDINARY_DAY);
  });
});

describe('deprecation headers and links', () => {
  it('a deprecated version sends Deprecation, Sunset and Link to its docs on every answer, errors included', async () => {
    ledger.setNow(ORDINARY_DAY);
    const ok = await get('key-old');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('deprecation')).toBe('@1767225600');
    expect(ok.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(ok.headers.get('link')).toBe(LINK);
    const forbidden = await ledger.server.call('POST', '/accounts', {
      token: null,
      headers: { 'x-api-key': 'key-reader', 'ledger-version': '2025-01-15' },
      body: { holder: 'R', currency: 'EUR' },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('link')).toBe(LINK);
    const document = await ledger.server.call('GET', '/openapi.json', { token: null, headers: { 'ledger-version': '2025-01-15' } });
    expect(document.headers.get('link')).toBe(LINK);
  });

  it('a version that is not deprecated sends none of them', async () => {
    const answer = await get('key-new', '2025-09-01');
    for (const header of ['deprecation', 'sunset', 'link']) expect(answer.headers.get(header), header).toBeNull();
  });
});
