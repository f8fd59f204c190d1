/**
 * One process of the server benchmark: the generated bench API (`/v1/orders`, `/v3/orders`; with
 * `novalidate`, `validateResponses: false`) or hand-written Fastify routes with the same zod request
 * validation (`hand`), all calling the same trivial create. Its own process, so that its CPU time and
 * peak memory are its own. Prints its port. Args: the generated folder, the variant.
 */
import Fastify from 'fastify';
import path from 'node:path';
import type { z } from 'zod';

const outDir = process.argv[2]!;
const variant = process.argv[3] as 'hand' | 'generated' | 'novalidate';
const V1 = (await import(path.join(outDir, 'v1/schemas.ts'))) as Record<string, z.ZodType>;
const V3 = (await import(path.join(outDir, 'v3/schemas.ts'))) as Record<string, z.ZodType>;
const server = (await import(path.join(outDir, 'server/index.ts'))) as {
  registerBenchApi: (app: ReturnType<typeof Fastify>, handlers: object, options?: object) => Promise<void>;
};

const ID = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11';
const CREATED = '2026-03-01T00:00:00.000Z';
/** The business logic every variant calls: nothing stored, so only the HTTP path is measured. */
const create = (body: object) => ({ id: ID, ...body, status: 'open', createdAt: CREATED });

const app = Fastify({ logger: false });
if (variant === 'hand')
  for (const [version, schema] of [['v1', V1['OrderCreate']!], ['v3', V3['OrderCreate']!]] as const)
    app.post(`/${version}/orders`, async (request, reply) => {
      const parsed = schema.safeParse(request.body);
      if (!parsed.success) return reply.code(400).send({ errors: parsed.error.issues });
      const order = create(parsed.data as object);
      return reply.code(201).header('location', `/${version}/orders/${order.id}`).send(order);
    });
else
  await server.registerBenchApi(
    app,
    { orders: { create, get: () => create({}), list: () => ({ data: [], next_cursor: null }) } },
    { validateResponses: variant === 'generated' },
  );
// The process's own CPU time and peak memory: the benchmark reads them before and after each run.
app.get('/__usage', async () => ({ ...process.cpuUsage(), maxRssKiB: process.resourceUsage().maxRSS }));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
