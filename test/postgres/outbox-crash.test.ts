/**
 * Events written in the handler's transaction survive a crash on either side of the commit. A child process
 * runs the shop on PostgreSQL and SIGKILLs itself at the COMMIT of the first transaction that wrote an event:
 * killed before it, neither the order nor its event exists; killed right after it, both exist. A restarted
 * instance's dispatcher then delivers exactly what committed, exactly once, to a receiver on loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSchema } from '../../examples/shop-postgres/schema.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { startChild, type Child } from './child.ts';
import { createTestDatabase, postgresUrl, requirePostgres, type TestDatabase } from './database.ts';

const serverUrl = postgresUrl();

/** POSTs JSON with a bearer token; the parsed answer, or 'connection lost' when the server died first. */
async function post(base: string, path: string, body: unknown): Promise<Record<string, unknown> | 'connection lost'> {
  try {
    const response = await fetch(base + path, {
      method: 'POST',
      headers: { authorization: 'Bearer admin', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Record<string, unknown>;
  } catch {
    return 'connection lost';
  }
}

describe.runIf(requirePostgres(serverUrl))('kill -9 between the write and the commit (transactional outbox on PostgreSQL)', () => {
  let db: TestDatabase | undefined;
  let receiver: Receiver | undefined;
  const children: Child[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) await child.stop();
    await receiver?.close();
    await db?.drop();
  });

  /** A fresh database with the tables, a receiver, and a first instance (`env`) with an endpoint and a customer. */
  async function setUp(env: Record<string, string>) {
    db = await createTestDatabase(serverUrl!);
    await createSchema(db.pool);
    receiver = await startReceiver();
    const first = await startChild({ DATABASE_URL: db.url, ...env });
    children.push(first);
    // Neither writes to the outbox: the kill waits for the order.
    const endpoint = await post(first.url, '/v3/webhook_endpoints', { url: `${receiver.url}/hook`, events: ['order.created'] });
    expect(endpoint).toMatchObject({ status: 'enabled' });
    const customer = await post(first.url, '/v3/customers', { email: 'crash@example.com', name: 'Crash' });
    if (customer === 'connection lost') throw new Error(`the first instance died early:\n${first.output()}`);
    return { first, customer: customer['id'] as string };
  }

  const count = async (sql: string) => Number((await db!.pool.query<{ n: string }>(sql)).rows[0]!.n);
  /** Waits until the dispatcher has completed every delivery (the outbox table is empty). */
  async function outboxDrained(): Promise<void> {
    for (let i = 0; i < 500 && (await count('SELECT count(*) AS n FROM restgen_webhook_outbox')) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await count('SELECT count(*) AS n FROM restgen_webhook_outbox')).toBe(0);
  }
  const deliveredOrders = () => receiver!.at('/hook').map((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id);

  it('killed before the commit: no order and no event; a restarted dispatcher delivers nothing of it', async () => {
    const { first, customer } = await setUp({ KILL_AT: 'before-commit' });
    expect(await post(first.url, '/v3/orders', { customer_id: customer, product_id: 1, quantity: 1 })).toBe('connection lost');
    expect(await first.exited).toBe('SIGKILL');
    expect(await count('SELECT count(*) AS n FROM orders')).toBe(0);
    expect(await count('SELECT count(*) AS n FROM restgen_webhook_outbox')).toBe(0);

    const restarted = await startChild({ DATABASE_URL: db!.url, DISPATCH: '1' });
    children.push(restarted);
    // A later order's event arrives, and it is the only one: nothing was left of the killed one.
    const marker = await post(restarted.url, '/v3/orders', { customer_id: customer, product_id: 2, quantity: 1 });
    expect(marker).toMatchObject({ product_id: 2 });
    await receiver!.waitFor('/hook', 1);
    await outboxDrained();
    expect(deliveredOrders()).toEqual([(marker as Record<string, unknown>)['id']]);
  }, 180_000);

  it('killed right after the commit: the order and its event both exist; a restarted dispatcher delivers the event exactly once', async () => {
    const { first, customer } = await setUp({ KILL_AT: 'after-commit' });
    expect(await post(first.url, '/v3/orders', { customer_id: customer, product_id: 3, quantity: 1 })).toBe('connection lost');
    expect(await first.exited).toBe('SIGKILL');
    const orders = await db!.pool.query<{ id: string }>('SELECT id FROM orders');
    expect(orders.rows).toHaveLength(1);
    const committed = orders.rows[0]!.id;
    const waiting = await db!.pool.query<{ type: string; body: string }>('SELECT type, body FROM restgen_webhook_outbox');
    expect(waiting.rows.map((r) => [r.type, (JSON.parse(r.body) as { data: { id: string } }).data.id])).toEqual([['order.created', committed]]);
    expect(receiver!.received).toHaveLength(0);

    const restarted = await startChild({ DATABASE_URL: db!.url, DISPATCH: '1' });
    children.push(restarted);
    const [delivered] = await receiver!.waitFor('/hook', 1);
    expect(JSON.parse(delivered!.body)).toMatchObject({ type: 'order.created', data: { id: committed, product_id: 3, status: 'open' } });
    await outboxDrained();
    // A later order's event comes after it, and the committed one was not sent again.
    const marker = await post(restarted.url, '/v3/orders', { customer_id: customer, product_id: 4, quantity: 1 });
    await receiver!.waitFor('/hook', 2);
    await outboxDrained();
    expect(deliveredOrders()).toEqual([committed, (marker as Record<string, unknown>)['id']]);
    expect(new Set(receiver!.at('/hook').map((r) => r.headers['webhook-id'])).size).toBe(2);
  }, 180_000);
});
