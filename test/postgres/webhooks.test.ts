/**
 * Webhooks of the shop on PostgreSQL, end to end over HTTP with a receiver on loopback: events written in the
 * handlers' transactions (outbox table) reach each endpoint in its version's shape; a write that answers a
 * problem (412, 409) sends nothing; a delete's event carries the resource as it was; and two instances
 * dispatching from one outbox deliver every message exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShopServer, type ShopServer } from '../../examples/shop-postgres/server.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { postgresUrl, requirePostgres } from './database.ts';
import { SCOPES, startShop, type RunningShop } from './shop.ts';

const serverUrl = postgresUrl();
const WEBHOOKS = { allowPrivateUrls: true, pollInterval: 20, retrySchedule: [50, 100], jitter: 0 };

describe.runIf(requirePostgres(serverUrl))('webhooks of the shop on PostgreSQL', () => {
  let shop: RunningShop;
  let second: ShopServer;
  let receiver: Receiver;
  let customer = '';
  beforeAll(async () => {
    receiver = await startReceiver();
    shop = await startShop(serverUrl!, { webhooks: WEBHOOKS });
    // A second instance on the same database: both dispatch from the one outbox.
    second = await startShopServer({ pool: shop.db.pool, authenticate: ({ token }) => ({ id: token, scopes: SCOPES }), rateLimit: false, webhooks: WEBHOOKS });
    const events = ['order.created', 'order.updated', 'order.deleted', 'order.cancelled'];
    expect((await shop.call('POST', '/v1/webhook_endpoints', { url: `${receiver.url}/v1`, events })).status).toBe(201);
    expect((await shop.call('POST', '/v3/webhook_endpoints', { url: `${receiver.url}/v3`, events })).status).toBe(201);
    customer = (await shop.call('POST', '/v3/customers', { email: 'hooks@example.com', name: 'Hooks' })).body['id'] as string;
  });
  afterAll(async () => {
    await second?.close();
    await shop?.stop();
    await receiver?.close();
  });

  const bodies = (path: string) => receiver.at(path).map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
  const outbox = async () => Number((await shop.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM restgen_webhook_outbox')).rows[0]!.n);
  /** The outbox once the dispatchers completed what they delivered (a row goes after its receiver answered). */
  const drained = async () => {
    for (let i = 0; i < 500 && (await outbox()) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    return outbox();
  };

  it("each endpoint gets each event in its version's shape; problems send nothing; a delete sends the resource as it was", async () => {
    const created = await shop.call('POST', '/v3/orders', { customer_id: customer, product_id: 5, quantity: 2 });
    const id = created.body['id'] as string;
    expect((await shop.call('PATCH', `/v3/orders/${id}`, { quantity: 3 }, { 'if-match': '"stale"' })).status).toBe(412);
    expect((await shop.call('POST', `/v3/orders/${id}:ship`, { carrier: 'DHL' })).status).toBe(409);
    expect((await shop.call('PATCH', `/v3/orders/${id}`, { quantity: 3 })).status).toBe(200);
    expect((await shop.call('POST', `/v3/orders/${id}:cancel`, {})).status).toBe(200);
    expect((await shop.call('DELETE', `/v3/orders/${id}`)).status).toBe(204);
    await receiver.waitFor('/v1', 4);
    await receiver.waitFor('/v3', 4);
    // Deliveries run in parallel (and here on two instances): webhooks promise no order, so compare sorted.
    const sorted = <T extends unknown[]>(rows: T[]) => rows.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(sorted(bodies('/v3').map((b) => [b.type, b.data['quantity'], b.data['status']]))).toEqual([
      ['order.cancelled', 3, 'cancelled'],
      ['order.created', 2, 'open'],
      ['order.deleted', 3, 'cancelled'],
      ['order.updated', 3, 'open'],
    ]);
    expect(sorted(bodies('/v1').map((b) => [b.type, b.data['qty']]))).toEqual([
      ['order.cancelled', 3],
      ['order.created', 2],
      ['order.deleted', 3],
      ['order.updated', 3],
    ]);
    expect(await drained()).toBe(0);
  });

  it('two instances dispatching from one outbox deliver every message exactly once', async () => {
    const before = receiver.at('/v3').length;
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${i % 2 === 0 ? shop.server.url : second.url}/v3/orders`, {
          method: 'POST',
          headers: { authorization: 'Bearer admin', 'content-type': 'application/json' },
          body: JSON.stringify({ customer_id: customer, product_id: 100 + i, quantity: 1 }),
        }).then((r) => r.json() as Promise<{ id: string }>),
      ),
    );
    const got = (await receiver.waitFor('/v3', before + 20)).slice(before);
    expect(await drained()).toBe(0);
    expect(receiver.at('/v3').length).toBe(before + 20);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(20);
    expect(new Set(got.map((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id))).toEqual(new Set(made.map((o) => o.id)));
  });
});
