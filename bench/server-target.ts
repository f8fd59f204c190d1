/**
 * The process the server benchmark loads: the generated bench API (`/v1/orders`, `/v3/orders`) and
 * hand-written Fastify routes with the same zod validation (`/hand/v1/orders`, `/hand/v3/orders`) on one
 * Fastify instance, all calling the same trivial create. Prints its port. Args: the generated folder.
 */
import Fastify from 'fastify';
import path from 'node:path';
import type { z } from 'zod';

const outDir = process.argv[2]!;
const V1 = (await import(path.join(outDir, 'v1/schemas.ts'))) as Record<string, z.ZodType>;
const V3 = (await import(path.join(outDir, 'v3/schemas.ts'))) as Record<string, z.ZodType>;
const server = (await import(path.join(outDir, 'server/index.ts'))) as {
  registerBenchApi: (app: ReturnType<typeof Fastify>, handlers: object) => Promise<void>;
};

const ID = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11';
const CREATED = '2026-03-01T00:00:00.000Z';
/** The business logic both sides call: nothing stored, so only the HTTP path is measured. */
const create = (body: object) => ({ id: ID, ...body, status: 'open', createdAt: CREATED });

const app = Fastify({ logger: false });
for (const [version, schema] of [['v1', V1['OrderCreate']!], ['v3', V3['OrderCreate']!]] as const)
  app.post(`/hand/${version}/orders`, async (request, reply) => {
    const parsed = schema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ errors: parsed.error.issues });
    const order = create(parsed.data as object);
    return reply.code(201).header('location', `/hand/${version}/orders/${order.id}`).send(order);
  });
await server.registerBenchApi(app, {
  orders: {
    create,
    get: () => create({}),
    list: () => ({ data: [], next_cursor: null }),
  },
});
// The server's own CPU time: the benchmark divides requests by it, a measure other processes' load cannot skew.
app.get('/__cpu', async () => process.cpuUsage());
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
