/**
 * Versions as the server operates them (issue 31), seen from the client of the header-versioned example:
 * it sends the version of the namespace called, reports the version the server echoed in the versioning
 * header (`onAttempt`'s `version`, and the `Response` of `withResponse()`), errors included, and reads a
 * 410 `version_brownout` as a VersionBrownoutError (a GoneError), not retried whatever its `Retry-After`;
 * a version past its sunset is a GoneError. Against a loopback server that resolves and answers like that.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, GoneError, VersionBrownoutError, createNotesClient, type AttemptEvent } from '../../examples/header-versioning/generated/client/index.js';
import { createShopClient } from '../../examples/shop/generated/client/index.js';
import { problem, startFaultServer, type FaultServer, type Reply, type Seen } from './fault-server.ts';

const NOTE = { id: 'n1', title: 'T', body: '', pinned: false, tags: [], updatedAt: '2026-01-01T00:00:00Z' };
let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server that echoes the version it resolved (`resolve` of the header sent) on every answer, errors too. */
async function echoing(answer: (seen: Seen) => Reply, resolve: (sent: string) => string = (v) => v): Promise<FaultServer> {
  server = await startFaultServer((_, seen) => {
    const reply = answer(seen);
    const sent = String(seen.headers['api-version']);
    return typeof reply === 'string' ? reply : { ...reply, headers: { ...reply.headers, 'api-version': resolve(sent), vary: 'Api-Version' } };
  });
  return server;
}

describe('the version a header-versioned client talks to', () => {
  it('sends the version of the namespace called and reports the one the server echoed', async () => {
    // The server resolves 2025-01 to what it serves now, as a date-versioned server resolves a date.
    const api = await echoing(
      () => ({ status: 200, body: NOTE }),
      (v) => (v === '2025-01' ? '2025-01-10' : v),
    );
    const events: AttemptEvent[] = [];
    const notes = createNotesClient({ baseUrl: api.url, onAttempt: (e) => void events.push(e) });
    await notes['2025-06'].notes.get('n1');
    await notes['2025-01'].notes.get('n1');
    expect(api.seen.map((s) => s.headers['api-version'])).toEqual(['2025-06', '2025-01']);
    expect(events.map((e) => e.version)).toEqual(['2025-06', '2025-01-10']);
    const { response } = await notes['2025-01'].notes.get('n1').withResponse();
    expect(response.headers.get('api-version')).toBe('2025-01-10');
  });

  it('reports null when the server echoes nothing, and for path versions', async () => {
    server = await startFaultServer(() => ({ status: 200, body: NOTE }));
    const events: AttemptEvent[] = [];
    await createNotesClient({ baseUrl: server.url, onAttempt: (e) => void events.push(e) })['2025-06'].notes.get('n1');
    // The shop versions by path: a header of that name is not an echo.
    await createShopClient({ baseUrl: server.url, onAttempt: (e) => void events.push(e) }).v2.customers.get('n1', { headers: { 'api-version': 'v2' } });
    expect(events.map((e) => e.version)).toEqual([null, null]);
  });

  it('reads a brownout as a VersionBrownoutError, not retried, with the echo and the window end', async () => {
    const brownout = problem(
      410,
      'Gone',
      { code: 'version_brownout', detail: '2025-01 is browned out until 11:00 UTC.' },
      { 'retry-after': '1800', sunset: 'Tue, 01 Jan 2030 00:00:00 GMT' },
    );
    const api = await echoing(() => brownout);
    const events: AttemptEvent[] = [];
    const notes = createNotesClient({ baseUrl: api.url, retryDelay: 1, maxRetries: 3, onAttempt: (e) => void events.push(e) });
    const error = await notes['2025-01'].notes.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionBrownoutError);
    expect(error).toBeInstanceOf(GoneError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'VersionBrownoutError', status: 410, problem: { code: 'version_brownout' } });
    expect((error as VersionBrownoutError).headers.get('retry-after')).toBe('1800');
    expect((error as Error).message).toMatch(/^410 Gone: 2025-01 is browned out until 11:00 UTC\. \(GET http:\S+\/notes\)$/);
    expect(api.seen).toHaveLength(1);
    expect(events.map((e) => [e.status, e.retryInMs, e.version, e.sunset])).toEqual([[410, null, '2025-01', 'Tue, 01 Jan 2030 00:00:00 GMT']]);
  });

  it('reads a version past its sunset as a GoneError that is no brownout', async () => {
    const api = await echoing(() => problem(410, 'Gone', { code: 'version_sunset', detail: '2025-01 was retired on 2030-01-01; use 2025-06.' }));
    const error = await createNotesClient({ baseUrl: api.url })
      ['2025-01'].notes.get('n1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GoneError);
    expect(error).not.toBeInstanceOf(VersionBrownoutError);
    expect(error).toMatchObject({ name: 'GoneError', status: 410 });
    expect(api.seen).toHaveLength(1);
  });
});
