/**
 * The generated client with files, against the generated shop server over HTTP: `create` and `update` with a
 * `Blob`, a `File`, a `ReadableStream` (streamed, never retried) or a stream with a name and type send multipart;
 * a JSON update still goes as JSON; `download` answers the bytes as a stream with what the headers say, a range
 * of them, and NotFoundError where there is no file. Orders have an invoice from v3.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as ClientModule from '../../examples/shop/generated/client/index.js';
import { TEST_FILES } from '../server/helpers.ts';
import { generateInto } from './generate-client.ts';

interface ServerModule {
  registerShopApi(app: FastifyInstance, handlers: unknown, options: object): Promise<void>;
  createMemoryHandlers(seed?: object): unknown;
  createDiskFileStore(dir: string): unknown;
}

const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write'];
const migrations = {
  v2: { orders: { note: { value: () => undefined } } },
  v3: {
    customers: { name: { whenMissing: () => '(guest)' } },
    orders: { reference: { up: (v: number) => `RF-${String(v).padStart(4, '0')}`, down: (v: string) => Number(v.slice(3)) } },
  },
};

let out: { dir: string; cleanup: () => void } | undefined;
let client: typeof ClientModule;
let app: FastifyInstance;
let baseUrl = '';
/** Requests the server saw: method, URL and content type. */
const seen: string[] = [];

beforeAll(async () => {
  out = await generateInto('client-files');
  client = (await import(path.join(out.dir, 'client/index.ts'))) as typeof ClientModule;
  const server = (await import(path.join(out.dir, 'server/index.ts'))) as ServerModule;
  app = Fastify();
  app.addHook('onRequest', async (request) => void seen.push(`${request.method} ${request.url} ${request.headers['content-type'] ?? '-'}`));
  await server.registerShopApi(app, server.createMemoryHandlers(), {
    authenticate: ({ token }: { token: string }) => ({ id: token, scopes: SCOPES }),
    migrations,
    rateLimit: false,
    files: server.createDiskFileStore(TEST_FILES),
  });
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);
afterAll(async () => {
  await app?.close();
  out?.cleanup();
});

const pdf = (text: string): Uint8Array => new TextEncoder().encode(`%PDF-1.7\n${text}`);
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const streamOf = (bytes: Uint8Array, chunk = 7): ReadableStream<Uint8Array> => {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, (at += chunk)));
    },
  });
};

describe('files through the client', () => {
  it('uploads a Blob or File in a create, reads its metadata, and downloads it whole and in part', async () => {
    const shop = client.createShopClient({ baseUrl, bearer: 'files-1' });
    const customer = await shop.v3.customers.create({ email: 'files@shop.example' });
    const bytes = pdf('invoice 42');
    const order = await shop.v3.orders.create({
      customer_id: customer.id,
      product_id: 7,
      quantity: 1,
      invoice: new File([bytes], 'Rechnung Nr. 42 (März).pdf', { type: 'application/pdf' }),
    });
    expect(order.invoice).toEqual({
      name: 'Rechnung Nr. 42 (März).pdf',
      type: 'application/pdf',
      size: bytes.length,
      sha256: sha256(bytes),
      href: `/v3/orders/${order.id}/invoice`,
    });
    expect(seen.at(-1)).toMatch(/^POST \/v3\/orders multipart\/form-data; boundary=restgen-[0-9a-f]{24}$/);
    const file = await shop.v3.orders.download(order.id, 'invoice');
    expect(new Uint8Array(await new Response(file.body).arrayBuffer())).toEqual(bytes);
    expect(file).toMatchObject({ name: 'Rechnung Nr. 42 (März).pdf', type: 'application/pdf', length: bytes.length, etag: `"${sha256(bytes)}"`, range: null });
    const part = await shop.v3.orders.download(order.id, 'invoice', { range: { start: 0, end: 3 } });
    expect(await new Response(part.body).text()).toBe('%PDF');
    expect(part.range).toEqual({ start: 0, end: 3, size: bytes.length });
    // A JSON update still goes as JSON; null removes the invoice.
    const cleared = await shop.v3.orders.update(order.id, { invoice: null });
    expect(cleared.invoice).toBeNull();
    expect(seen.at(-1)).toBe(`PATCH /v3/orders/${order.id} application/json`);
    await expect(shop.v3.orders.download(order.id, 'invoice')).rejects.toBeInstanceOf(client.NotFoundError);
  });

  it('streams a ReadableStream (with or without a name and type) and never retries it', async () => {
    let attempts = 0;
    const shop = client.createShopClient({ baseUrl, bearer: 'files-2', onAttempt: () => void attempts++ });
    const customer = await shop.v3.customers.create({ email: 'stream@shop.example' });
    const bytes = pdf('x'.repeat(5000));
    const order = await shop.v3.orders.create({ customer_id: customer.id, product_id: 7, quantity: 1, invoice: streamOf(bytes) });
    // No type said: the server gives it the declared type its leading bytes have.
    expect(order.invoice).toMatchObject({ name: 'file', type: 'application/pdf', size: bytes.length, sha256: sha256(bytes) });
    const named = await shop.v3.orders.update(order.id, { invoice: { stream: streamOf(bytes, 1000), name: 'a.pdf', type: 'application/pdf' } });
    expect(named.invoice).toMatchObject({ name: 'a.pdf', size: bytes.length });
    // A server failure is not retried for a stream, which cannot be sent twice.
    attempts = 0;
    const failing = client.createShopClient({ baseUrl: baseUrl.replace(/:\d+$/, ':1'), bearer: 'files-3', onAttempt: () => void attempts++, retryDelay: 1 });
    await expect(failing.v3.orders.create({ customer_id: customer.id, product_id: 7, quantity: 1, invoice: streamOf(bytes) })).rejects.toBeInstanceOf(
      client.ConnectionError,
    );
    expect(attempts).toBe(1);
  });

  it('answers the server refusals as typed errors: 415 for a file of another type, 413 past maxBytes', async () => {
    const shop = client.createShopClient({ baseUrl, bearer: 'files-4' });
    const customer = await shop.v3.customers.create({ email: 'refused@shop.example' });
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], { type: 'image/png' });
    const wrong = await shop.v3.orders.create({ customer_id: customer.id, product_id: 7, quantity: 1, invoice: png }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(client.ApiError);
    expect((wrong as InstanceType<typeof client.ApiError>).status).toBe(415);
    const big = new Blob([pdf(''), new Uint8Array(10_000_000)], { type: 'application/pdf' });
    const tooBig = await shop.v3.orders.create({ customer_id: customer.id, product_id: 7, quantity: 1, invoice: big }).catch((e: unknown) => e);
    expect((tooBig as InstanceType<typeof client.ApiError>).status).toBe(413);
  });
});
