/**
 * What the generated client sends and how it reads answers, against node:http test servers: URLs,
 * credentials, headers, typed errors with their problem bodies, pagination, raw responses, the
 * deprecation headers reported through `onAttempt`, and an injected `fetch`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { problem, startFaultServer, type FaultServer, type Seen } from './fault-server.ts';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  GoneError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  createShopClient,
  type AttemptEvent,
  type Fetch,
} from '../../examples/shop/generated/client/index.js';

let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(replies: Parameters<typeof startFaultServer>[0]): Promise<FaultServer> {
  server = await startFaultServer(replies);
  return server;
}

describe('requests', () => {
  it('builds version paths under the base URL, encodes ids and serializes list queries', async () => {
    const { url, seen } = await serve(() => ({ status: 200, body: { data: [], next_cursor: null } }));
    const client = createShopClient({ baseUrl: `${url}/shop/` });
    await client.v1.orders.get('a/b c');
    await client.v2.orders.list({ status: 'paid', limit: 5, customer_id: undefined });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /shop/v1/orders/a%2Fb%20c', 'GET /shop/v2/orders?status=paid&limit=5']);
  });

  it('sends JSON bodies with the method of each operation', async () => {
    const { url, seen } = await serve((n) => (n === 4 ? { status: 204 } : { status: 200, body: { id: 'c1' } }));
    const client = createShopClient({ baseUrl: url });
    await client.v2.customers.create({ email: 'a@b.example', name: 'A' });
    await client.v2.customers.replace('c1', { email: 'a@b.example', name: 'B', tier: 'pro' });
    await client.v2.customers.update('c1', { name: 'C' });
    await client.v2.customers.get('c1');
    await expect(client.v2.customers.delete('c1')).resolves.toBeUndefined();
    expect(seen.map((s) => [s.method, s.url, s.body, s.headers['content-type']])).toEqual([
      ['POST', '/v2/customers', '{"email":"a@b.example","name":"A"}', 'application/json'],
      ['PUT', '/v2/customers/c1', '{"email":"a@b.example","name":"B","tier":"pro"}', 'application/json'],
      ['PATCH', '/v2/customers/c1', '{"name":"C"}', 'application/json'],
      ['GET', '/v2/customers/c1', '', undefined],
      ['DELETE', '/v2/customers/c1', '', undefined],
    ]);
  });

  it('sends the bearer token, the API key and headers; per-request options win', async () => {
    const { url, seen } = await serve(() => ({ status: 200, body: {} }));
    const client = createShopClient({ baseUrl: url, bearer: 'secret', headers: { 'x-team': 'a', 'x-trace': '1' } });
    await client.v2.orders.get('o1');
    await client.v2.orders.get('o1', { bearer: 'other', headers: { 'x-trace': '2' } });
    const keyed = createShopClient({ baseUrl: url, apiKey: 'k-123' });
    await keyed.v2.orders.get('o1');
    const pick = (s: Seen) => [s.headers.authorization, s.headers['x-api-key'], s.headers['x-team'], s.headers['x-trace']];
    expect(seen.map(pick)).toEqual([
      ['Bearer secret', undefined, 'a', '1'],
      ['Bearer other', undefined, 'a', '2'],
      [undefined, 'k-123', undefined, undefined],
    ]);
    expect(seen[0]!.headers.accept).toContain('application/json');
  });

  it('asks a credential function again on every attempt (tokens that refresh)', async () => {
    const { url, seen } = await serve([problem(503, 'Unavailable'), { status: 200, body: {} }]);
    let calls = 0;
    const client = createShopClient({ baseUrl: url, retryDelay: 1, bearer: async () => `token-${++calls}` });
    await client.v2.orders.get('o1');
    expect(seen.map((s) => s.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it('uses an injected fetch', async () => {
    const calls: string[] = [];
    const fetch: Fetch = async (url, init) => {
      calls.push(`${init.method} ${url} ${init.headers.get('authorization')}`);
      return new Response(JSON.stringify({ id: 'c9' }), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const client = createShopClient({ baseUrl: 'https://api.example.test', fetch, bearer: 't' });
    await expect(client.v3.coupons.get('c9')).resolves.toEqual({ id: 'c9' });
    expect(calls).toEqual(['GET https://api.example.test/v3/coupons/c9 Bearer t']);
  });
});

describe('errors', () => {
  it('throws one class per status, each an ApiError with status, headers and the problem body', async () => {
    const { url } = await serve((_, req) => problem(Number(req.url.split('/').pop()), 'Failure', { detail: 'it failed' }, { 'x-request-id': 'r1' }));
    const client = createShopClient({ baseUrl: url, maxRetries: 0 });
    const classes = {
      400: BadRequestError,
      401: AuthenticationError,
      403: PermissionDeniedError,
      404: NotFoundError,
      429: RateLimitError,
      500: InternalServerError,
      503: InternalServerError,
      410: GoneError,
      405: ApiError,
    };
    for (const [status, Class] of Object.entries(classes)) {
      const error = await client.v2.orders.get(status).catch((e: unknown) => e);
      expect(error, status).toBeInstanceOf(Class);
      expect(error, status).toBeInstanceOf(ApiError);
      expect(error, status).toBeInstanceOf(Error);
      expect(error).toMatchObject({ name: Class.name, status: Number(status), problem: { title: 'Failure', detail: 'it failed' } });
      expect((error as ApiError).headers.get('x-request-id')).toBe('r1');
      expect((error as ApiError).stack).toContain(Class.name);
    }
  });

  it('lists every validation issue in the message of a 400', async () => {
    const issues = [
      { pointer: '/quantity', detail: 'must be at least 1' },
      { pointer: '/currency', detail: 'must be EUR or USD' },
    ];
    const { url } = await serve([problem(400, 'Bad Request', { detail: 'The body is invalid.', errors: issues })]);
    const client = createShopClient({ baseUrl: url });
    const error = (await client.v2.orders.create({ customer_id: 'c', product_id: 1, quantity: 0 }).catch((e: unknown) => e)) as BadRequestError;
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.problem?.errors).toEqual(issues);
    expect(error.message).toMatch(
      /^400 Bad Request: The body is invalid\. \(POST http:\S+\/v2\/orders\)\n  \/quantity: must be at least 1\n  \/currency: must be EUR or USD$/,
    );
  });

  it('copes with an error body that is not JSON', async () => {
    const { url } = await serve([{ status: 502, headers: { 'content-type': 'text/html' }, body: '<html>' }]);
    const client = createShopClient({ baseUrl: url, maxRetries: 0 });
    const error = (await client.v2.orders.get('o1').catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.problem).toBeNull();
    expect(error.message).toMatch(/^502 Bad Gateway \(GET /);
  });
});

describe('pages and raw responses', () => {
  const ITEMS = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));
  const paged = (_: number, req: Seen) => {
    const q = new URL(req.url, 'http://x').searchParams;
    const from = Number(q.get('cursor') ?? 0);
    const limit = Number(q.get('limit') ?? 20);
    const next = from + limit < ITEMS.length ? String(from + limit) : null;
    return { status: 200, headers: { 'x-page': String(from) }, body: { data: ITEMS.slice(from, from + limit), next_cursor: next } };
  };

  it('awaits one page, and iterates every item of every page with the same filters', async () => {
    const { url, seen } = await serve(paged);
    const client = createShopClient({ baseUrl: url });
    const page = await client.v2.orders.list({ limit: 2, status: 'paid' });
    expect(page).toEqual({ data: [{ id: 'a' }, { id: 'b' }], next_cursor: '2' });
    const ids: string[] = [];
    for await (const order of client.v2.orders.list({ limit: 2, status: 'paid' })) ids.push(order.id);
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(seen.map((s) => s.url)).toEqual([
      '/v2/orders?limit=2&status=paid',
      '/v2/orders?limit=2&status=paid',
      '/v2/orders?limit=2&status=paid&cursor=2',
      '/v2/orders?limit=2&status=paid&cursor=4',
    ]);
  });

  it('walks pages, and stops iterating early without fetching more', async () => {
    const { url, seen } = await serve(paged);
    const client = createShopClient({ baseUrl: url });
    const sizes: number[] = [];
    for await (const page of client.v1.orders.list({ limit: 2 }).pages()) sizes.push(page.data.length);
    expect(sizes).toEqual([2, 2, 1]);
    const before = seen.length;
    for await (const order of client.v1.orders.list({ limit: 2 })) if (order.id === 'a') break;
    expect(seen.length - before).toBe(1);
  });

  it('gives the Response beside the data', async () => {
    const { url } = await serve(paged);
    const client = createShopClient({ baseUrl: url });
    const { data, response } = await client.v2.orders.list({ limit: 2, cursor: '4' }).withResponse();
    expect(data.data).toEqual([{ id: 'e' }]);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-page')).toBe('4');
    const one = await client.v2.customers.get('x').withResponse();
    expect(one.response.ok).toBe(true);
  });
});

describe('deprecation', () => {
  it("reports the server's Deprecation and Sunset headers through onAttempt", async () => {
    const headers = { deprecation: '@1788220800', sunset: 'Mon, 01 Mar 2027 00:00:00 GMT' };
    const { url } = await serve([
      { status: 200, headers, body: {} },
      { status: 200, body: {} },
    ]);
    const events: AttemptEvent[] = [];
    const client = createShopClient({ baseUrl: url, onAttempt: (e) => events.push(e) });
    await client.v1.orders.get('o1');
    await client.v2.orders.get('o1');
    expect(events.map((e) => [e.url.replace(url, ''), e.deprecation, e.sunset])).toEqual([
      ['/v1/orders/o1', '@1788220800', 'Mon, 01 Mar 2027 00:00:00 GMT'],
      ['/v2/orders/o1', null, null],
    ]);
    expect(events[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });
});
