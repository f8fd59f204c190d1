/**
 * One process of the server benchmark: the generated bench API (`/v1/orders`, `/v3/orders`; with
 * `novalidate`, `validateResponses: false`), hand-written Fastify routes with the same zod request
 * validation that send the handler's value as JSON (`hand`), the same with the strong ETag every resource
 * answer carries (`tagged`: BLAKE2s of the JSON text sent, as the generated runtime hashes; lists carry
 * none), or hand-written routes that keep the generated route's contract with zod and node:crypto
 * (`contract`: every resource answered checked against the version's response schema, v1 bodies migrated
 * to v3 and answers back, a strong ETag of the newest shape), all calling the same trivial handlers: a
 * create that stores nothing, a get of one order and a list of the same 20 orders (newest shape). The
 * hand-written list routes read their query with a zod schema of their own (limit, cursor, a range on the
 * quantity, the sort) as strictly as the generated route, bind cursors to it, and hand the handler the same
 * structured query the generated route does. Its own process, so that its CPU time and peak memory are its
 * own. Prints its port. Args: the generated folder, the variant, and the extension of the generated modules
 * (`ts` when run through a loader, `js` when compiled).
 */
import Fastify, { type FastifyReply } from 'fastify';
import { hash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
// Beside this file when it runs compiled, too (bench/server.ts and bench/versions.ts copy it).
import { peakRssKiB } from './peak-rss.mjs';

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
type Order = { id: string; quantity: number; currency?: string; giftMessage?: string; [key: string]: unknown };
/** The orders a list answers (a page of 20, the newest shape; every third one without a gift message). */
const ORDERS: readonly Order[] = Array.from({ length: 20 }, (_, i) => ({
  id: `6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d${String(i).padStart(2, '0')}`,
  customer_id: '0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e',
  product_id: 7 + i,
  quantity: 1 + (i % 5),
  currency: i % 2 === 0 ? 'EUR' : 'USD',
  ...(i % 3 === 0 ? {} : { giftMessage: `Enjoy, number ${i}` }),
  status: 'paid',
  createdAt: `2026-03-${String(1 + i).padStart(2, '0')}T09:30:00.000Z`,
}));
const NEXT = 'eyJpZCI6IjZmMWMyZjBlIn0';
const list = (_query?: unknown) => ({ data: ORDERS, next_cursor: NEXT });

/** A number in a query string as the generated routes take one: decimal digits only (no hex, exponent, blank or spaces). */
const decimal = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/)
  .transform(Number);

/**
 * A list's query as a hand-written route reads it, as strictly as the generated route: the page size (whole
 * decimal digits, at least 1, lowered to 100), the cursor, `quantity` between two bounds (`qty` in v1), `sort` by
 * createdAt; then structured as the generated route hands it to the handler. A cursor is bound to the sort and
 * filters it was issued under (issue 45): the route sends the handler's behind a hash of them and takes back only
 * one sent with the same, which a hand-written route does with node:crypto.
 */
function handQuery(quantity: string) {
  const schema = z.strictObject({
    limit: z
      .string()
      .regex(/^\d+$/)
      .transform((s) => Math.min(Number(s), 100))
      .pipe(z.int().min(1))
      .optional(),
    cursor: z.string().min(1).optional(),
    [`${quantity}[gte]`]: decimal.pipe(z.int()).optional(),
    [`${quantity}[lt]`]: decimal.pipe(z.int()).optional(),
    sort: z.enum(['createdAt', '-createdAt']).optional(),
  });
  return (query: unknown) => {
    const parsed = schema.safeParse(query);
    if (!parsed.success) return parsed;
    const q = parsed.data as Record<string, unknown>;
    const gte = q[`${quantity}[gte]`] as number | undefined;
    const lt = q[`${quantity}[lt]`] as number | undefined;
    const sort = typeof q['sort'] === 'string' ? q['sort'] : undefined;
    const bound = hash('sha1', `${gte}|${lt}|${sort}`, 'base64url');
    const sent = q['cursor'] as string | undefined;
    if (sent !== undefined && !sent.startsWith(`${bound}.`))
      return { success: false as const, error: { issues: [{ path: ['cursor'], message: 'cursor_mismatch' }] } };
    return {
      success: true as const,
      bound,
      data: {
        limit: (q['limit'] as number | undefined) ?? 20,
        cursor: sent?.slice(bound.length + 1),
        filter: { quantity: { gte, lt } },
        sort:
          sort === undefined
            ? []
            : [
                { field: 'createdAt', direction: sort.startsWith('-') ? 'desc' : 'asc' },
                { field: 'id', direction: 'asc' },
              ],
      },
    };
  };
}
const HAND_QUERY = { v1: handQuery('qty'), v3: handQuery('quantity') };
const get = () => ORDERS[1]!;
/** A strong ETag of a JSON text as the generated runtime makes it (BLAKE2s-256, first 132 bits). */
const etagOf = (text: string) => `"${hash('blake2s256', text, 'base64url').slice(0, 22)}"`;
const VERSIONS = [
  ['v1', V1],
  ['v3', V3],
] as const;

const app = Fastify({ logger: false });
/** Sends a JSON text as Fastify sends an object. */
const sendJson = (reply: FastifyReply, text: string) => reply.type('application/json; charset=utf-8').send(text);
if (variant === 'hand' || variant === 'tagged')
  for (const [version, schemas] of VERSIONS) {
    app.post(`/${version}/orders`, async (request, reply) => {
      const parsed = schemas['OrderCreate']!.safeParse(request.body);
      if (!parsed.success) return reply.code(400).send({ errors: parsed.error.issues });
      const order = create(parsed.data as object);
      reply.code(201).header('location', `/${version}/orders/${order.id}`);
      if (variant === 'hand') return reply.send(order);
      // The plain route plus the ETag (a hand-written v1 route tags its own text: no cross-version tag).
      const text = JSON.stringify(order);
      return sendJson(reply.header('etag', etagOf(text)), text);
    });
    app.get(`/${version}/orders/:id`, async (_request, reply) => {
      const order = get();
      if (variant === 'hand') return reply.send(order);
      const text = JSON.stringify(order);
      return sendJson(reply.header('etag', etagOf(text)), text);
    });
    // A list carries no ETag: both send the page as it is.
    app.get(`/${version}/orders`, async (request, reply) => {
      const parsed = HAND_QUERY[version](request.query);
      if (!parsed.success) return reply.code(400).send({ errors: parsed.error.issues });
      const page = list(parsed.data);
      return reply.send({ data: page.data, next_cursor: `${parsed.bound}.${page.next_cursor}` });
    });
  }
else if (variant === 'contract') {
  // What a careful hand-written route does to give the generated route's guarantees, written the plain way.
  const checkV3 = (value: unknown) => {
    const checked = V3['Order']!.safeParse(value);
    return checked.success ? (checked.data as Order) : null;
  };
  /** A v3 order as v1 shows it (quantity was qty, currency and giftMessage are newer, note is gone), checked. */
  const toV1 = (order: Order) => {
    const { quantity, currency: _currency, giftMessage: _gift, ...older } = order;
    const v1 = V1['Order']!.safeParse({ ...older, qty: quantity, note: '' });
    return v1.success ? v1.data : null;
  };
  const broken = (reply: FastifyReply) => reply.code(500).send({ title: 'Internal Server Error' });
  app.post('/v3/orders', async (request, reply) => {
    const parsed = V3['OrderCreate']!.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ errors: parsed.error.issues });
    const order = checkV3(create(parsed.data as object));
    if (order === null) return broken(reply);
    const text = JSON.stringify(order);
    return sendJson(reply.code(201).header('location', `/v3/orders/${order.id}`).header('etag', etagOf(text)), text);
  });
  app.post('/v1/orders', async (request, reply) => {
    const parsed = V1['OrderCreate']!.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send({ errors: parsed.error.issues });
    const { qty, note: _note, ...rest } = parsed.data as { qty: number; note: string };
    const order = checkV3(create({ ...rest, quantity: qty, currency: 'EUR' }));
    const v1 = order && toV1(order);
    if (!order || !v1) return broken(reply);
    return sendJson(
      reply
        .code(201)
        .header('location', `/v1/orders/${order.id}`)
        .header('etag', etagOf(JSON.stringify(order))),
      JSON.stringify(v1),
    );
  });
  app.get('/v3/orders/:id', async (_request, reply) => {
    const order = checkV3(get());
    if (order === null) return broken(reply);
    const text = JSON.stringify(order);
    return sendJson(reply.header('etag', etagOf(text)), text);
  });
  app.get('/v1/orders/:id', async (_request, reply) => {
    const order = checkV3(get());
    const v1 = order && toV1(order);
    if (!order || !v1) return broken(reply);
    return sendJson(reply.header('etag', etagOf(JSON.stringify(order))), JSON.stringify(v1));
  });
  for (const [version] of VERSIONS)
    app.get(`/${version}/orders`, async (request, reply) => {
      const parsed = HAND_QUERY[version](request.query);
      if (!parsed.success) return reply.code(400).send({ errors: parsed.error.issues });
      const page = list(parsed.data);
      const next_cursor = `${parsed.bound}.${page.next_cursor}`;
      const data: unknown[] = [];
      for (const item of page.data) {
        const order = checkV3(item);
        const shown = version === 'v3' ? order : order && toV1(order);
        if (!shown) return broken(reply);
        data.push(shown);
      }
      return reply.send({ data, next_cursor });
    });
} else await server.registerBenchApi(app, { orders: { create, get, list } }, { validateResponses: variant === 'generated' });
// The process's own CPU time and peak memory: the benchmark reads them before and after each run.
app.get('/__usage', async () => ({ ...process.cpuUsage(), maxRssKiB: peakRssKiB() }));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
