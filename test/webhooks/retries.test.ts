/**
 * Delivery failures over real HTTP on loopback: retries after 500s and timeouts follow the schedule
 * (with the same webhook-id), `Retry-After` on 429 is honoured, another 4xx is not retried, and an
 * endpoint whose messages keep failing every attempt is disabled, visibly through the API. The generated
 * server writes its events to an outbox the test gives it (`dispatch: false`); a dispatcher over the same
 * stores delivers what is due when the test runs it, on the test's clock (the server's too), so each wait of
 * the schedule is exact and nothing waits for it to pass.
 */
import { createServer, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher, type WebhookDispatcher } from '../../packages/runtime/src/webhook-dispatch.ts';
import { createMemoryEndpoints, createMemoryOutbox, type EndpointStore, type Outbox } from '../../packages/runtime/src/webhook-store.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running, type ServerModule } from '../server/helpers.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write'];
const authenticate = () => ({ id: 'admin', scopes: SCOPES });
const SCHEDULE = [200, 400];

let mod: ServerModule;
let receiver: Receiver;
beforeAll(async () => {
  mod = await importServer(await generateInto('webhook-retries'));
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());

/** The server and the dispatcher of one test, on one clock the test moves. */
interface Harness {
  readonly server: Running;
  readonly dispatcher: WebhookDispatcher;
  /** Sets the clock to `at` ms after the test's start and delivers what is due then: how many deliveries ran. */
  deliverAt(at: number): Promise<number>;
  subscribe(path: string): Promise<string>;
  order(): Promise<void>;
}
const running: Running[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

async function harness(webhooks: object = {}): Promise<Harness> {
  // On a whole second, so a webhook-timestamp (seconds) tells how far the clock moved.
  const start0 = Math.ceil(Date.now() / 1000) * 1000;
  let now = start0;
  const outbox: Outbox = createMemoryOutbox();
  const endpoints: EndpointStore = createMemoryEndpoints();
  const server = await start((app) =>
    registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
      authenticate,
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      now: () => new Date(now),
      webhooks: { allowPrivateUrls: true, ...webhooks, dispatch: false, outbox, endpoints },
    }),
  );
  running.push(server);
  const dispatcher = createDispatcher({
    outbox,
    endpoints,
    allowPrivateUrls: true,
    retrySchedule: SCHEDULE,
    jitter: 0,
    attemptTimeout: 300,
    disableAfter: 2,
    ...webhooks,
    now: () => now,
  });
  const customer = (await server.call('POST', '/v3/customers', { body: { email: 'retry@example.com', name: 'Retry' } })).body['id'] as string;
  return {
    server,
    dispatcher,
    deliverAt: (at) => ((now = start0 + at), dispatcher.runOnce()),
    async subscribe(path) {
      const created = await server.call('POST', '/v3/webhook_endpoints', { body: { url: receiver.url + path, events: ['order.created'] } });
      expect(created.status).toBe(201);
      return created.body['id'] as string;
    },
    async order() {
      expect((await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 1, quantity: 1 } })).status).toBe(201);
    },
  };
}

describe('retries', () => {
  it('retries 500s on the schedule with the same webhook-id, until a 2xx', async () => {
    const { deliverAt, subscribe, order } = await harness();
    await subscribe('/flaky');
    receiver.answer('/flaky', (n) => (n < 2 ? { status: 500 } : { status: 200 }));
    await order();
    expect(await deliverAt(0)).toBe(1);
    // Not due a moment before the schedule's first wait has passed; due when it has.
    expect(await deliverAt(199)).toBe(0);
    expect(await deliverAt(200)).toBe(1);
    expect(await deliverAt(200 + 399)).toBe(0);
    expect(await deliverAt(200 + 400)).toBe(1);
    // Delivered: nothing is left, however long one waits.
    expect(await deliverAt(86_400_000)).toBe(0);
    const got = receiver.at('/flaky');
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
  });

  it('retries an attempt that times out', async () => {
    const { deliverAt, subscribe, order } = await harness();
    await subscribe('/slow');
    receiver.answer('/slow', (n) => (n === 0 ? 'hang' : { status: 204 }));
    await order();
    // The first attempt waits for the receiver until attemptTimeout (300 ms) runs out, then the first wait of the schedule.
    expect(await deliverAt(0)).toBe(1);
    expect(await deliverAt(199)).toBe(0);
    expect(await deliverAt(200)).toBe(1);
    const got = receiver.at('/slow');
    expect(got).toHaveLength(2);
    expect(got[0]!.headers['webhook-id']).toBe(got[1]!.headers['webhook-id']);
  });

  it('honours Retry-After on 429', async () => {
    const { deliverAt, subscribe, order } = await harness();
    await subscribe('/busy');
    receiver.answer('/busy', (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 204 }));
    await order();
    expect(await deliverAt(0)).toBe(1);
    // Not the schedule's 200 ms: the second the receiver asked for.
    expect(await deliverAt(999)).toBe(0);
    expect(await deliverAt(1000)).toBe(1);
    const got = receiver.at('/busy');
    expect(got).toHaveLength(2);
    // Each attempt is signed again at its own time (a second later).
    expect(got.map((r) => Number(r.headers['webhook-timestamp']) - Number(got[0]!.headers['webhook-timestamp']))).toEqual([0, 1]);
  });

  it("a Retry-After shorter than the schedule's next wait does not shorten it: 429 Retry-After: 0 cannot spend the attempts", async () => {
    const { deliverAt, subscribe, order } = await harness({ retrySchedule: [5_000, 10_000] });
    await subscribe('/eager');
    receiver.answer('/eager', (n) => (n < 2 ? { status: 429, headers: { 'retry-after': '0' } } : { status: 204 }));
    await order();
    expect(await deliverAt(0)).toBe(1);
    // Not after the 1 s a Retry-After gets at least: after the schedule's 5 s.
    expect(await deliverAt(1_000)).toBe(0);
    expect(await deliverAt(4_999)).toBe(0);
    expect(await deliverAt(5_000)).toBe(1);
    expect(await deliverAt(5_000 + 9_999)).toBe(0);
    expect(await deliverAt(5_000 + 10_000)).toBe(1);
    expect(receiver.at('/eager')).toHaveLength(3);
  });

  it("429s do not count towards disabling: messages given up on a busy receiver leave it enabled, 5xx ones don't", async () => {
    const { server, deliverAt, subscribe, order } = await harness();
    const id = await subscribe('/throttled');
    receiver.answer('/throttled', () => ({ status: 429 }));
    // Two messages, each answered 429 on all three attempts (disableAfter: 2).
    let at = 0;
    for (const _ of [1, 2]) {
      await order();
      for (const wait of [0, ...SCHEDULE]) expect(await deliverAt((at += wait))).toBe(1);
    }
    expect(receiver.at('/throttled')).toHaveLength(6);
    expect((await server.call('GET', `/v3/webhook_endpoints/${id}`)).body).toMatchObject({ status: 'enabled', disabledReason: null });
    // The same two messages failing with 503 disable it.
    receiver.answer('/throttled', () => ({ status: 503 }));
    for (const _ of [1, 2]) {
      await order();
      for (const wait of [0, ...SCHEDULE]) expect(await deliverAt((at += wait))).toBe(1);
    }
    expect((await server.call('GET', `/v3/webhook_endpoints/${id}`)).body).toMatchObject({ status: 'disabled' });
  });

  it('does not retry another 4xx', async () => {
    const { deliverAt, subscribe, order } = await harness();
    await subscribe('/gone');
    receiver.answer('/gone', () => ({ status: 404 }));
    await order();
    expect(await deliverAt(0)).toBe(1);
    expect(await deliverAt(86_400_000)).toBe(0);
    expect(receiver.at('/gone')).toHaveLength(1);
  });

  it('disables an endpoint whose messages keep failing every attempt, visibly through the API', async () => {
    const { server, deliverAt, subscribe, order } = await harness();
    const id = await subscribe('/dead');
    receiver.answer('/dead', () => ({ status: 503 }));
    // Two messages, each failing its three attempts (disableAfter: 2).
    let at = 0;
    for (const _ of [1, 2]) {
      await order();
      for (const wait of [0, ...SCHEDULE]) expect(await deliverAt((at += wait))).toBe(1);
    }
    expect(receiver.at('/dead')).toHaveLength(6);
    const shown = await server.call('GET', `/v3/webhook_endpoints/${id}`);
    expect(shown.body).toMatchObject({ status: 'disabled' });
    expect(String(shown.body['disabledReason'])).toContain('2 messages in a row failed every attempt');
    // A disabled endpoint gets nothing; enabled again, it gets the next event.
    await order();
    expect(await deliverAt((at += 86_400_000))).toBe(0);
    expect(receiver.at('/dead')).toHaveLength(6);
    receiver.answer('/dead', () => ({ status: 204 }));
    expect((await server.call('POST', `/v3/webhook_endpoints/${id}:enable`, { body: {} })).body).toMatchObject({ status: 'enabled', disabledReason: null });
    await order();
    expect(await deliverAt(at)).toBe(1);
    expect(receiver.at('/dead')).toHaveLength(7);
  });
});

describe('URL rules', () => {
  it('refuses http and private addresses unless allowPrivateUrls, naming the rule', async () => {
    const strict = await start((app) =>
      registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { authenticate, migrations: SHOP_MIGRATIONS, webhooks: { dispatch: false } }),
    );
    running.push(strict);
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
    try {
      const { server, deliverAt, order } = await harness({ allowPrivateUrls: false, retrySchedule: [50], resolve });
      const saved = await server.call('POST', '/v3/webhook_endpoints', { body: { url: `https://localhost:${port}/hook`, events: ['order.created'] } });
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
      await order();
      // Both attempts (the first and its retry) look the name up to connect; nothing may connect to loopback.
      expect(await deliverAt(0)).toBe(1);
      expect(await deliverAt(50)).toBe(1);
      expect(asked).toEqual(['localhost', 'localhost', 'localhost']);
      expect(sockets).toHaveLength(0);
    } finally {
      await new Promise((r) => internal.close(r));
    }
  });
});
