/**
 * The generated client's retry rules against fault-injecting node:http servers: which answers are retried,
 * how long it waits (backoff with jitter, Retry-After), timeouts, connection failures, aborts, and the
 * Idempotency-Key that makes a retried create safe. Attempts are counted by the server and by `onAttempt`.
 * Where a test is about time, the client's clock is the test's (fake timers): sockets stay real, and the clock
 * moves only when the test advances it, so how long the client waited is exact, whatever the machine's load.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closedPort, problem, startFaultServer, type FaultServer, type Reply } from './fault-server.ts';
import { fakeClock, T0, until } from './fake-clock.ts';
import {
  ApiError,
  ConflictError,
  ConnectionError,
  RateLimitError,
  TimeoutError,
  createShopClient,
  type AttemptEvent,
  type ShopClientOptions,
} from '../../examples/shop/generated/client/index.js';

const ORDER = { id: 'o1', customer_id: 'c1', product_id: 7, quantity: 2, currency: 'EUR', status: 'open', createdAt: '2026-10-01T00:00:00Z' };
const ok = (body: unknown = ORDER, status = 200): Reply => ({ status, body });
let server: FaultServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

async function withServer(replies: Parameters<typeof startFaultServer>[0], options: Partial<ShopClientOptions> = {}) {
  server = await startFaultServer(replies);
  const events: AttemptEvent[] = [];
  const client = createShopClient({ baseUrl: server.url, onAttempt: (e) => events.push(e), ...options });
  return { client, events, seen: server.seen };
}

describe('retries', () => {
  it('waits as Retry-After (seconds) says after a 429, then succeeds', async () => {
    const clock = fakeClock();
    const retryAfter = problem(429, 'Too Many Requests', {}, { 'retry-after': '1' });
    // A 10 ms backoff shows that the wait comes from Retry-After, not from the backoff.
    const { client, events, seen } = await withServer([retryAfter, ok()], { retryDelay: 10, fetch: clock.fetch });
    const got = client.v2.orders.get('o1');
    await until(() => events.length === 1);
    await clock.advance(999);
    expect(clock.starts()).toEqual([0]);
    await clock.advance(1);
    await expect(got).resolves.toEqual(ORDER);
    expect(seen).toHaveLength(2);
    expect(clock.starts()).toEqual([0, 1000]);
    expect(events.map((e) => [e.attempt, e.status, e.retryInMs])).toEqual([
      [1, 429, 1000],
      [2, 200, null],
    ]);
  });

  it('reads Retry-After as an HTTP date', async () => {
    fakeClock();
    const at = new Date(T0 + 3000).toUTCString();
    const controller = new AbortController();
    const { client, events } = await withServer([problem(503, 'Unavailable', {}, { 'retry-after': at }), ok()], {
      // Abort as soon as the wait is known: the test reads the planned wait without sitting through it.
      onAttempt: (e) => (events.push(e), controller.abort()),
    });
    await expect(client.v2.orders.get('o1', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(events[0]!.retryInMs).toBe(3000);
  });

  it('does not retry when Retry-After exceeds maxRetryAfter', async () => {
    const { client, seen, events } = await withServer([problem(429, 'Too Many Requests', {}, { 'retry-after': '120' }), ok()]);
    const error = await client.v2.orders.get('o1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(seen).toHaveLength(1);
    expect(events[0]!.retryInMs).toBeNull();
  });

  it('retries a 503 after a jittered 500 ms by default, then succeeds', async () => {
    const clock = fakeClock();
    const { client, events, seen } = await withServer([problem(503, 'Service Unavailable'), ok()], { fetch: clock.fetch });
    const got = client.v2.orders.get('o1');
    await until(() => events.length === 1);
    // Jitter takes off at most a quarter.
    const wait = events[0]!.retryInMs!;
    expect(wait).toBeGreaterThanOrEqual(375);
    expect(wait).toBeLessThanOrEqual(500);
    await clock.advance(wait - 1);
    expect(clock.starts()).toEqual([0]);
    await clock.advance(1);
    await expect(got).resolves.toEqual(ORDER);
    expect(seen).toHaveLength(2);
    expect(clock.starts()).toEqual([0, wait]);
  });

  it('doubles the backoff on each retry, up to maxRetryDelay', async () => {
    const fails = [problem(500, 'Internal'), problem(502, 'Bad Gateway'), problem(504, 'Timeout'), problem(408, 'Request Timeout')];
    const { client, events } = await withServer([...fails, ok()], { retryDelay: 20, maxRetryDelay: 60, maxRetries: 4 });
    await expect(client.v2.orders.get('o1')).resolves.toEqual(ORDER);
    const waits = events.map((e) => e.retryInMs);
    expect(events.map((e) => e.status)).toEqual([500, 502, 504, 408, 200]);
    // Nominal 20, 40, 80 -> 60 (cap), 160 -> 60; jitter takes off at most a quarter.
    [20, 40, 60, 60].forEach((nominal, i) => {
      expect(waits[i]).toBeGreaterThanOrEqual(nominal * 0.75);
      expect(waits[i]).toBeLessThanOrEqual(nominal);
    });
    expect(waits[4]).toBeNull();
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const { client, seen } = await withServer([problem(503, 'Service Unavailable')], { retryDelay: 1, maxRetries: 3 });
    const error = await client.v2.orders.get('o1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect(seen).toHaveLength(4);
  });

  it('times out a hanging server on each attempt', async () => {
    const clock = fakeClock();
    const { client, events, seen } = await withServer(['hang'], { retryDelay: 1, maxRetries: 1, timeout: 150, fetch: clock.fetch });
    const failed = client.v2.orders.get('o1').catch((e: unknown) => e);
    await until(() => seen.length === 1);
    await clock.advance(149);
    expect(events).toHaveLength(0);
    // The first attempt times out, the 1 ms wait passes, and the second hangs as long.
    await clock.advance(1);
    await until(() => events.length === 1);
    await clock.advance(1);
    await until(() => seen.length === 2);
    await clock.advance(150);
    const error = await failed;
    expect(clock.starts()).toEqual([0, 151]);
    expect(events.map((e) => [e.durationMs, e.retryInMs])).toEqual([
      [150, 1],
      [150, null],
    ]);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as TimeoutError).message).toMatch(/Timed out after 150 ms \(GET http:\/\/127\.0\.0\.1:\d+\/v2\/orders\/o1\)/);
    expect((error as TimeoutError).cause).toBeDefined();
    expect(seen).toHaveLength(2);
  });

  it('reports a closed port as a ConnectionError with its cause, after retrying', async () => {
    const events: AttemptEvent[] = [];
    const client = createShopClient({ baseUrl: `http://127.0.0.1:${await closedPort()}`, retryDelay: 1, onAttempt: (e) => events.push(e) });
    const error = await client.v1.orders.get('o1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as ConnectionError).status).toBe(0);
    expect((error as ConnectionError).cause).toBeInstanceOf(Error);
    expect((error as ConnectionError).message).toContain('ECONNREFUSED');
    expect(events.map((e) => [e.attempt, e.status, e.error?.name])).toEqual([
      [1, null, 'ConnectionError'],
      [2, null, 'ConnectionError'],
      [3, null, 'ConnectionError'],
    ]);
  });

  it('retries a dropped connection', async () => {
    const { client, seen } = await withServer(['destroy', ok()], { retryDelay: 1 });
    await expect(client.v2.orders.get('o1')).resolves.toEqual(ORDER);
    expect(seen).toHaveLength(2);
  });

  it('stops at once when the caller aborts during the wait between attempts', async () => {
    const clock = fakeClock();
    const controller = new AbortController();
    const { client, events, seen } = await withServer([problem(503, 'Service Unavailable')], { retryDelay: 5000, fetch: clock.fetch });
    const failed = client.v2.orders.get('o1', { signal: controller.signal }).catch((e: unknown) => e);
    await until(() => events.length === 1);
    controller.abort();
    // No time passes on the client's clock: the abort alone ends the wait.
    expect(await failed).toMatchObject({ name: 'AbortError' });
    // Nothing of the wait is left to start another attempt when its time would have come.
    await clock.advance(5000);
    expect(clock.starts()).toEqual([0]);
    expect(seen).toHaveLength(1);
  });

  it('stops at once when the caller aborts a hanging request, with the abort reason, not retried', async () => {
    const controller = new AbortController();
    const { client, seen } = await withServer(['hang'], { retryDelay: 1 });
    setTimeout(() => controller.abort(new Error('user went away')), 50);
    const error = await client.v2.orders.get('o1', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toEqual(new Error('user went away'));
    expect(error).not.toBeInstanceOf(ApiError);
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toHaveLength(1);
  });

  it('answers a 409 once and does not retry it', async () => {
    const conflict = problem(409, 'Conflict', { detail: 'email a@b.example is taken' });
    const { client, seen } = await withServer([conflict, ok(ORDER, 201)], { retryDelay: 1 });
    const error = await client.v3.customers.create({ email: 'a@b.example' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, problem: { title: 'Conflict', detail: 'email a@b.example is taken' } });
    expect((error as ConflictError).message).toMatch(/^409 Conflict: email a@b\.example is taken \(POST http:.*\/v3\/customers\)$/);
    expect((error as ConflictError).headers.get('content-type')).toBe('application/problem+json');
    expect(seen).toHaveLength(1);
  });

  it('retries exactly 408, 429 and 500, 502, 503, 504', async () => {
    const statuses = [400, 401, 403, 404, 405, 408, 409, 410, 413, 415, 422, 429, 500, 501, 502, 503, 504, 505];
    const { client, seen } = await withServer((_, req) => problem(Number(req.url.split('/').pop()), 'Failure'), { retryDelay: 1, maxRetries: 1 });
    const attempts: Record<number, number> = {};
    for (const status of statuses) {
      const before = seen.length;
      await client.v2.orders.get(String(status)).catch(() => undefined);
      attempts[status] = seen.length - before;
    }
    const retried = statuses.filter((s) => attempts[s] === 2);
    expect(retried).toEqual([408, 429, 500, 502, 503, 504]);
    expect(statuses.filter((s) => attempts[s] !== 1 && attempts[s] !== 2)).toEqual([]);
  });
});

describe('idempotency keys', () => {
  it('sends one Idempotency-Key per create, the same on every attempt', async () => {
    const { client, seen } = await withServer([problem(503, 'Unavailable'), 'destroy', ok(ORDER, 201), ok(ORDER, 201)], { retryDelay: 1 });
    await client.v2.orders.create({ customer_id: 'c1', product_id: 7, quantity: 2 });
    expect(seen).toHaveLength(3);
    const keys = seen.map((s) => s.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys).size).toBe(1);
    expect(seen.map((s) => JSON.parse(s.body))).toEqual(Array(3).fill({ customer_id: 'c1', product_id: 7, quantity: 2 }));
    await client.v2.orders.create({ customer_id: 'c1', product_id: 7, quantity: 2 });
    expect(seen[3]!.headers['idempotency-key']).not.toBe(keys[0]);
  });

  it("uses the caller's key, and sends none on reads", async () => {
    const { client, seen } = await withServer([ok(ORDER, 201), ok()]);
    await client.v2.orders.create({ customer_id: 'c1', product_id: 7, quantity: 2 }, { idempotencyKey: 'order-42' });
    await client.v2.orders.get('o1');
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual(['order-42', undefined]);
  });
});
