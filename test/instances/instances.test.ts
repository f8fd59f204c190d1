/**
 * Four instances of the shop on PostgreSQL (child processes) behind a round-robin proxy, sharing one database
 * (`@restgen/postgres`: outbox, endpoints, idempotency records) and one Redis Cluster (rate-limit counters):
 * - the API's global limit of 100 requests per minute holds across them (count-based: exactly 100 of 200 pass);
 * - concurrent creates with one Idempotency-Key, spread over the instances, create exactly one order;
 * - an instance killed (SIGKILL) between the handler's commit and its answer leaves a committed answer: the retry,
 *   through the proxy to another instance, replays it, and no order exists twice; killed before the commit, it
 *   leaves nothing, and the retry creates the order once;
 * - every webhook event is delivered at least once while an instance is killed and started again, duplicates only
 *   of deliveries it held when it died.
 * CI runs bounded counts; `INSTANCES_SCALE=full` runs the counts the issue names (1,000 concurrent requests, 100
 * kills): `INSTANCES_SCALE=full npx vitest run test/instances`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresUrl, requirePostgres, type TestDatabase } from '../postgres/database.ts';
import { createSchema } from '../../examples/shop-postgres/schema.ts';
import { redisTargets, testPrefix } from '../helpers/redis-targets.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { call, callUntilAnswered, startInstances, type Instances } from './harness.ts';

const FULL = process.env['INSTANCES_SCALE'] === 'full';
const INSTANCES = 4;
const CONCURRENT = FULL ? 1_000 : 200;
const KILLS = FULL ? 100 : 2;

const serverUrl = postgresUrl();
const cluster = redisTargets().find((t) => t.name === 'cluster');

describe.runIf(requirePostgres(serverUrl) && cluster !== undefined)(`${INSTANCES} instances behind a round-robin proxy`, () => {
  let db: TestDatabase;
  let instances: Instances;
  let receiver: Receiver;
  let customer = '';
  const prefix = testPrefix('instances');
  const count = async (sql: string, params: unknown[] = []) => Number((await db.pool.query<{ n: string }>(sql, params)).rows[0]!.n);

  beforeAll(async () => {
    db = await createTestDatabase(serverUrl!);
    await createSchema(db.pool);
    receiver = await startReceiver();
    instances = await startInstances(INSTANCES, { DATABASE_URL: db.url, REDIS_NODES: cluster!.address, REDIS_PREFIX: prefix, DISPATCH: '1', RATE_LIMIT: '0' });
    expect(
      (await callUntilAnswered(instances.proxy.url, 'POST', '/v3/webhook_endpoints', { url: `${receiver.url}/hooks`, events: ['order.created'] })).status,
    ).toBe(201);
    customer = (await callUntilAnswered(instances.proxy.url, 'POST', '/v3/customers', { email: 'many@example.com', name: 'Many' })).body['id'] as string;
  }, 120_000);
  afterAll(async () => {
    await instances?.stop();
    await receiver?.close();
    await db?.drop();
  });

  it(`${CONCURRENT} concurrent creates with one Idempotency-Key, spread over the instances, create exactly one order`, async () => {
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, () =>
        callUntilAnswered(
          instances.proxy.url,
          'POST',
          '/v3/orders',
          { customer_id: customer, product_id: 77, quantity: 1 },
          { 'idempotency-key': 'one-order' },
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(CONCURRENT).fill(201));
    expect(new Set(answers.map((a) => a.body['id'])).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(CONCURRENT - 1);
    expect(await count('SELECT count(*) AS n FROM orders WHERE product_id = 77')).toBe(1);
  }, 120_000);

  it('every webhook event is delivered at least once while an instance is killed and started again', async () => {
    await Promise.all(
      Array.from({ length: 30 }, async (_, n) => {
        // Instance 1 dies among the creates (with the deliveries it holds) and comes back.
        if (n === 10) {
          await instances.kill(1);
          await instances.restart(1);
        }
        await callUntilAnswered(instances.proxy.url, 'POST', '/v3/orders', { customer_id: customer, product_id: 2_000 + n, quantity: 1 });
      }),
    );
    const all = (await db.pool.query<{ id: string }>('SELECT id FROM orders')).rows.map((r) => r.id);
    const delivered = () => new Set(receiver.at('/hooks').map((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id));
    for (let i = 0; i < 600 && delivered().size < all.length; i++) await new Promise((r) => setTimeout(r, 50));
    expect([...delivered()].sort()).toEqual([...all].sort());
    // A duplicate is a delivery the killed instance held when it died: at most its `concurrency` (10).
    const ids = receiver.at('/hooks').map((r) => r.headers['webhook-id']);
    expect(ids.length - new Set(ids).size).toBeLessThanOrEqual(10);
  }, 120_000);

  it(
    `${KILLS} kill -9s between the handler's commit and its answer create no order twice: the retry replays the committed answer`,
    async () => {
      let replayed = 0;
      for (let k = 0; k < KILLS; k++) {
        // Instance 0 dies right after the COMMIT of the first order it writes.
        await instances.restart(0, { KILL_AT: 'after-commit' });
        const body = { customer_id: customer, product_id: 1_000 + k, quantity: 1 };
        const key = { 'idempotency-key': `crash-${k}` };
        expect(await call(instances.children[0]!.url, 'POST', '/v3/orders', body, key)).toBe('connection lost');
        expect(await instances.children[0]!.exited).toBe('SIGKILL');
        // The client retries through the load balancer: another instance answers (the dead one answers 502).
        const retried = await callUntilAnswered(instances.proxy.url, 'POST', '/v3/orders', body, key);
        expect(retried.status).toBe(201);
        if (retried.headers.get('idempotent-replayed') === 'true') replayed++;
        expect(await count('SELECT count(*) AS n FROM orders WHERE product_id = $1', [1_000 + k])).toBe(1);
      }
      // Each order and its answer committed together before the kill: every retry was a replay.
      expect(replayed).toBe(KILLS);
    },
    FULL ? 1_800_000 : 120_000,
  );

  it('a kill -9 before the commit leaves nothing: the retry creates the order, once', async () => {
    await instances.restart(0, { KILL_AT: 'before-commit' });
    const body = { customer_id: customer, product_id: 999, quantity: 1 };
    const key = { 'idempotency-key': 'crash-before' };
    expect(await call(instances.children[0]!.url, 'POST', '/v3/orders', body, key)).toBe('connection lost');
    expect(await instances.children[0]!.exited).toBe('SIGKILL');
    expect(await count('SELECT count(*) AS n FROM orders WHERE product_id = 999')).toBe(0);
    const retried = await callUntilAnswered(instances.proxy.url, 'POST', '/v3/orders', body, key);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await count('SELECT count(*) AS n FROM orders WHERE product_id = 999')).toBe(1);
  }, 120_000);

  it('a global limit of 100 requests per minute holds across the instances: 100 of 200 pass', async () => {
    // The instances start again with the API's declared limits (they would have refused most requests above).
    await Promise.all(Array.from({ length: INSTANCES }, (_, i) => instances.restart(i, { RATE_LIMIT: '1', KILL_AT: '' })));
    const before = new Map(instances.proxy.sent);
    const statuses: number[] = [];
    // In waves of 25, all well inside one minute's window (the limit's window starts at the first request).
    for (let wave = 0; wave < 8; wave++)
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: 25 }, async () => {
            const answer = await call(instances.proxy.url, 'GET', '/v3/coupons?limit=1', undefined, { authorization: 'Bearer limited' });
            return answer === 'connection lost' ? 0 : answer.status;
          }),
        )),
      );
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100);
    // Every instance answered its share.
    expect([...instances.proxy.sent].filter(([url, n]) => n > (before.get(url) ?? 0))).toHaveLength(INSTANCES);
  }, 120_000);
});
