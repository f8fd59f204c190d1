/**
 * Webhooks on a Redis Cluster of the test's own (3 primaries, a replica each) through a failover: two server
 * instances share it with the default prefix (`restgen:{shop}:`, every key in one slot), deliveries are in flight
 * when the primary that holds the slot is killed (SIGKILL), its replica takes over, and orders keep coming before,
 * during and after. Every event reaches its endpoint at least once, nothing is lost, and a message arrives twice
 * only if it was in flight at the kill. Writes acknowledged by the primary are on its replica before the kill (the
 * test waits for the replication offset): Redis replicates asynchronously, and a write the replica never saw dies
 * with the primary, which the webhooks guide says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OwnCluster, ready } from '../helpers/redis-targets.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running, type ServerModule } from '../server/helpers.ts';
import { startReceiver, type Receiver } from './receiver.ts';

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write'];
const BEFORE = 12;
const DURING = 6;
const AFTER = 6;

describe('webhooks on a Redis Cluster through a failover', () => {
  let cluster: OwnCluster | null = null;
  let mod: ServerModule;
  let receiver: Receiver;
  const servers: Running[] = [];
  const clients: { disconnect(): void }[] = [];
  beforeAll(async () => {
    cluster = OwnCluster.start(1);
    mod = await importServer(await generateInto('webhooks-cluster-failover'));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    clients.forEach((c) => c.disconnect());
    await receiver?.close();
    cluster?.stop();
  });

  /** The port of the primary that serves `key`'s slot, and of its replica. */
  async function holderOf(key: string): Promise<{ primary: number; replica: number }> {
    const admin = cluster!.client();
    clients.push(admin);
    const slot = Number(await admin.call('CLUSTER', 'KEYSLOT', key));
    // A replica joins its primary shortly after the cluster starts: ask until the slot's primary has one (bounded).
    for (let attempt = 1; ; attempt++) {
      const found = holderIn(String(await admin.call('CLUSTER', 'NODES')), slot);
      if (found) return found;
      if (attempt === 100) throw new Error(`no replica of the primary serving slot ${slot} after 100 looks at CLUSTER NODES`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The ports of the primary serving `slot` and of its replica in a CLUSTER NODES answer, or null while it has none. */
  function holderIn(answer: string, slot: number): { primary: number; replica: number } | null {
    const lines = answer.trim().split('\n');
    const nodes = lines.map((line) => {
      const [id, address, flags, master, , , , , ...slots] = line.split(' ');
      return { id: id!, port: Number(address!.split('@')[0]!.split(':')[1]), flags: flags!, master: master!, slots };
    });
    const primary = nodes.find(
      (n) =>
        n.flags.includes('master') &&
        n.slots.some((range) => {
          const [from, to = from] = range.split('-').map(Number);
          return slot >= from! && slot <= to!;
        }),
    );
    const replica = primary && nodes.find((n) => n.master === primary.id);
    return primary && replica ? { primary: primary.port, replica: replica.port } : null;
  }

  /** Waits until the replica on `replica` has every write its primary on `primary` acknowledged. */
  async function replicated(primary: number, replica: number): Promise<void> {
    const { Redis } = await import('ioredis');
    const [p, r] = [new Redis(primary, '127.0.0.1'), new Redis(replica, '127.0.0.1')];
    const offset = async (client: InstanceType<typeof Redis>, field: string) => {
      const found = new RegExp(`^${field}:(\\d+)`, 'm').exec(await client.info('replication'));
      if (!found) throw new Error(`INFO replication has no ${field}`);
      return Number(found[1]);
    };
    try {
      for (let i = 0; i < 200; i++) {
        if ((await offset(r, 'slave_repl_offset')) >= (await offset(p, 'master_repl_offset'))) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('the replica did not catch up with its primary');
    } finally {
      p.disconnect();
      r.disconnect();
    }
  }

  it('delivers every event at least once, duplicates only of deliveries in flight at the kill', async (context) => {
    if (cluster === null) return context.skip();
    for (let i = 0; i < 2; i++) {
      const client = await ready(cluster.client());
      clients.push(client);
      servers.push(
        await start((app) =>
          registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
            authenticate: () => ({ id: 'admin', scopes: SCOPES }),
            migrations: SHOP_MIGRATIONS,
            rateLimit: false,
            redis: client,
            // A loaded machine must not turn a slow command into a 503 before the failover.
            redisTimeout: 2_000,
            webhooks: { allowPrivateUrls: true, pollInterval: 20, attemptTimeout: 2_000, retrySchedule: [200, 400, 800, 1_600], jitter: 0 },
          }),
        ),
      );
    }
    const [a, b] = servers as [Running, Running];
    expect((await a.call('POST', '/v3/webhook_endpoints', { body: { url: `${receiver.url}/failover`, events: ['order.created'] } })).status).toBe(201);
    // Each delivery takes a while: some are in flight when the primary dies.
    receiver.answer('/failover', () => ({ status: 204, delay: 150 }));
    const customer = (await a.call('POST', '/v3/customers', { body: { email: 'failover@example.com', name: 'F' } })).body['id'] as string;
    const created: string[] = [];
    /** Creates an order through `server`, again after each 503 (Redis away, nothing changed): its id. */
    const order = async (server: Running, n: number) => {
      for (let attempt = 0; attempt < 200; attempt++) {
        const answer = await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: n, quantity: 1 } });
        if (answer.status === 201) return void created.push(answer.body['id'] as string);
        expect(answer.status).toBe(503);
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`order ${n} was refused 200 times`);
    };

    await Promise.all(Array.from({ length: BEFORE }, (_, n) => order(n % 2 ? a : b, n + 1)));
    const { primary, replica } = await holderOf('restgen:{shop}:wh:due');
    await replicated(primary, replica);
    await receiver.waitFor('/failover', 1);
    process.kill(cluster.pid(primary), 'SIGKILL');
    await Promise.all(Array.from({ length: DURING }, (_, n) => order(n % 2 ? a : b, 100 + n)));
    await Promise.all(Array.from({ length: AFTER }, (_, n) => order(n % 2 ? b : a, 200 + n)));

    const total = BEFORE + DURING + AFTER;
    const received = async () => new Set(receiver.at('/failover').map((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id));
    for (let i = 0; i < 600 && (await received()).size < total; i++) await new Promise((r) => setTimeout(r, 50));
    expect([...(await received())].sort()).toEqual([...created].sort());
    const ids = receiver.at('/failover').map((r) => r.headers['webhook-id']);
    // A duplicate is a delivery an instance held at the kill (its completion lost): each holds `concurrency` (10) at most.
    const duplicates = ids.length - new Set(ids).size;
    expect(duplicates).toBeLessThanOrEqual(2 * 10);
    // While no primary held the slot, writes were refused (503, nothing changed) or their events deferred; none failed otherwise.
    for (const s of servers) expect(s.errors.join('\n')).not.toMatch(/CROSSSLOT|handler failed|lost/);
  }, 60_000);
});
