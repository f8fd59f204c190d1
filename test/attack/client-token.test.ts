/**
 * Attack: the client-credentials token endpoint is read under the same cap as the API. A token endpoint
 * (hostile, compromised, or a proxy's error page in its place) that answers a huge body must not make the
 * client buffer it whole: the client stops at `maxResponseBytes`, throws an `InvalidResponseError`, and
 * sends nothing to the API.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidResponseError, createShopClient } from '../../examples/shop/generated/client/index.js';
import { startFaultServer, type FaultServer } from '../client/fault-server.ts';

const MIB = 1024 * 1024;
const servers: Server[] = [];
const faults: FaultServer[] = [];
afterEach(async () => {
  for (const s of faults.splice(0)) await s.close();
  for (const s of servers.splice(0)) await new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve())));
});

/** A token endpoint whose answer is a valid token padded to `size` bytes (streamed without Content-Length). */
async function bloatedTokenEndpoint(size: number): Promise<{ url: string; sent: () => number }> {
  let sent = 0;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const head = '{"access_token":"t1","token_type":"Bearer","expires_in":3600,"pad":"';
    const chunk = 'x'.repeat(64 * 1024);
    res.write(head);
    const write = (): void => {
      while (!res.destroyed && sent < size) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', write);
      }
      if (!res.destroyed) res.end('"}');
    };
    write();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`, sent: () => sent };
}

describe('the token endpoint is read under maxResponseBytes', () => {
  it('a 32 MiB token answer is cut at the cap: InvalidResponseError, and the API receives nothing', async () => {
    const token = await bloatedTokenEndpoint(32 * MIB);
    const api = await startFaultServer([{ status: 200, body: { data: [], next_cursor: null } }]);
    faults.push(api);
    const shop = createShopClient({ baseUrl: api.url, maxResponseBytes: MIB, auth: { clientCredentials: { tokenUrl: token.url, clientId: 'a', clientSecret: 'b' } } });
    const error = await shop.v2.orders.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).message).toContain('maxResponseBytes');
    expect(api.seen).toHaveLength(0);
    expect(token.sent()).toBeLessThan(32 * MIB);
  });

  it('a token answer under the cap is used', async () => {
    const token = await bloatedTokenEndpoint(64 * 1024);
    const api = await startFaultServer([{ status: 200, body: { data: [], next_cursor: null } }]);
    faults.push(api);
    const shop = createShopClient({ baseUrl: api.url, maxResponseBytes: MIB, auth: { clientCredentials: { tokenUrl: token.url, clientId: 'a', clientSecret: 'b' } } });
    await expect(shop.v2.orders.list()).resolves.toEqual({ data: [], next_cursor: null });
    expect(api.seen[0]?.headers['authorization']).toBe('Bearer t1');
  });
});
