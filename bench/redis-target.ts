/**
 * One process of the Redis cost benchmark (`bench/instances.ts`): the shop example's generated server on its
 * in-memory handlers, with its idempotent answers, webhook endpoints and outbox in Redis — a single Redis
 * (`REDIS_URL`) or a cluster (`REDIS_NODES`, `host:port,...`) — and one endpoint subscribed to `order.created`, so
 * that every create with an Idempotency-Key sends the commands a server sends for it (the answer's marker, reads and
 * writes, the endpoints read, the outbox write). It delivers nothing (`dispatch: false`) and counts no rate limit.
 * Prints its port, then its CPU time so far (user + system, µs, as JSON) on each SIGUSR2; on SIGTERM it closes.
 */
import Fastify from 'fastify';
import { Cluster, Redis } from 'ioredis';
import type { AddressInfo } from 'node:net';
import { createMemoryHandlers, registerShopApi } from '../examples/shop/generated/server/index.ts';

const nodes = process.env['REDIS_NODES'];
const redis = nodes
  ? new Cluster(nodes.split(',').map((node) => ({ host: node.split(':')[0]!, port: Number(node.split(':')[1]) })))
  : new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
await new Promise((resolve) => redis.once('ready', resolve));
const app = Fastify({ logger: false });
await registerShopApi(app, createMemoryHandlers(), {
  authenticate: () => ({ id: 'bench', scopes: ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'webhooks:read', 'webhooks:write'] }),
  migrations: {
    v2: { orders: { note: { value: () => undefined } } },
    v3: {
      customers: { name: { whenMissing: (c) => c.email } },
      orders: { reference: { up: (n) => `RF-${String(n).padStart(4, '0')}`, down: (s) => Number(s.slice(3)) } },
    },
  },
  rateLimit: false,
  redis,
  redisPrefix: `bench:{${process.pid}}:`,
  webhooks: { allowPrivateUrls: true, dispatch: false },
});
await app.listen({ port: 0, host: '127.0.0.1' });
const endpoint = await app.inject({
  method: 'POST',
  url: '/v3/webhook_endpoints',
  headers: { authorization: 'Bearer x', 'content-type': 'application/json' },
  payload: { url: 'http://127.0.0.1:9/hook', events: ['order.created'] },
});
if (endpoint.statusCode !== 201) throw new Error(`subscribing failed: ${endpoint.body}`);
// Before the port is printed: a SIGUSR2 sent as soon as it is read must find the handler.
process.on('SIGUSR2', () => {
  const { user, system } = process.cpuUsage();
  console.log(JSON.stringify({ cpuUs: user + system }));
});
console.log((app.server.address() as AddressInfo).port);
process.once('SIGTERM', () => void app.close().then(() => redis.quit()));
