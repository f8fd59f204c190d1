/**
 * One process of the server benchmark: the generated bench API (`/v1/orders`, `/v3/orders`; with
 * `novalidate`, `validateResponses: false`), hand-written Fastify routes with the same zod request
 * validation (`hand`), the same with the strong ETag every resource answer carries (`tagged`: BLAKE2s of
 * the JSON text sent, as the generated runtime hashes), or hand-written routes that keep the generated
 * route's contract with zod and node:crypto (`contract`: the answer checked against the version's response
 * schema, v1 bodies migrated to v3 and answers back, a strong ETag of the newest shape), all calling the
 * same trivial create. Its own process, so that its CPU time and peak memory are its own. Prints its port. Args: the generated folder, the variant, and the extension of
 * the generated modules (`ts` when run through a loader, `js` when compiled).
 */
import Fastify from 'fastify';
import { hash } from 'node:crypto';
import path from 'node:path';
import type { z } from 'zod';

const outDir = process.argv[2]!;
const variant = process.argv[3] as 'hand' | 'tagged' | 'contract' | 'generated' | 'novalidate';
const ext = process.argv[4] ?? 'ts';
const V1 = (await import(path.join(outDir, `v1/schemas.${ext}`))) as Record<string, z.ZodType>;
const V3 = (await import(path.join(outDir, `v3/schemas.${ext}`))) as Record<string, z.ZodType>;
const server = (await import(path.join(outDir, `server/index.${ext}`))) as {
  registerBenchApi: (app: ReturnType<typeof Fastify>, handlers: object, options?: object) => Promise<void>;
};

const ID = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11';
const CREATED = '2026-03-01T00:00:00.000Z';
/** The business logic every variant calls: nothing stored, so only the HTTP path is measured. */
const create = (body: object) => ({ id: ID, ...body, status: 'open', createdAt: CREATED });
/** A strong ETag of a JSON text as the generated runtime makes it (BLAKE2s-256, first 132 bits). */
const etagOf = (text: string) => `"${hash('blake2s256', text, 'base64url').slice(0, 22)}"`;

const app = Fastify({ logger: false });
if (variant === 'hand')
  for (const [version, schema] of [['v1', V1['OrderCreate']!], ['v3', V3['OrderCreate']!]] as const)
    app.post(`/${version}/orders`, async (request, reply) => {
      const parsed = schema.safeParse(request.body);
      if (!parsed.success) return reply.code(400).send({ errors: parsed.error.issues });
      const order = create(parsed.data as object);
      return reply.code(201).header('location', `/${version}/orders/${order.id}`).send(order);
    });
else if (variant === 'tagged')
  // The plain route plus the ETag (a hand-written v1 route tags its own text: no cross-version tag).
  for (const [version, schema] of [['v1', V1['OrderCreate']!], ['v3', V3['OrderCreate']!]] as const)
    app.post(`/${version}/orders`, async (request, reply) => {
      const parsed = schema.safeParse(request.body);
      if (!parsed.success) return reply.code(400).send({ errors: parsed.error.issues });
      const order = create(parsed.data as object);
      const text = JSON.stringify(order);
      return reply.code(201).header('location', `/${version}/orders/${order.id}`).header('etag', etagOf(text)).type('application/json; charset=utf-8').send(text);
    });
else if (variant === 'contract') {
  // What a careful hand-written route does to give the generated route's guarantees, written the plain way.
  app.post('/v3/orders', async (request, reply) => {
    const parsed = V3['OrderCreate']!.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ errors: parsed.error.issues });
    const checked = V3['Order']!.safeParse(create(parsed.data as object));
    if (!checked.success) return reply.code(500).send({ title: 'Internal Server Error' });
    const order = checked.data as { id: string };
    const text = JSON.stringify(order);
    return reply.code(201).header('location', `/v3/orders/${order.id}`).header('etag', etagOf(text)).type('application/json; charset=utf-8').send(text);
  });
  app.post('/v1/orders', async (request, reply) => {
    const parsed = V1['OrderCreate']!.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ errors: parsed.error.issues });
    const { qty, note: _note, ...rest } = parsed.data as { qty: number; note: string };
    const checked = V3['Order']!.safeParse(create({ ...rest, quantity: qty, currency: 'EUR' }));
    if (!checked.success) return reply.code(500).send({ title: 'Internal Server Error' });
    const order = checked.data as { id: string; quantity: number; currency?: string; giftMessage?: string };
    const { quantity, currency: _currency, giftMessage: _gift, ...older } = order;
    const v1 = V1['Order']!.safeParse({ ...older, qty: quantity, note: '' });
    if (!v1.success) return reply.code(500).send({ title: 'Internal Server Error' });
    return reply.code(201).header('location', `/v1/orders/${order.id}`).header('etag', etagOf(JSON.stringify(order))).type('application/json; charset=utf-8').send(JSON.stringify(v1.data));
  });
} else
  await server.registerBenchApi(
    app,
    { orders: { create, get: () => create({}), list: () => ({ data: [], next_cursor: null }) } },
    { validateResponses: variant === 'generated' },
  );
// The process's own CPU time and peak memory: the benchmark reads them before and after each run.
app.get('/__usage', async () => ({ ...process.cpuUsage(), maxRssKiB: process.resourceUsage().maxRSS }));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
