/**
 * Attack: oversized webhook endpoint fields and secret rotation without end, against the generated shop
 * server over HTTP. Every text field has a documented length limit (url 2,048, description 500, disable
 * reason 500; at most 100 event types): beyond it the request answers 400 naming the field's pointer and
 * nothing is stored. `graceSeconds` must be a whole number from 0 to 604,800 (7 days). However often the
 * secret is rotated, an endpoint holds at most 3 secrets, so a delivery carries at most 3 signatures — and
 * the newest secret verifies it (checked with the `standardwebhooks` package).
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running } from '../server/helpers.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write'];

let server: Running;
let receiver: Receiver;

beforeAll(async () => {
  const mod = await importServer(await generateInto('attack-webhook-limits'));
  receiver = await startReceiver();
  server = await start((app) =>
    registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
      authenticate: () => ({ id: 'admin', scopes: SCOPES }),
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      webhooks: { allowPrivateUrls: true, pollInterval: 10, retrySchedule: [50], jitter: 0 },
    }),
  );
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

/** A loopback URL nobody listens on (the limit cases deliver nothing). */
const url = (path = '/hook') => `http://127.0.0.1:9${path}`;
const pointersOf = (body: Record<string, unknown>) => ((body['errors'] as { pointer: string }[] | undefined) ?? []).map((e) => e.pointer);

async function endpoint(target = url()): Promise<string> {
  const created = await server.call('POST', '/v3/webhook_endpoints', { body: { url: target, events: ['order.created'] } });
  expect(created.status).toBe(201);
  return created.body['id'] as string;
}

describe('webhook endpoint field limits', () => {
  const long = (n: number) => 'x'.repeat(n);
  const cases: [string, Record<string, unknown>, string][] = [
    ['url of 2,049 characters', { url: url(`/${long(2049 - url('/').length)}`), events: ['order.created'] }, '#/url'],
    ['url of 900,000 characters', { url: url(`/${long(900_000)}`), events: ['order.created'] }, '#/url'],
    ['empty url', { url: '', events: ['order.created'] }, '#/url'],
    ['description of 501 characters', { url: url(), events: ['order.created'], description: long(501) }, '#/description'],
    ['description of 900,000 characters', { url: url(), events: ['order.created'], description: long(900_000) }, '#/description'],
    ['101 event types', { url: url(), events: Array(101).fill('order.created') }, '#/events'],
    ['no event type', { url: url(), events: [] }, '#/events'],
  ];

  it.each(cases)('create with %s answers 400 at its pointer and stores nothing', async (_name, body, pointer) => {
    const before = (await server.call('GET', '/v3/webhook_endpoints?limit=100')).body.data!.length;
    const answer = await server.call('POST', '/v3/webhook_endpoints', { body });
    expect(answer.status).toBe(400);
    expect(pointersOf(answer.body)).toContain(pointer);
    expect((await server.call('GET', '/v3/webhook_endpoints?limit=100')).body.data).toHaveLength(before);
  });

  it('accepts fields exactly at their limits', async () => {
    const exact = url(`/${long(2048 - url('/').length)}`);
    expect(exact).toHaveLength(2048);
    const answer = await server.call('POST', '/v3/webhook_endpoints', {
      body: { url: exact, events: Array(100).fill('order.created'), description: long(500) },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const disabled = await server.call('POST', `/v3/webhook_endpoints/${answer.body['id'] as string}:disable`, { body: { reason: long(500) } });
    expect(disabled.status).toBe(200);
  });

  it('update and disable are held to the same limits', async () => {
    const id = await endpoint();
    const patched = await server.call('PATCH', `/v3/webhook_endpoints/${id}`, { body: { description: long(501) } });
    expect(patched.status).toBe(400);
    expect(pointersOf(patched.body)).toContain('#/description');
    const moved = await server.call('PATCH', `/v3/webhook_endpoints/${id}`, { body: { url: url(`/${long(3000)}`) } });
    expect(moved.status).toBe(400);
    expect(pointersOf(moved.body)).toContain('#/url');
    const disabled = await server.call('POST', `/v3/webhook_endpoints/${id}:disable`, { body: { reason: long(900_000) } });
    expect(disabled.status).toBe(400);
    expect(pointersOf(disabled.body)).toContain('#/reason');
    const shown = await server.call('GET', `/v3/webhook_endpoints/${id}`);
    expect(shown.body).toMatchObject({ status: 'enabled', disabledReason: null });
    expect(shown.body['description']).toBeUndefined();
  });
});

describe('secret rotation', () => {
  it.each([-5, -1, 604_801, 1e12, 1.5])('graceSeconds %d answers 400 at #/graceSeconds', async (graceSeconds) => {
    const id = await endpoint();
    const answer = await server.call('POST', `/v3/webhook_endpoints/${id}:rotateSecret`, { body: { graceSeconds } });
    expect(answer.status).toBe(400);
    expect(pointersOf(answer.body)).toContain('#/graceSeconds');
    expect(answer.body['secret']).toBeUndefined();
  });

  it('accepts 0 and 7 days', async () => {
    const id = await endpoint();
    for (const graceSeconds of [0, 604_800])
      expect((await server.call('POST', `/v3/webhook_endpoints/${id}:rotateSecret`, { body: { graceSeconds } })).status).toBe(200);
  });

  it('400 rotations leave 3 secrets: a delivery carries 3 signatures, and the newest secret verifies it', async () => {
    const id = await endpoint(receiver.url + '/rotated');
    let secret = '';
    for (let i = 0; i < 400; i++) {
      const rotated = await server.call('POST', `/v3/webhook_endpoints/${id}:rotateSecret`, { body: {} });
      expect(rotated.status).toBe(200);
      secret = rotated.body['secret'] as string;
    }
    const customer = (await server.call('POST', '/v3/customers', { body: { email: 'rotate@example.com', name: 'Rotate' } })).body['id'] as string;
    await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 1, quantity: 1 } });
    const [got] = await receiver.waitFor('/rotated', 1);
    const signatures = String(got!.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(3);
    expect(() => new Webhook(secret).verify(got!.body, got!.headers as Record<string, string>)).not.toThrow();
  });
});
