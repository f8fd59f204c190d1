/**
 * Interop: types generated from our OpenAPI document by openapi-typescript, used through openapi-fetch,
 * call the generated server for every operation of the example's newest version. The calling program is
 * type-checked against those types first (including calls the types must reject), then run against the
 * server on loopback; the statuses and shapes it saw are asserted here.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import Fastify, { type FastifyInstance } from 'fastify';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addFormats, generateExample, type GeneratedExample } from './generate-openapi.ts';

const run = promisify(execFile);
const OPENAPI_TS = new URL('../../node_modules/openapi-typescript/bin/cli.js', import.meta.url).pathname;
const TSC = new URL('../../node_modules/typescript-native/bin/tsc', import.meta.url).pathname;
const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'orders:cancel'];
/** Conversions the version markers cannot express, which the generated server requires (v3 calls never use them). */
const MIGRATIONS = {
  v2: { orders: { note: { value: () => undefined } } },
  v3: {
    customers: { name: { whenMissing: () => '(guest)' } },
    orders: { reference: { up: (v: number) => `RF-${String(v).padStart(4, '0')}`, down: (v: string) => Number(v.slice(3)) } },
  },
};

/**
 * The calling program, as a user would write it against `v3.d.ts`. Each call records what came back.
 * The `@ts-expect-error` lines prove the generated types reject what the server rejects.
 */
const CALLS = `
import createClient from 'openapi-fetch';
import type { components, paths } from './v3.js';

export interface Seen { readonly status: number; readonly body: unknown; readonly location: string | null }

export async function callEveryOperation(baseUrl: string): Promise<Record<string, Seen>> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: 'Bearer secret' } });
  const anonymous = createClient<paths>({ baseUrl });
  const seen: Record<string, Seen> = {};
  const note = (name: string, r: { response: Response; data?: unknown; error?: unknown }) => {
    seen[name] = { status: r.response.status, body: r.data ?? r.error ?? null, location: r.response.headers.get('location') };
  };

  const created = await client.POST('/v3/customers', { body: { email: 'ada@example.com', name: 'Ada', shipping: { street: 'Main 1', city: 'Bern', zip: '3000', country: 'CH' } } });
  note('createCustomer', created);
  const customerId: string = created.data?.id ?? '';
  note('listCustomers', await client.GET('/v3/customers', { params: { query: { limit: 10, tier: 'free' } } }));
  note('getCustomer', await client.GET('/v3/customers/{id}', { params: { path: { id: customerId } } }));
  note('replaceCustomer', await client.PUT('/v3/customers/{id}', { params: { path: { id: customerId } }, body: { email: 'ada@example.org', tier: 'pro' } }));
  note('updateCustomer', await client.PATCH('/v3/customers/{id}', { params: { path: { id: customerId } }, body: { tags: ['vip'] } }));
  note('duplicateCustomer', await client.POST('/v3/customers', { body: { email: 'ada@example.org' } }));

  const order = await client.POST('/v3/orders', { body: { customer_id: customerId, product_id: 7, quantity: 2, reference: 'AB-1234' } });
  note('createOrder', order);
  const orderId: string = order.data?.id ?? '';
  note('listOrders', await client.GET('/v3/orders', { params: { query: { customer_id: customerId, status: { eq: 'open' } } } }));
  note('getOrder', await client.GET('/v3/orders/{id}', { params: { path: { id: orderId } } }));
  note('updateOrder', await client.PATCH('/v3/orders/{id}', { params: { path: { id: orderId } }, body: { quantity: 3, currency: 'USD' } }));
  const byId = { params: { path: { id: orderId } } };
  note('payOrder', await client.POST('/v3/orders/{id}:pay', byId));
  note('payAgain', await client.POST('/v3/orders/{id}:pay', byId));
  note('shipOrder', await client.POST('/v3/orders/{id}:ship', { ...byId, body: { carrier: 'DHL', trackingCode: 'JD0002' } }));
  note('refundOrder', await client.POST('/v3/orders/{id}:refund', { ...byId, body: {} }));
  const other = await client.POST('/v3/orders', { body: { customer_id: customerId, product_id: 8, quantity: 1 } });
  note('cancelOrder', await client.POST('/v3/orders/{id}:cancel', { params: { path: { id: other.data?.id ?? '' } }, body: { reason: 'changed my mind' } }));
  note('deleteOrder', await client.DELETE('/v3/orders/{id}', { params: { path: { id: orderId } } }));
  note('getDeletedOrder', await client.GET('/v3/orders/{id}', { params: { path: { id: orderId } } }));

  const coupon = await client.POST('/v3/coupons', { body: { code: 'SPRING24', percentOff: 10, validUntil: null } });
  note('createCoupon', coupon);
  const couponId: string = coupon.data?.id ?? '';
  note('listCoupons', await client.GET('/v3/coupons', {}));
  note('getCoupon', await client.GET('/v3/coupons/{id}', { params: { path: { id: couponId } } }));
  // Coupons require If-Match on writes: each names the ETag of the coupon as last read.
  const ifMatch = (r: { response: Response }) => ({ 'If-Match': r.response.headers.get('etag') ?? '' });
  const replaced = await client.PUT('/v3/coupons/{id}', { params: { path: { id: couponId }, header: ifMatch(coupon) }, body: { code: 'SUMMER24', percentOff: 15, validUntil: '2026-08-31' } });
  note('replaceCoupon', replaced);
  note('staleCoupon', await client.PATCH('/v3/coupons/{id}', { params: { path: { id: couponId }, header: ifMatch(coupon) }, body: { percentOff: 20 } }));
  const updated = await client.PATCH('/v3/coupons/{id}', { params: { path: { id: couponId }, header: ifMatch(replaced) }, body: { percentOff: 20 } });
  note('updateCoupon', updated);
  note('deleteCoupon', await client.DELETE('/v3/coupons/{id}', { params: { path: { id: couponId }, header: ifMatch(updated) } }));

  note('deleteCustomer', await client.DELETE('/v3/customers/{id}', { params: { path: { id: customerId } } }));
  note('anonymousCreate', await anonymous.POST('/v3/coupons', { body: { code: 'NOPE1234', percentOff: 5, validUntil: null } }));
  // Orders are public until v3: v3's document asks for a credential, and so does the server.
  note('anonymousListOrders', await anonymous.GET('/v3/orders', {}));
  // The types forbid the next bodies; sent anyway (cast), the server answers 400 like the document says.
  note('invalidBody', await client.POST('/v3/orders', { body: { customer_id: customerId, product_id: 0, quantity: 2, status: 'paid' } as never }));
  return seen;
}

/** Never called: calls the generated types must reject (tsc fails on an unused @ts-expect-error). */
export function rejectedByTheTypes(client: ReturnType<typeof createClient<paths>>, id: string, customer: components['schemas']['Customer']): void {
  // openapi-fetch's body parameter skips excess-property checks, so the body type is checked directly.
  // @ts-expect-error: read-only fields are not part of a create body.
  const withStatus: components['schemas']['OrderCreate'] = { customer_id: id, product_id: 7, quantity: 1, status: 'paid' };
  void withStatus;
  // @ts-expect-error: orders offer no replace in v3.
  void client.PUT('/v3/orders/{id}', { params: { path: { id } }, body: {} });
  // @ts-expect-error: a required field is missing.
  void client.POST('/v3/coupons', { body: { code: 'X1234' } });
  // @ts-expect-error: write-only fields never come back.
  void customer.password;
}
`;

let example: GeneratedExample;
let app: FastifyInstance;
let baseUrl: string;

beforeAll(async () => {
  example = await generateExample('openapi-interop', undefined, { writable: true });
  const { registerShopApi, createMemoryHandlers, createDiskFileStore } = (await import(pathToFileURL(path.join(example.dir, 'server', 'index.ts')).href)) as {
    registerShopApi: (app: FastifyInstance, handlers: unknown, options: object) => Promise<void>;
    createMemoryHandlers: () => unknown;
    createDiskFileStore: (dir: string) => unknown;
  };
  app = Fastify();
  await registerShopApi(app, createMemoryHandlers(), {
    authenticate: async ({ token }: { token: string }) => (token === 'secret' ? { id: 'u1', scopes: SCOPES } : null),
    migrations: MIGRATIONS,
    files: createDiskFileStore(path.join(example.dir, 'files')),
  });
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
  example?.cleanup();
});

it('calls every v3 operation through openapi-fetch with types from our document', async () => {
  // Defaults make request keys optional: tell openapi-typescript not to treat them as always present.
  await run(process.execPath, [OPENAPI_TS, example.docPath('v3'), '-o', path.join(example.dir, 'v3.d.ts'), '--default-non-nullable=false']);
  writeFileSync(path.join(example.dir, 'calls.ts'), CALLS);
  writeFileSync(
    path.join(example.dir, 'tsconfig.calls.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['es2022', 'dom'],
        types: [],
        strict: true,
        noUnusedLocals: true,
        noEmit: true,
        skipLibCheck: true,
      },
      files: ['calls.ts'],
    }),
  );
  const checked = await run(process.execPath, [TSC, '-p', path.join(example.dir, 'tsconfig.calls.json')]).then(
    () => '',
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  expect(checked).toBe('');

  const { callEveryOperation } = (await import(pathToFileURL(path.join(example.dir, 'calls.ts')).href)) as {
    callEveryOperation: (baseUrl: string) => Promise<Record<string, { status: number; body: unknown; location: string | null }>>;
  };
  const seen = await callEveryOperation(baseUrl);
  const statuses = Object.fromEntries(Object.entries(seen).map(([k, v]) => [k, v.status]));
  expect(statuses).toEqual({
    createCustomer: 201,
    listCustomers: 200,
    getCustomer: 200,
    replaceCustomer: 200,
    updateCustomer: 200,
    duplicateCustomer: 409,
    createOrder: 201,
    listOrders: 200,
    getOrder: 200,
    updateOrder: 200,
    deleteOrder: 204,
    getDeletedOrder: 404,
    payOrder: 200,
    payAgain: 409,
    shipOrder: 200,
    refundOrder: 200,
    cancelOrder: 200,
    createCoupon: 201,
    listCoupons: 200,
    getCoupon: 200,
    replaceCoupon: 200,
    staleCoupon: 412,
    updateCoupon: 200,
    deleteCoupon: 204,
    deleteCustomer: 204,
    anonymousCreate: 401,
    anonymousListOrders: 401,
    invalidBody: 400,
  });
  const customer = seen['createCustomer']!;
  expect(customer.body).toMatchObject({ email: 'ada@example.com', tier: 'free', tags: [], createdAt: expect.any(String) });
  expect(customer.body).not.toHaveProperty('password');
  expect(customer.location).toMatch(/^\/v3\/customers\/[0-9a-f-]{36}$/);
  expect(seen['replaceCustomer']!.body).toMatchObject({ email: 'ada@example.org', tier: 'pro', tags: [] });
  expect(seen['updateCustomer']!.body).toMatchObject({ tags: ['vip'], tier: 'pro' });
  expect(seen['listCustomers']!.body).toMatchObject({ data: [expect.objectContaining({ email: 'ada@example.com' })], next_cursor: null });
  expect(seen['createOrder']!.body).toMatchObject({ quantity: 2, currency: 'EUR', status: 'open', reference: 'AB-1234' });
  expect(seen['updateOrder']!.body).toMatchObject({ quantity: 3, currency: 'USD' });
  expect(seen['listOrders']!.body).toMatchObject({ data: [expect.objectContaining({ product_id: 7 })] });
  expect(seen['replaceCoupon']!.body).toMatchObject({ code: 'SUMMER24', validUntil: '2026-08-31' });
  expect(seen['payAgain']!.body).toMatchObject({ code: 'invalid_transition', state: 'paid', allowed: ['ship', 'cancel', 'refund'] });
  expect(seen['refundOrder']!.body).toMatchObject({ status: 'refunded' });
  expect(seen['cancelOrder']!.body).toMatchObject({ status: 'cancelled' });
  expect(seen['duplicateCustomer']!.body).toMatchObject({ status: 409, type: expect.any(String), title: expect.any(String) });
  const invalid = seen['invalidBody']!.body as { errors: { pointer: string }[] };
  expect(invalid).toMatchObject({ status: 400, code: 'validation_failed' });
  expect(invalid.errors.map((e) => e.pointer).sort()).toEqual(['#/product_id', '#/status']);

  // Every answer, success or problem, is one the document lists for that operation, in the shape it says.
  const doc = example.doc('v3');
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addKeyword('x-restgen-lifecycle');
  ajv.addSchema({
    $id: 'https://restgen.test/v3.json',
    $defs: JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/')),
  });
  const responses = doc.components['responses'] as Record<string, Record<string, unknown>>;
  for (const [name, answer] of Object.entries(seen)) {
    const [method, route] = OPERATION_OF[name]!;
    const listed = doc.paths[route]![method]!['responses'] as Record<string, Record<string, unknown>>;
    let response = listed[String(answer.status)];
    expect(response, `${name}: ${answer.status} is listed for ${method.toUpperCase()} ${route}`).toBeDefined();
    const named = response!['$ref'];
    if (typeof named === 'string') response = responses[named.split('/').pop()!];
    const content = response!['content'] as Record<string, { schema: { $ref: string } }> | undefined;
    if (content === undefined) {
      expect(answer.body, name).toBeNull();
      continue;
    }
    const [, media] = Object.entries(content)[0]!;
    const validate = ajv.getSchema(`https://restgen.test/v3.json#/$defs/${media.schema.$ref.split('/').pop()}`)!;
    expect(validate(answer.body), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
});

/** The operation behind each call of {@link CALLS}: method and path template. */
const OPERATION_OF: Record<string, readonly [string, string]> = {
  createCustomer: ['post', '/v3/customers'],
  listCustomers: ['get', '/v3/customers'],
  getCustomer: ['get', '/v3/customers/{id}'],
  replaceCustomer: ['put', '/v3/customers/{id}'],
  updateCustomer: ['patch', '/v3/customers/{id}'],
  duplicateCustomer: ['post', '/v3/customers'],
  createOrder: ['post', '/v3/orders'],
  listOrders: ['get', '/v3/orders'],
  getOrder: ['get', '/v3/orders/{id}'],
  updateOrder: ['patch', '/v3/orders/{id}'],
  deleteOrder: ['delete', '/v3/orders/{id}'],
  getDeletedOrder: ['get', '/v3/orders/{id}'],
  payOrder: ['post', '/v3/orders/{id}:pay'],
  payAgain: ['post', '/v3/orders/{id}:pay'],
  shipOrder: ['post', '/v3/orders/{id}:ship'],
  refundOrder: ['post', '/v3/orders/{id}:refund'],
  cancelOrder: ['post', '/v3/orders/{id}:cancel'],
  staleCoupon: ['patch', '/v3/coupons/{id}'],
  createCoupon: ['post', '/v3/coupons'],
  listCoupons: ['get', '/v3/coupons'],
  getCoupon: ['get', '/v3/coupons/{id}'],
  replaceCoupon: ['put', '/v3/coupons/{id}'],
  updateCoupon: ['patch', '/v3/coupons/{id}'],
  deleteCoupon: ['delete', '/v3/coupons/{id}'],
  deleteCustomer: ['delete', '/v3/customers/{id}'],
  anonymousCreate: ['post', '/v3/coupons'],
  anonymousListOrders: ['get', '/v3/orders'],
  invalidBody: ['post', '/v3/orders'],
};
