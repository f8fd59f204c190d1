/**
 * Attack: the generated client against fault-injecting servers on loopback. Redirects are followed only
 * on the same origin (another origin receives nothing: no credential, body or Idempotency-Key); a huge
 * body is cut at `maxResponseBytes` while it streams and not retried; a server that repeats a cursor ends
 * the walk with an error; a `bearer()` that never settles is bounded by `timeout` and by abort; a page
 * with `data: null`, an empty 200 body and `Retry-After: -5` are handled as documented.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidResponseError, RedirectError, TimeoutError, createShopClient, type AttemptEvent } from '../../examples/shop/generated/client/index.js';
import { fakeClock, until } from '../client/fake-clock.ts';
import { startFaultServer, type FaultServer, type Reply } from '../client/fault-server.ts';

const ORDER = { id: 'o1', customer_id: 'c1', product_id: 7, quantity: 2, currency: 'EUR', status: 'open', createdAt: '2026-10-01T00:00:00Z' };
const servers: (FaultServer | Server)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const s of servers.splice(0)) await ('seen' in s ? s.close() : new Promise<void>((resolve) => (s.closeAllConnections(), s.close(() => resolve()))));
});
async function fault(replies: Parameters<typeof startFaultServer>[0]): Promise<FaultServer> {
  const s = await startFaultServer(replies);
  servers.push(s);
  return s;
}

describe('redirects', () => {
  it('a redirect to another origin is not followed: it receives nothing, the error carries the Location', async () => {
    const other = await fault([{ status: 201, body: ORDER }]);
    const api = await fault([{ status: 307, headers: { location: `${other.url}/v2/orders` } }]);
    const client = createShopClient({ baseUrl: api.url, apiKey: 'SECRET-KEY', bearer: 'SECRET-TOKEN' });
    const error = await client.v2.orders.create({ customer_id: 'c1', product_id: 7, quantity: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).location).toBe(`${other.url}/v2/orders`);
    expect((error as RedirectError).status).toBe(307);
    expect(other.seen).toHaveLength(0);
    expect(api.seen).toHaveLength(1);
  });

  it('a same-origin redirect is followed with the credential; 303 continues as a GET without a body', async () => {
    const api = await fault(
      (n, seen): Reply =>
        n === 0
          ? { status: 307, headers: { location: '/v2/orders/o1' } }
          : n === 1
            ? { status: 303, headers: { location: `/v2/orders/o1?seen=${seen.method}` } }
            : { status: 200, body: ORDER },
    );
    const client = createShopClient({ baseUrl: api.url, bearer: 'TOKEN' });
    await expect(client.v2.orders.update('o0', { quantity: 3 })).resolves.toEqual(ORDER);
    expect(api.seen.map((s) => [s.method, s.url, s.headers['authorization'], s.body])).toEqual([
      ['PATCH', '/v2/orders/o0', 'Bearer TOKEN', '{"quantity":3}'],
      ['PATCH', '/v2/orders/o1', 'Bearer TOKEN', '{"quantity":3}'],
      ['GET', '/v2/orders/o1?seen=PATCH', 'Bearer TOKEN', ''],
    ]);
  });

  it("a 303 continues as a GET without the write's If-Match and Idempotency-Key (they belong to the write, not to the GET)", async () => {
    const api = await fault((n): Reply => (n % 2 === 0 ? { status: 303, headers: { location: '/v2/orders/o1' } } : { status: 200, body: ORDER }));
    const client = createShopClient({ baseUrl: api.url, bearer: 'TOKEN' });
    await expect(client.v2.orders.update('o1', { quantity: 3 }, { ifMatch: '"tag-1"' })).resolves.toEqual(ORDER);
    await expect(client.v2.orders.create({ customer_id: 'c1', product_id: 7, quantity: 2 }, { idempotencyKey: 'key-1' })).resolves.toEqual(ORDER);
    expect(api.seen.map((s) => [s.method, s.headers['if-match'], s.headers['idempotency-key'], s.headers['content-type']])).toEqual([
      ['PATCH', '"tag-1"', undefined, 'application/json'],
      ['GET', undefined, undefined, undefined],
      ['POST', undefined, 'key-1', 'application/json'],
      ['GET', undefined, undefined, undefined],
    ]);
  });

  it('more than 5 redirects is an error', async () => {
    const api = await fault([{ status: 302, headers: { location: '/v2/orders/o1' } }]);
    await expect(createShopClient({ baseUrl: api.url }).v2.orders.get('o1')).rejects.toBeInstanceOf(RedirectError);
    expect(api.seen).toHaveLength(6);
  });

  it("a browser's opaque redirect (status 0, no Location) is a RedirectError, not retried as a connection failure", async () => {
    let calls = 0;
    // What a browser's fetch answers a `redirect: 'manual'` request that is redirected.
    const opaque = async (): Promise<Response> => (
      calls++, { type: 'opaqueredirect', status: 0, ok: false, headers: new Headers(), body: null } as unknown as Response
    );
    const error = await createShopClient({ baseUrl: 'https://api.example.com', fetch: opaque, retryDelay: 1 })
      .v2.orders.get('o1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect([(error as RedirectError).status, (error as RedirectError).location, calls]).toEqual([0, null, 1]);
  });
});

describe('response size', () => {
  it('a body past maxResponseBytes is cut while it streams, and not retried', async () => {
    let sent = 0;
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      // Endless: the client must stop reading, not the server stop writing.
      const write = () => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length;
        if (!res.destroyed) res.once('drain', write);
      };
      res.write('[');
      write();
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = createShopClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, maxResponseBytes: 1024 * 1024 });
    const used = process.memoryUsage().rss;
    const error = await client.v2.orders.get('o1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(String((error as Error).message)).toContain('maxResponseBytes');
    expect(requests).toBe(1);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    expect(process.memoryUsage().rss - used).toBeLessThan(200 * 1024 * 1024);
  });

  it('a declared Content-Length past the cap is refused before reading', async () => {
    const api = await fault([{ status: 200, headers: { 'content-length': String(50 * 1024 * 1024) }, body: '' }]);
    const error = await createShopClient({ baseUrl: api.url, timeout: 2_000 })
      .v2.orders.get('o1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(api.seen).toHaveLength(1);
  });
});

describe('pagination', () => {
  it('a server that repeats next_cursor ends the walk with an error instead of looping', async () => {
    const api = await fault((n): Reply => ({ status: 200, body: { data: [{ ...ORDER, id: `o${n}` }], next_cursor: 'same' } }));
    const seen: string[] = [];
    const walk = async () => {
      for await (const order of createShopClient({ baseUrl: api.url }).v2.orders.list()) seen.push(order.id);
    };
    await expect(walk()).rejects.toBeInstanceOf(InvalidResponseError);
    expect(seen).toEqual(['o0', 'o1']);
    expect(api.seen).toHaveLength(2);
  });

  it('a page with data: null is an InvalidResponseError, not a TypeError', async () => {
    const api = await fault([{ status: 200, body: { data: null, next_cursor: null } }]);
    await expect(createShopClient({ baseUrl: api.url }).v2.orders.list()).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('a page whose next_cursor is missing or not a string is an InvalidResponseError', async () => {
    const api = await fault([
      { status: 200, body: { data: [] } },
      { status: 200, body: { data: [], next_cursor: 5 } },
    ]);
    const client = createShopClient({ baseUrl: api.url, maxRetries: 0 });
    await expect(client.v2.orders.list()).rejects.toThrow(/not a page/);
    await expect(client.v2.orders.list()).rejects.toBeInstanceOf(InvalidResponseError);
  });
});

describe('bodies', () => {
  it('an empty 200 body is an InvalidResponseError, not undefined', async () => {
    const api = await fault([{ status: 200 }]);
    await expect(createShopClient({ baseUrl: api.url }).v2.orders.get('o1')).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('a request without a body sends no Content-Type, even when the default headers set one', async () => {
    const api = await fault([{ status: 204 }, { status: 200, body: ORDER }]);
    const client = createShopClient({ baseUrl: api.url, headers: { 'content-type': 'application/json' } });
    await client.v2.orders.delete('o1');
    await client.v2.orders.update('o1', { quantity: 3 });
    expect(api.seen.map((s) => s.headers['content-type'])).toEqual([undefined, 'application/json']);
  });

  it('a delete answered 204 without a body resolves', async () => {
    const api = await fault([{ status: 204 }]);
    await expect(createShopClient({ baseUrl: api.url }).v2.orders.delete('o1')).resolves.toBeUndefined();
  });
});

describe('credentials that never settle', () => {
  it('a bearer() that never settles is bounded by timeout (each attempt), then TimeoutError', async () => {
    const clock = fakeClock();
    const api = await fault([{ status: 200, body: ORDER }]);
    const events: AttemptEvent[] = [];
    const client = createShopClient({
      baseUrl: api.url,
      bearer: () => new Promise<string>(() => undefined),
      timeout: 100,
      maxRetries: 1,
      retryDelay: 10,
      onAttempt: (e) => events.push(e),
    });
    const failed = client.v2.orders.get('o1').catch((e: unknown) => e);
    await clock.advance(100);
    await until(() => events.length === 1);
    await clock.advance(events[0]!.retryInMs!);
    await clock.advance(100);
    expect(await failed).toBeInstanceOf(TimeoutError);
    // Each attempt ended when its timeout did.
    expect(events.map((e) => e.durationMs)).toEqual([100, 100]);
    expect(api.seen).toHaveLength(0);
  });

  it('and by the caller aborting', async () => {
    const api = await fault([{ status: 200, body: ORDER }]);
    const controller = new AbortController();
    const client = createShopClient({ baseUrl: api.url, bearer: () => new Promise<string>(() => undefined) });
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(client.v2.orders.get('o1', { signal: controller.signal })).rejects.toThrow('stop');
  });

  it('an error thrown by bearer() reaches the caller as is, not retried', async () => {
    const api = await fault([{ status: 200, body: ORDER }]);
    let calls = 0;
    const client = createShopClient({ baseUrl: api.url, bearer: () => (calls++, Promise.reject(new Error('no token'))) });
    await expect(client.v2.orders.get('o1')).rejects.toThrow('no token');
    expect(calls).toBe(1);
  });
});

describe('Retry-After', () => {
  it('-5 is ignored: the backoff applies, not an immediate retry', async () => {
    const clock = fakeClock();
    const api = await fault([
      { status: 503, headers: { 'retry-after': '-5' } },
      { status: 200, body: ORDER },
    ]);
    const events: AttemptEvent[] = [];
    const got = createShopClient({ baseUrl: api.url, retryDelay: 200, fetch: clock.fetch, onAttempt: (e) => events.push(e) }).v2.orders.get('o1');
    await until(() => events.length === 1);
    // The backoff of 200 ms, less at most a quarter of jitter.
    const wait = events[0]!.retryInMs!;
    expect(wait).toBeGreaterThanOrEqual(150);
    await clock.advance(wait);
    await expect(got).resolves.toEqual(ORDER);
    expect(clock.starts()).toEqual([0, wait]);
  });
});
