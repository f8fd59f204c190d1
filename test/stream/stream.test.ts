/**
 * `GET /vN/events` of the shop example over real HTTP, on the memory log: the headers, `retry:` and the opening
 * id; each reader gets events in its own version's shape while the handlers write the newest; the `types` filter;
 * resuming with `?after=` and `Last-Event-ID`; 410 `stream_expired` past the retention; who may read what (401,
 * 403); the per-principal limit (429); a reader slower than the buffer limit is cut off on a whole event and
 * resumes without a loss; `app.close()` ends open streams.
 */
import { get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryEventLog, type EventLog } from '../../packages/runtime/src/index.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running, type ServerModule } from '../server/helpers.ts';
import { openStream } from './sse.ts';

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'orders:cancel', 'webhooks:read', 'webhooks:write'];
/** `nobody` holds no scope, `buyer` all but orders:read, any other token every scope (its own principal). */
const authenticate = ({ token }: { token: string }) => ({
  id: token,
  scopes: token === 'nobody' ? [] : token === 'buyer' ? SCOPES.filter((s) => s !== 'orders:read') : SCOPES,
});

let mod: ServerModule;
const servers: Running[] = [];
async function serve(stream: object = {}): Promise<Running> {
  const server = await start((app) =>
    registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { authenticate, migrations: SHOP_MIGRATIONS, rateLimit: false, stream }),
  );
  servers.push(server);
  return server;
}
async function order(server: Running, body: object = {}): Promise<string> {
  const customer = await server.call('POST', '/v3/customers', { body: { email: `c${Math.random()}@example.com`, name: 'C' } });
  const created = await server.call('POST', '/v3/orders', { body: { customer_id: customer.body['id'], product_id: 7, quantity: 3, ...body } });
  expect(created.status).toBe(201);
  return created.body['id'] as string;
}
/** A newest-shape order as the log keeps it (for tests that append to the log directly). */
const logged = (n: number) => ({
  type: 'order.created',
  time: Date.now(),
  data: JSON.stringify({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    customer_id: '00000000-0000-4000-8000-000000000001',
    product_id: 7,
    quantity: 1 + (n % 1000),
    currency: 'EUR',
    status: 'open',
    total: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
  }),
});

beforeAll(async () => {
  mod = await importServer(await generateInto('stream'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe('the event stream', () => {
  it('opens with the SSE headers, retry and the current id, and streams each reader its own version', async () => {
    const server = await serve();
    await order(server);
    const v1 = await openStream(`${server.url}/v1/events`, { token: null });
    const v3 = await openStream(`${server.url}/v3/events`);
    expect(v1.status).toBe(200);
    expect(v1.headers.get('content-type')).toBe('text/event-stream');
    expect(v1.headers.get('cache-control')).toBe('no-cache');
    expect(v1.headers.get('x-accel-buffering')).toBe('no');
    await order(server, { reference: 'RF-0042', giftMessage: 'for you' });
    const [a] = await v1.waitFor(1);
    const [b] = await v3.waitFor(1);
    // The stream starts at the current id: the order made before it opened is not sent.
    expect(v1.retry).toBe(2000);
    expect(a!.id).toBe('2');
    expect(a!.event).toBe('order.created');
    expect(a!.data.type).toBe('order.created');
    // v1 calls quantity qty, has the note the v2 hook fills from giftMessage, knows no currency, and its reference is a number.
    expect(a!.data.data).toMatchObject({ qty: 3, reference: 42, note: 'for you' });
    expect(a!.data.data).not.toHaveProperty('currency');
    expect(a!.data.data).not.toHaveProperty('quantity');
    expect(b!.data.data).toMatchObject({ quantity: 3, reference: 'RF-0042', currency: 'EUR', giftMessage: 'for you' });
    expect(b!.data.timestamp).toBe(a!.data.timestamp);
    v1.drop();
    v3.drop();
  });

  it('filters by ?types= and refuses a type the version does not have', async () => {
    const server = await serve();
    const s = await openStream(`${server.url}/v3/events?types=order.cancelled`);
    const id = await order(server);
    await order(server);
    expect((await server.call('POST', `/v3/orders/${id}:cancel`, { body: {} })).status).toBe(200);
    const [only] = await s.waitFor(1);
    expect(only!.event).toBe('order.cancelled');
    expect(only!.data.data['status']).toBe('cancelled');
    expect(s.events).toHaveLength(1);
    s.drop();
    const bad = await openStream(`${server.url}/v3/events?types=order.created,order.exploded`);
    expect(bad.status).toBe(400);
    expect(bad.problem).toMatchObject({ code: 'validation_failed', errors: [{ pointer: '#/types', parameter: 'types' }] });
    const unknown = await openStream(`${server.url}/v3/events?since=1`);
    expect(unknown.status).toBe(400);
  });

  it('resumes after ?after= and Last-Event-ID, which wins', async () => {
    const server = await serve();
    for (let i = 0; i < 4; i++) await order(server);
    const after = await openStream(`${server.url}/v2/events?after=1`);
    expect((await after.waitFor(3)).map((e) => e.id)).toEqual(['2', '3', '4']);
    after.drop();
    const header = await openStream(`${server.url}/v2/events?after=0`, { headers: { 'last-event-id': '3' } });
    expect((await header.waitFor(1)).map((e) => e.id)).toEqual(['4']);
    header.drop();
    const bad = await openStream(`${server.url}/v2/events`, { headers: { 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.problem).toMatchObject({ code: 'invalid_last_event_id' });
    const badAfter = await openStream(`${server.url}/v2/events?after=-1`);
    expect(badAfter.problem).toMatchObject({ code: 'validation_failed', errors: [{ pointer: '#/after' }] });
  });

  it('answers 410 stream_expired for an id the log no longer keeps, or never sent', async () => {
    const log = createMemoryEventLog({ events: 5 });
    const server = await serve({ log });
    await log.append(Array.from({ length: 10 }, (_, i) => logged(i)));
    const gone = await openStream(`${server.url}/v3/events?after=2`);
    expect(gone.status).toBe(410);
    expect(gone.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(gone.problem).toMatchObject({ status: 410, code: 'stream_expired' });
    expect(String(gone.problem?.['detail'])).toContain('at most the newest 5');
    expect((await openStream(`${server.url}/v3/events?after=11`)).status).toBe(410);
    // The oldest id still kept resumes: 6 to 10 are there.
    const kept = await openStream(`${server.url}/v3/events?after=5`);
    expect((await kept.waitFor(5)).map((e) => e.id)).toEqual(['6', '7', '8', '9', '10']);
    kept.drop();
  });

  it('lets a caller read only the events of collections it may read', async () => {
    const server = await serve();
    expect((await openStream(`${server.url}/v3/events`, { token: null })).status).toBe(401);
    const buyer = await openStream(`${server.url}/v3/events`, { token: 'buyer' });
    expect(buyer.status).toBe(403);
    expect(buyer.problem).toMatchObject({ code: 'insufficient_scope', scopes: ['orders:read'] });
    expect(buyer.headers.get('www-authenticate')).toContain('insufficient_scope');
    // Orders are public in v2: anyone reads their events there.
    const open = await openStream(`${server.url}/v2/events?types=order.created`, { token: null });
    expect(open.status).toBe(200);
    open.drop();
  });

  it('holds at most maxConnectionsPerPrincipal streams per principal', async () => {
    const server = await serve({ maxConnectionsPerPrincipal: 2 });
    const a = await openStream(`${server.url}/v3/events`, { token: 'ann' });
    const b = await openStream(`${server.url}/v3/events`, { token: 'ann' });
    const c = await openStream(`${server.url}/v3/events`, { token: 'ann' });
    expect(c.status).toBe(429);
    expect(c.problem).toMatchObject({ code: 'too_many_streams' });
    expect(c.headers.get('retry-after')).not.toBeNull();
    // Another principal has its own count; a closed stream frees its place.
    const other = await openStream(`${server.url}/v3/events`, { token: 'bob' });
    expect(other.status).toBe(200);
    a.drop();
    await a.ended;
    await expect.poll(async () => (await openStream(`${server.url}/v3/events`, { token: 'ann' })).status).toBe(200);
    for (const s of [b, other]) s.drop();
  });

  it('cuts off a reader slower than the buffer limit on a whole event, and it resumes from there losing nothing', async () => {
    const log = createMemoryEventLog({ events: 100_000 });
    const server = await serve({ log, bufferLimit: 16_384, pollInterval: 5 });
    // A reader that takes nothing while events pile up: the socket's buffers fill, then the stream's.
    const response = await new Promise<IncomingMessage>((resolve) =>
      get(`${server.url}/v3/events?after=0`, { headers: { authorization: 'Bearer admin' }, agent: false }, resolve),
    );
    response.pause();
    await log.append(Array.from({ length: 20_000 }, (_, i) => logged(i)));
    const text = await new Promise<string>((resolve) => {
      let all = '';
      response.on('data', (chunk: Buffer) => (all += chunk.toString()));
      response.on('end', () => resolve(all));
      setTimeout(() => response.resume(), 300);
    });
    expect(text).toContain(': the reader fell behind by more than the buffer limit; reconnect with Last-Event-ID to resume');
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1])).filter((id) => id > 0);
    const last = ids[ids.length - 1]!;
    expect(last).toBeLessThan(20_000);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
    // The text ends on a whole event, then the closing comment.
    expect(text.endsWith('resume\n\n')).toBe(true);
    const resumed = await openStream(`${server.url}/v3/events`, { headers: { 'last-event-id': String(last) } });
    const rest = await resumed.waitFor(20_000 - last);
    expect(rest[0]!.id).toBe(String(last + 1));
    expect(rest[rest.length - 1]!.id).toBe('20000');
    resumed.drop();
  });

  it('is off with stream: false (test/webhooks/no-subscriber.test.ts shows no event work is done then)', async () => {
    const server = await start((app) =>
      registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { authenticate, migrations: SHOP_MIGRATIONS, rateLimit: false, stream: false }),
    );
    servers.push(server);
    expect((await server.call('GET', '/v3/events')).status).toBe(404);
  });

  it('ends open streams when the server closes, so close() does not wait for readers', async () => {
    const server = await serve();
    servers.splice(servers.indexOf(server), 1);
    const s = await openStream(`${server.url}/v3/events`);
    await server.close();
    await s.ended;
    expect(s.comments.some((c) => c.includes('the server is shutting down'))).toBe(true);
  });
});

describe('heartbeats', () => {
  it('sends a comment every heartbeat interval, with the id moved past events the reader does not take', async () => {
    const server = await serve({ heartbeat: 15_000 });
    // Only intervals (the heartbeat's) are faked: sockets and the server's other timers stay real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const s = await openStream(`${server.url}/v3/events?types=order.cancelled`);
    try {
      await order(server);
      await vi.advanceTimersByTimeAsync(14_999);
      await new Promise((r) => setTimeout(r, 50));
      expect(s.comments).toEqual([]);
      expect(s.lastId).toBe('0');
      await vi.advanceTimersByTimeAsync(1);
      await expect.poll(() => s.comments.length).toBe(1);
      // order.created went by unsent: the heartbeat carries its id, so a reconnect does not read it again.
      await expect.poll(() => s.lastId).toBe('1');
      await vi.advanceTimersByTimeAsync(15_000);
      await expect.poll(() => s.comments.length).toBe(2);
      expect(s.events).toEqual([]);
    } finally {
      vi.useRealTimers();
      s.drop();
    }
  });
});

describe('resume under drops', () => {
  it('receives each of 10,000 events exactly once across 10 dropped connections', async () => {
    const log: EventLog = createMemoryEventLog({ events: 20_000 });
    const server = await serve({ log, pollInterval: 5 });
    const TOTAL = 10_000;
    // Ten distinct drop points, drawn at random (printed when the test fails).
    const points = new Set<number>();
    while (points.size < 10) points.add(1 + Math.floor(Math.random() * (TOTAL - 1)));
    const drops = [...points].sort((a, b) => a - b);
    const seen = new Map<string, number>();
    // The writer appends in batches while the reader reads, drops and resumes.
    const writing = (async () => {
      for (let n = 0; n < TOTAL; n += 250) {
        await log.append(Array.from({ length: 250 }, (_, i) => logged(n + i)));
        await new Promise((r) => setImmediate(r));
      }
    })();
    let lastId: string | undefined = '0';
    let connections = 0;
    while (seen.size < TOTAL) {
      connections++;
      expect(connections, `drop points ${drops.join(', ')}`).toBeLessThanOrEqual(drops.length + 1);
      const next = drops.find((d) => d > seen.size);
      const s = await openStream(`${server.url}/v3/events`, {
        headers: { 'last-event-id': lastId ?? '0' },
        onEvent: (event, stream) => {
          seen.set(event.id!, (seen.get(event.id!) ?? 0) + 1);
          if (next !== undefined && seen.size === next) stream.drop();
        },
      });
      expect(s.status).toBe(200);
      if (next === undefined) await s.waitFor(TOTAL - seen.size, 20_000);
      else await s.ended;
      s.drop();
      await s.ended;
      lastId = s.lastId;
    }
    await writing;
    expect(connections).toBe(11);
    expect(seen.size).toBe(TOTAL);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect([...seen.keys()].map(Number)).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
  }, 30_000);
});
