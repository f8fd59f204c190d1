/**
 * Attack: the client-credentials token endpoint is read under the same cap as the API. A token endpoint
 * (hostile, compromised, or a proxy's error page in its place) that answers a huge body must not make the
 * client buffer it whole: the client stops at `maxResponseBytes`, throws an `InvalidResponseError`, and
 * sends nothing to the API. And the API's challenge is read as RFC 9110 section 11.2 writes it: an
 * `error` parameter as a token (`error=invalid_token`) or with another case (`Error=`) still renews the
 * token once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, InvalidResponseError, clientCredentials, createShopClient } from '../../examples/shop/generated/client/index.js';
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
    const shop = createShopClient({
      baseUrl: api.url,
      maxResponseBytes: MIB,
      auth: clientCredentials({ tokenUrl: token.url, clientId: 'a', clientSecret: 'b' }),
    });
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
    const shop = createShopClient({
      baseUrl: api.url,
      maxResponseBytes: MIB,
      auth: clientCredentials({ tokenUrl: token.url, clientId: 'a', clientSecret: 'b' }),
    });
    await expect(shop.v2.orders.list()).resolves.toEqual({ data: [], next_cursor: null });
    expect(api.seen[0]?.headers['authorization']).toBe('Bearer t1');
  });
});

describe("the API's challenge renews the token in every form RFC 9110 allows", () => {
  it.each([
    'Bearer realm="shop", error=invalid_token',
    'Bearer realm="shop", Error="invalid_token"',
    'Bearer error = "invalid_token", error_description="expired"',
  ])('%s: a new token, once, and the request succeeds', async (challenge) => {
    let issued = 0;
    const token = createServer(
      (_req, res) =>
        void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: `t${++issued}`, token_type: 'Bearer' })),
    );
    servers.push(token);
    await new Promise<void>((resolve) => token.listen(0, '127.0.0.1', resolve));
    const tokenUrl = `http://127.0.0.1:${(token.address() as AddressInfo).port}/token`;
    const api = await startFaultServer([
      {
        status: 401,
        headers: { 'www-authenticate': challenge, 'content-type': 'application/problem+json' },
        body: { type: 'about:blank', title: 'Unauthorized', status: 401 },
      },
      { status: 200, body: { data: [], next_cursor: null } },
    ]);
    faults.push(api);
    const shop = createShopClient({ baseUrl: api.url, maxRetries: 0, auth: clientCredentials({ tokenUrl, clientId: 'a', clientSecret: 'b' }) });
    await expect(shop.v2.orders.list()).resolves.toEqual({ data: [], next_cursor: null });
    expect(api.seen.map((r) => r.headers['authorization'])).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it('an error of another parameter (error_description, error_uri) is not the error code', async () => {
    const api = await startFaultServer([{ status: 401, headers: { 'www-authenticate': 'Bearer error_description="invalid_token", error_uri="x"' } }]);
    faults.push(api);
    const error = await createShopClient({ baseUrl: api.url, bearer: 'T' })
      .v2.orders.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).oauthError).toBeNull();
  });
});
