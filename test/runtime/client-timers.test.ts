/**
 * Unit tests of the client runtime's timers (`runtime/client/signals.ts`, and the token request in
 * `oauth.ts`) with delays past what `setTimeout` takes: Node and browsers fire a delay above 2^31 - 1 ms
 * (about 24.8 days), or `Infinity`, after 1 ms. A `timeout: Infinity` must not time every attempt out at
 * once, and a long `Retry-After` honoured through `maxRetryAfter` must not turn into an immediate retry.
 */
import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createShopClient } from '../../examples/shop/generated/client/index.js';
import { createTokenSource } from '../../runtime/client/oauth.ts';
import { guardAttempt, sleep } from '../../runtime/client/signals.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LONG = [Infinity, 2 ** 31, 30 * 24 * 3600 * 1000];

describe('guardAttempt', () => {
  it.each(LONG)('a timeout of %d ms does not abort the attempt at once', async (timeout) => {
    const guard = guardAttempt([], timeout);
    await pause(30);
    expect(guard.signal.aborted).toBe(false);
    guard.abort();
  });

  it('a short timeout still aborts, and the caller aborting still aborts a long one', async () => {
    const short = guardAttempt([], 5);
    await pause(30);
    expect(short.signal.aborted).toBe(true);
    short.abort();
    const caller = new AbortController();
    const long = guardAttempt([caller.signal], Infinity);
    caller.abort(new Error('stop'));
    expect(long.signal.aborted).toBe(true);
    expect(long.signal.reason).toEqual(new Error('stop'));
    long.abort();
  });
});

describe('sleep', () => {
  it.each(LONG)('a wait of %d ms does not end at once; the caller can still abort it', async (ms) => {
    const caller = new AbortController();
    let settled = false;
    const waiting = sleep(ms, [caller.signal]).finally(() => (settled = true));
    await pause(30);
    expect(settled).toBe(false);
    caller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});

describe('createTokenSource with a long timeout', () => {
  it.each(LONG)('fetches a token with timeout %d', async (timeout) => {
    const server = createServer((_request, response) =>
      setTimeout(
        () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 't1', token_type: 'Bearer', expires_in: 60 })),
        20,
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
      const source = createTokenSource({ clientId: 'a', clientSecret: 'b' }, url, undefined, timeout, 1 << 20);
      expect(await source.get(new AbortController().signal)).toBe('t1');
    } finally {
      server.close();
    }
  });
});

describe('the generated client with long waits (over loopback)', () => {
  const ORDER = { id: 'o1', customer_id: 'c1', product_id: 7, quantity: 2, currency: 'EUR', status: 'open', createdAt: '2026-10-01T00:00:00Z' };
  async function serve(answer: (n: number) => { status: number; headers?: Record<string, string>; body?: unknown }) {
    let n = 0;
    const server = createServer((_request, response) => {
      const reply = answer(n++);
      setTimeout(() => response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.body ?? {})), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      requests: () => n,
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }

  it('timeout: Infinity waits for the answer', async () => {
    const api = await serve(() => ({ status: 200, body: ORDER }));
    try {
      await expect(createShopClient({ baseUrl: api.url, timeout: Infinity, maxRetries: 0 }).v2.orders.get('o1')).resolves.toEqual(ORDER);
    } finally {
      await api.close();
    }
  });

  it('a Retry-After of 30 days honoured through maxRetryAfter: Infinity is waited for, not retried at once', async () => {
    const api = await serve(() => ({ status: 503, headers: { 'retry-after': String(30 * 24 * 3600) } }));
    try {
      const caller = new AbortController();
      const pending = createShopClient({ baseUrl: api.url, maxRetryAfter: Infinity, signal: caller.signal }).v2.orders.get('o1');
      await pause(200);
      caller.abort(new Error('gave up'));
      await expect(pending).rejects.toThrow('gave up');
      expect(api.requests()).toBe(1);
    } finally {
      await api.close();
    }
  });
});

describe('sleep cleans up after an abort', () => {
  it("a request's own signal aborting a wait leaves no listener on the client's signal", async () => {
    const client = new AbortController();
    for (let i = 0; i < 20; i++) {
      const request = new AbortController();
      const waiting = sleep(10_000, [client.signal, request.signal]);
      request.abort(new Error('cancelled'));
      await expect(waiting).rejects.toThrow('cancelled');
    }
    expect(getEventListeners(client.signal, 'abort')).toHaveLength(0);
  });
});
