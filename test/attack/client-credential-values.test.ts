/**
 * Attack: a credential that is not a valid header value (a line break inside, or a character above
 * U+00FF, say a token read from a file with the wrong encoding). `Headers.set` throws a TypeError whose
 * message quotes the value: the client must neither put the secret into an error message (they end in
 * logs) nor report it as a ConnectionError and retry it. It is a TypeError without the value, sent nowhere.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createShopClient, type AttemptEvent } from '../../examples/shop/generated/client/index.js';
import { startFaultServer, type FaultServer } from '../client/fault-server.ts';

const servers: FaultServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

describe('credentials that are not header values', () => {
  it.each([
    ['bearer', 'sk_live_SECRET\nX-Injected: 1'],
    ['bearer', 'sk_live_SECRET€'],
    ['apiKey', 'sk_live_SECRET\r\nX: 1'],
  ] as const)('%s %j: a TypeError that does not quote the secret, not retried, nothing sent', async (option, value) => {
    const api = await startFaultServer([{ status: 200, body: { data: [], next_cursor: null } }]);
    servers.push(api);
    const events: AttemptEvent[] = [];
    const shop = createShopClient({ baseUrl: api.url, retryDelay: 1, [option]: () => value, onAttempt: (e) => void events.push(e) });
    const error = await shop.v2.orders.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as Error).message)).not.toContain('SECRET');
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain('SECRET');
    expect(api.seen).toHaveLength(0);
    expect(events).toHaveLength(0);
  });
});
