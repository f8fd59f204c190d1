/**
 * Per-request options that are present but `undefined` (`{ timeout: config.timeout }` with nothing
 * configured, `{ bearer: session?.token }`): TypeScript accepts them without `exactOptionalPropertyTypes`,
 * and they mean "not given". The client's own options apply: its credential, retries, timeout and
 * `onAttempt` are not replaced by the defaults (nor the credential dropped). Against a loopback server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InternalServerError, createShopClient, type AttemptEvent, type RequestOptions } from '../../examples/shop/generated/client/index.js';
import { problem, startFaultServer, type FaultServer } from './fault-server.ts';

const ORDER = { id: 'o1', customer_id: 'c1', product_id: 7, quantity: 2, currency: 'EUR', status: 'open', createdAt: '2026-10-01T00:00:00Z' };
const servers: FaultServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** Every option present and undefined, as a caller without exactOptionalPropertyTypes may pass them. */
const UNDEFINED = {
  bearer: undefined,
  apiKey: undefined,
  maxRetries: undefined,
  timeout: undefined,
  retryDelay: undefined,
  onAttempt: undefined,
  fetch: undefined,
  headers: undefined,
} as unknown as RequestOptions;

describe('per-request options that are undefined', () => {
  it("keep the client's credential, API key and onAttempt", async () => {
    const api = await startFaultServer([{ status: 200, body: ORDER }]);
    servers.push(api);
    const events: AttemptEvent[] = [];
    const shop = createShopClient({ baseUrl: api.url, bearer: 'TOKEN', apiKey: 'KEY', onAttempt: (e) => void events.push(e) });
    await expect(shop.v2.orders.get('o1', UNDEFINED)).resolves.toEqual(ORDER);
    expect(api.seen[0]?.headers['authorization']).toBe('Bearer TOKEN');
    expect(api.seen[0]?.headers['x-api-key']).toBe('KEY');
    expect(events).toHaveLength(1);
  });

  it("keep the client's retries (maxRetries: 0 stays 0)", async () => {
    const api = await startFaultServer([problem(503, 'Service Unavailable')]);
    servers.push(api);
    const shop = createShopClient({ baseUrl: api.url, maxRetries: 0 });
    await expect(shop.v2.orders.get('o1', UNDEFINED)).rejects.toBeInstanceOf(InternalServerError);
    expect(api.seen).toHaveLength(1);
  });
});
