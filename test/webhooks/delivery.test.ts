/**
 * End to end over HTTP with real receivers on loopback: endpoints pinned to v1 and v2 receive the same
 * order in their own shapes, signed per Standard Webhooks (checked with the `standardwebhooks` package, an
 * implementation nobody here wrote); the signing secret is answered once; URLs are checked (400 naming the
 * rule); transition events; secret rotation signs with both secrets during the grace period.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running, type ServerModule } from '../server/helpers.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'orders:cancel', 'webhooks:read', 'webhooks:write'];
const authenticate = ({ token }: { token: string }) =>
  token === 'admin' ? { id: 'admin', scopes: SCOPES } : token === 'clerk' ? { id: 'clerk', scopes: SCOPES.filter((s) => !s.startsWith('webhooks')) } : null;

let mod: ServerModule;
let server: Running;
let receiver: Receiver;
let customer = '';

beforeAll(async () => {
  mod = await importServer(await generateInto('webhooks'));
  receiver = await startReceiver();
  server = await start((app) =>
    registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
      authenticate,
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      webhooks: { allowPrivateUrls: true, pollInterval: 20, retrySchedule: [50, 100], jitter: 0 },
    }),
  );
  customer = (await server.call('POST', '/v3/customers', { body: { email: 'hook@example.com', name: 'Hook' } })).body['id'] as string;
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

async function subscribe(version: string, path: string, events: string[]): Promise<{ id: string; secret: string }> {
  const created = await server.call('POST', `/${version}/webhook_endpoints`, { body: { url: receiver.url + path, events } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body['id'] as string, secret: created.body['secret'] as string };
}

describe('webhook endpoints', () => {
  it('answers the secret once, pinned to the version it was created through', async () => {
    const { id, secret } = await subscribe('v1', '/once', ['order.created']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const got = await server.call('GET', `/v2/webhook_endpoints/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id, version: 'v1', status: 'enabled', disabledReason: null, events: ['order.created'] });
    expect(got.body).not.toHaveProperty('secret');
    const listed = await server.call('GET', '/v1/webhook_endpoints');
    expect(listed.body.data!.some((e) => e['id'] === id && !('secret' in e))).toBe(true);
    expect((await server.call('DELETE', `/v1/webhook_endpoints/${id}`)).status).toBe(204);
  });

  it('needs the webhooks scopes', async () => {
    const denied = await server.call('GET', '/v1/webhook_endpoints', { token: 'clerk' });
    expect(denied.status).toBe(403);
  });

  it('refuses unknown event types of the version with 400', async () => {
    const bad = await server.call('POST', '/v1/webhook_endpoints', { body: { url: receiver.url + '/x', events: ['order.created', 'order.shipped'] } });
    expect(bad.status).toBe(400);
    // The version's event types are an enum of its schemas (and of its document).
    expect(bad.body.errors?.map((e) => e.pointer)).toEqual(['#/events/1']);
    expect(bad.body.errors?.[0]?.detail).toContain('order.created');
  });

  it('reports every problem of an endpoint at once: a refused URL and unknown event types', async () => {
    const bad = await server.call('POST', '/v1/webhook_endpoints', {
      body: { url: 'ftp://user:secret@hooks.example.com/x', events: ['order.created', 'order.shipped'] },
    });
    expect(bad.status).toBe(400);
    // The address policy (no schema can state it) and the schema's enum of the version's event types, together.
    expect(bad.body.errors!.map((e) => e.pointer)).toEqual(['#/url', '#/events/1']);
    expect(bad.body.errors![0]!.detail).toMatch(/http|https|scheme|user/i);
    expect(bad.body.errors![1]!.detail).toContain('order.created');
  });
});

describe('delivery', () => {
  it('sends the same order to a v1 and a v2 endpoint, each in its own shape, signed per Standard Webhooks', async () => {
    const v1 = await subscribe('v1', '/v1-hook', ['order.created', 'order.updated']);
    const v2 = await subscribe('v2', '/v2-hook', ['order.created']);
    const order = await server.call('POST', '/v2/orders', { body: { customer_id: customer, product_id: 7, quantity: 3 } });
    expect(order.status).toBe(201);
    const [atV1] = await receiver.waitFor('/v1-hook', 1);
    const [atV2] = await receiver.waitFor('/v2-hook', 1);
    const e1 = JSON.parse(atV1!.body) as { type: string; timestamp: string; data: Record<string, unknown> };
    const e2 = JSON.parse(atV2!.body) as { type: string; data: Record<string, unknown> };
    expect(e1.type).toBe('order.created');
    expect(e1.data).toMatchObject({ id: order.body['id'], qty: 3, status: 'open' });
    expect(e1.data).not.toHaveProperty('quantity');
    expect(e1.data).not.toHaveProperty('currency');
    expect(e2.data).toMatchObject({ id: order.body['id'], quantity: 3, currency: 'EUR' });
    expect(e2.data).not.toHaveProperty('qty');
    // An implementation nobody here wrote accepts both signatures; a wrong secret is refused.
    expect(new Webhook(v1.secret).verify(atV1!.body, atV1!.headers as Record<string, string>)).toEqual(e1);
    expect(new Webhook(v2.secret).verify(atV2!.body, atV2!.headers as Record<string, string>)).toEqual(e2);
    expect(() => new Webhook(v2.secret).verify(atV1!.body, atV1!.headers as Record<string, string>)).toThrow();
    expect(atV1!.headers['webhook-id']).toMatch(/^msg_/);
    expect(atV1!.headers['webhook-id']).not.toBe(atV2!.headers['webhook-id']);
    // An update reaches only the endpoint subscribed to it.
    await server.call('PATCH', `/v2/orders/${order.body['id'] as string}`, { body: { quantity: 4 } });
    const [, updated] = await receiver.waitFor('/v1-hook', 2);
    expect(JSON.parse(updated!.body)).toMatchObject({ type: 'order.updated', data: { qty: 4 } });
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.at('/v2-hook')).toHaveLength(1);
  });

  it('sends a transition event and a deleted event with the resource as it was', async () => {
    await subscribe('v3', '/life', ['order.cancelled', 'order.deleted']);
    const order = await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 1, quantity: 1 } });
    const id = order.body['id'] as string;
    await server.call('POST', `/v3/orders/${id}:pay`, { body: {} });
    expect((await server.call('POST', `/v3/orders/${id}:cancel`, { body: { reason: 'changed my mind' } })).status).toBe(200);
    const [cancelled] = await receiver.waitFor('/life', 1);
    expect(JSON.parse(cancelled!.body)).toMatchObject({ type: 'order.cancelled', data: { id, status: 'cancelled' } });
    expect((await server.call('DELETE', `/v3/orders/${id}`)).status).toBe(204);
    const [, deleted] = await receiver.waitFor('/life', 2);
    expect(JSON.parse(deleted!.body)).toMatchObject({ type: 'order.deleted', data: { id, status: 'cancelled', quantity: 1 } });
  });

  it('rotates the secret: both secrets sign during the grace period', async () => {
    const { id, secret: old } = await subscribe('v3', '/rotate', ['order.created']);
    const rotated = await server.call('POST', `/v3/webhook_endpoints/${id}:rotateSecret`, { body: { graceSeconds: 60 } });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body['secret'] as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 2, quantity: 1 } });
    const [got] = await receiver.waitFor('/rotate', 1);
    expect(String(got!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [old, fresh]) expect(() => new Webhook(secret).verify(got!.body, got!.headers as Record<string, string>)).not.toThrow();
    // Without a grace period the secret rotated out stops signing at once (the first one is still in its 60 s).
    const again = await server.call('POST', `/v3/webhook_endpoints/${id}:rotateSecret`, { body: { graceSeconds: 0 } });
    await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 3, quantity: 1 } });
    const [, second] = await receiver.waitFor('/rotate', 2);
    expect(String(second!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => new Webhook(old).verify(second!.body, second!.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(again.body['secret'] as string).verify(second!.body, second!.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(fresh).verify(second!.body, second!.headers as Record<string, string>)).toThrow();
  });
});
