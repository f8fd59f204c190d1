/**
 * Delivery failures over real HTTP on loopback: retries after 500s and timeouts follow the schedule
 * (with the same webhook-id), `Retry-After` on 429 is honoured, another 4xx is not retried, and an
 * endpoint whose messages keep failing every attempt is disabled, visibly through the API.
 */
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running, type ServerModule } from '../server/helpers.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write'];
const authenticate = () => ({ id: 'admin', scopes: SCOPES });
const SCHEDULE = [200, 400];

let mod: ServerModule;
let server: Running;
let receiver: Receiver;
let customer = '';

beforeAll(async () => {
  mod = await importServer(await generateInto('webhook-retries'));
  receiver = await startReceiver();
  server = await start((app) =>
    registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
      authenticate,
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      webhooks: { allowPrivateUrls: true, pollInterval: 10, retrySchedule: SCHEDULE, jitter: 0, attemptTimeout: 300, disableAfter: 2 },
    }),
  );
  customer = (await server.call('POST', '/v3/customers', { body: { email: 'retry@example.com', name: 'Retry' } })).body['id'] as string;
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

async function subscribe(path: string): Promise<string> {
  const created = await server.call('POST', '/v3/webhook_endpoints', { body: { url: receiver.url + path, events: ['order.created'] } });
  expect(created.status).toBe(201);
  return created.body['id'] as string;
}
const order = () => server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 1, quantity: 1 } });
const gaps = (xs: { at: number }[]) => xs.slice(1).map((x, i) => x.at - xs[i]!.at);

describe('retries', () => {
  it('retries 500s on the schedule with the same webhook-id, until a 2xx', async () => {
    await subscribe('/flaky');
    receiver.answer('/flaky', (n) => (n < 2 ? { status: 500 } : { status: 200 }));
    await order();
    const got = await receiver.waitFor('/flaky', 3);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const [first, second] = gaps(got);
    expect(first).toBeGreaterThanOrEqual(SCHEDULE[0]!);
    expect(first).toBeLessThan(SCHEDULE[0]! + 300);
    expect(second).toBeGreaterThanOrEqual(SCHEDULE[1]!);
    expect(second).toBeLessThan(SCHEDULE[1]! + 300);
    // Each attempt is signed again at its own time.
    expect(got[2]!.headers['webhook-timestamp']).toMatch(/^\d+$/);
    await new Promise((r) => setTimeout(r, 600));
    expect(receiver.at('/flaky')).toHaveLength(3);
  });

  it('retries an attempt that times out', async () => {
    await subscribe('/slow');
    receiver.answer('/slow', (n) => (n === 0 ? 'hang' : { status: 204 }));
    await order();
    const got = await receiver.waitFor('/slow', 2);
    // The timeout (300 ms) runs out, then the first wait of the schedule.
    expect(gaps(got)[0]).toBeGreaterThanOrEqual(300 + SCHEDULE[0]! - 25);
    expect(got[0]!.headers['webhook-id']).toBe(got[1]!.headers['webhook-id']);
  });

  it('honours Retry-After on 429', async () => {
    await subscribe('/busy');
    receiver.answer('/busy', (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 204 }));
    await order();
    const got = await receiver.waitFor('/busy', 2);
    expect(gaps(got)[0]).toBeGreaterThanOrEqual(1000);
  });

  it('does not retry another 4xx', async () => {
    await subscribe('/gone');
    receiver.answer('/gone', () => ({ status: 404 }));
    await order();
    await receiver.waitFor('/gone', 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at('/gone')).toHaveLength(1);
  });

  it('disables an endpoint whose messages keep failing every attempt, visibly through the API', async () => {
    const id = await subscribe('/dead');
    receiver.answer('/dead', () => ({ status: 503 }));
    await order();
    await receiver.waitFor('/dead', 3);
    await order();
    await receiver.waitFor('/dead', 6);
    let shown = await server.call('GET', `/v3/webhook_endpoints/${id}`);
    for (let i = 0; i < 50 && shown.body['status'] !== 'disabled'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      shown = await server.call('GET', `/v3/webhook_endpoints/${id}`);
    }
    expect(shown.body).toMatchObject({ status: 'disabled' });
    expect(String(shown.body['disabledReason'])).toContain('2 messages in a row failed every attempt');
    // A disabled endpoint gets nothing; enabled again, it gets the next event.
    await order();
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.at('/dead')).toHaveLength(6);
    receiver.answer('/dead', () => ({ status: 204 }));
    expect((await server.call('POST', `/v3/webhook_endpoints/${id}:enable`, { body: {} })).body).toMatchObject({ status: 'enabled', disabledReason: null });
    await order();
    await receiver.waitFor('/dead', 7);
  });
});

describe('URL rules', () => {
  it('refuses http and private addresses unless allowPrivateUrls, naming the rule', async () => {
    const strict = await start((app) => registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { authenticate, migrations: SHOP_MIGRATIONS, webhooks: { dispatch: false } }));
    try {
      const cases: [string, string][] = [
        ['http://hooks.example.com/x', 'must use https'],
        ['https://127.0.0.1/x', 'not a public address'],
        ['https://10.1.2.3/x', 'not a public address'],
        ['https://100.64.0.1/x', 'not a public address'],
        ['https://169.254.169.254/latest', 'not a public address'],
        ['https://[::1]/x', 'not a public address'],
        ['https://[fd00::1]/x', 'not a public address'],
        ['https://localhost/x', 'not a public address'],
      ];
      for (const [url, rule] of cases) {
        const answer = await strict.call('POST', '/v3/webhook_endpoints', { body: { url, events: ['order.created'] } });
        expect(answer.status, url).toBe(400);
        expect(String(answer.body['detail']), url).toContain(rule);
      }
    } finally {
      await strict.close();
    }
  });

  it('connects only to an address it checked: a name that resolves to a public address when checked and to loopback when connected (DNS rebinding) is never connected to', async () => {
    // A TCP listener on loopback stands for an internal service; it counts every connection made to it.
    const sockets: Socket[] = [];
    const internal = createServer((socket) => (sockets.push(socket), socket.destroy()));
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    const port = (internal.address() as { port: number }).port;
    // The attacker's name server: a public address for the check when the endpoint is saved, loopback from then
    // on. The system resolver, which a connection that looked the name up on its own would use, answers
    // loopback for `localhost` too.
    const asked: string[] = [];
    const resolve = async (host: string) => (asked.push(host), asked.length <= 1 ? ['93.184.216.34'] : ['127.0.0.1']);
    const guarded = await start((app) =>
      registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
        authenticate,
        migrations: SHOP_MIGRATIONS,
        rateLimit: false,
        webhooks: { pollInterval: 10, retrySchedule: [50], jitter: 0, attemptTimeout: 300, resolve },
      }),
    );
    try {
      const owner = (await guarded.call('POST', '/v3/customers', { body: { email: 'rebind@example.com', name: 'Rebind' } })).body['id'] as string;
      const saved = await guarded.call('POST', '/v3/webhook_endpoints', { body: { url: `https://localhost:${port}/hook`, events: ['order.created'] } });
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
      await guarded.call('POST', '/v3/orders', { body: { customer_id: owner, product_id: 1, quantity: 1 } });
      // Both attempts (the first and its retry) look the name up to connect; nothing may connect to loopback.
      const deadline = Date.now() + 5000;
      while (asked.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(asked.length).toBeGreaterThanOrEqual(3);
      await new Promise((r) => setTimeout(r, 300));
      expect(sockets).toHaveLength(0);
    } finally {
      await guarded.close();
      await new Promise((r) => internal.close(r));
    }
  });
});
