/**
 * The shop's event stream on PostgreSQL (`@restgen/postgres`'s event log), over real HTTP: a reader on one instance
 * gets, in its version's shape, the events handlers on another instance wrote in their transactions; a handler whose
 * transaction fails at COMMIT (a deferred constraint) sends nothing, and takes no id; a reader that drops its
 * connection resumes with Last-Event-ID and gets every later event once; and an id the log no longer keeps answers
 * 410 `stream_expired`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventLog } from '@restgen/postgres';
import { createDiskFileStore } from '@restgen/runtime';
import { startShopServer, type ShopServer, type ShopServerOptions } from '../../examples/shop-postgres/server.ts';
import { TEST_FILES } from '../server/helpers.ts';
import { openStream } from '../stream/sse.ts';
import { postgresUrl, requirePostgres } from './database.ts';
import { SCOPES, startShop, type RunningShop } from './shop.ts';

const serverUrl = postgresUrl();
/** Instances look at the shared log every 20 ms (250 by default) for the events the other wrote. */
const STREAM = { pollInterval: 20 };

describe.runIf(requirePostgres(serverUrl))('the event stream of the shop on PostgreSQL', () => {
  let shop: RunningShop;
  const others: ShopServer[] = [];
  let customer = '';
  /** Another instance on the shop's database. */
  const instance = async (extra: Partial<ShopServerOptions> = {}) => {
    const server = await startShopServer({
      pool: shop.db.pool,
      authenticate: ({ token }) => ({ id: token, scopes: SCOPES }),
      rateLimit: false,
      files: createDiskFileStore(TEST_FILES),
      stream: STREAM,
      ...extra,
    });
    others.push(server);
    return server;
  };
  beforeAll(async () => {
    shop = await startShop(serverUrl!, { stream: STREAM });
    customer = (await shop.call('POST', '/v3/customers', { email: 'stream@example.com', name: 'Stream' })).body['id'] as string;
    // An order of quantity 13 fails at COMMIT, after its handler wrote the event in the same transaction.
    await shop.db.pool.query(`
      CREATE FUNCTION refuse_thirteen() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.quantity = 13 THEN RAISE EXCEPTION 'thirteen refused at commit'; END IF; RETURN NEW; END $$;
      CREATE CONSTRAINT TRIGGER refuse_thirteen AFTER INSERT ON orders DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION refuse_thirteen();`);
  });
  afterAll(async () => {
    for (const server of others) await server.close();
    await shop?.stop();
  });
  const order = (quantity: number) => shop.call('POST', '/v3/orders', { customer_id: customer, product_id: 5, quantity });

  it("streams the events another instance's handlers committed, in each reader's version", async () => {
    const other = await instance();
    const v1 = await openStream(`${other.url}/v1/events?types=order.created`);
    const v3 = await openStream(`${other.url}/v3/events?types=order.created`);
    expect(v3.status).toBe(200);
    expect((await order(2)).status).toBe(201);
    const [a] = await v1.waitFor(1);
    const [b] = await v3.waitFor(1);
    expect(a!.id).toBe(b!.id);
    expect(a!.data).toMatchObject({ type: 'order.created', data: { qty: 2 } });
    expect(b!.data).toMatchObject({ type: 'order.created', data: { quantity: 2, status: 'open' } });
    v1.drop();
    v3.drop();
  });

  it('sends nothing for a handler whose transaction rolled back, and its event takes no id', async () => {
    const reader = await openStream(`${shop.server.url}/v3/events?types=order.created`);
    expect((await order(13)).status).toBe(500);
    expect((await order(3)).status).toBe(201);
    const [only] = await reader.waitFor(1);
    expect(only!.data.data['quantity']).toBe(3);
    // The last id before it is the first stream's event: the refused order took none.
    expect(Number(only!.id)).toBe(Number((await shop.db.pool.query<{ head: string }>('SELECT head FROM restgen_event_log_head')).rows[0]!.head));
    const all = (await shop.db.pool.query<{ data: string }>('SELECT data FROM restgen_event_log ORDER BY seq')).rows.map(
      (r) => JSON.parse(r.data) as { quantity?: number },
    );
    expect(all.filter((d) => d.quantity === 13)).toEqual([]);
    reader.drop();
  });

  it('resumes after Last-Event-ID with every later event once, wherever it was written', async () => {
    const other = await instance();
    const reader = await openStream(`${other.url}/v3/events?types=order.created`);
    for (const quantity of [4, 5]) expect((await order(quantity)).status).toBe(201);
    await reader.waitFor(2);
    const last = reader.lastId!;
    reader.drop();
    // Written while the reader is away, on both instances.
    expect((await order(6)).status).toBe(201);
    const created = await fetch(`${other.url}/v3/orders`, {
      method: 'POST',
      headers: { authorization: 'Bearer admin', 'content-type': 'application/json' },
      body: JSON.stringify({ customer_id: customer, product_id: 5, quantity: 7 }),
    });
    expect(created.status).toBe(201);
    const resumed = await openStream(`${shop.server.url}/v3/events?types=order.created`, { headers: { 'last-event-id': last } });
    const events = await resumed.waitFor(2);
    expect(events.map((e) => e.data.data['quantity'])).toEqual([6, 7]);
    expect(events.every((e) => Number(e.id) > Number(last))).toBe(true);
    expect((await order(8)).status).toBe(201);
    expect((await resumed.waitFor(3)).map((e) => e.data.data['quantity'])).toEqual([6, 7, 8]);
    resumed.drop();
  });

  it('answers 410 stream_expired for an id past the retention', async () => {
    // An instance whose log keeps two events: its appends prune the shared table (this test runs last).
    const keepsTwo = await instance({ stream: { ...STREAM, log: createPostgresEventLog(shop.db.pool, { retention: { events: 2 } }) } });
    const before = Number((await shop.db.pool.query<{ head: string }>('SELECT head FROM restgen_event_log_head')).rows[0]!.head);
    for (const quantity of [9, 10, 11]) {
      const created = await fetch(`${keepsTwo.url}/v3/orders`, {
        method: 'POST',
        headers: { authorization: 'Bearer admin', 'content-type': 'application/json' },
        body: JSON.stringify({ customer_id: customer, product_id: 5, quantity }),
      });
      expect(created.status).toBe(201);
    }
    // The handlers' events are numbered (and the table pruned) when a reader comes.
    const head = before + 3;
    const kept = await openStream(`${keepsTwo.url}/v3/events?after=${head - 2}`);
    expect((await kept.waitFor(2)).map((e) => e.data.data['quantity'])).toEqual([10, 11]);
    kept.drop();
    const gone = await openStream(`${keepsTwo.url}/v3/events?after=${head - 3}`);
    expect(gone.status).toBe(410);
    expect(gone.headers.get('content-type')).toContain('application/problem+json');
    expect(gone.problem).toMatchObject({ status: 410, code: 'stream_expired' });
  });
});
