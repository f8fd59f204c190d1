/**
 * End to end over HTTP, raw requests: the shop's order lifecycle on the generated server. Every pair of
 * state and transition (allowed: 200 in the target state; not allowed: 409 `invalid_transition` with the
 * state and the transitions open from it, the order unchanged), in v3 and in v1 (which shows `refunded`
 * as `cancelled` and has no refund), the state field refused by create and update (400 naming the
 * transition), scopes per transition, input validation per version, the colon route, Idempotency-Key
 * replay, the state moving between load and write, a handler answering the wrong state, and a
 * transition's own rate limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Answer, type Running, type ServerModule } from './helpers.ts';

const SCOPES: Record<string, string[]> = {
  admin: ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'orders:cancel'],
  clerk: ['customers:read', 'customers:write', 'orders:read', 'orders:write'],
  canceller: ['orders:read', 'orders:cancel'],
  reader: ['orders:read'],
};
const authenticate = ({ token }: { token: string }) => (SCOPES[token] ? { id: token, scopes: SCOPES[token] } : null);

/** The shop's lifecycle as the DSL declares it (v3). */
const TRANSITIONS: Record<string, { from: string[]; to: string }> = {
  pay: { from: ['open'], to: 'paid' },
  ship: { from: ['paid'], to: 'shipped' },
  cancel: { from: ['open', 'paid'], to: 'cancelled' },
  refund: { from: ['paid', 'shipped'], to: 'refunded' },
};
const STATES = ['open', 'paid', 'shipped', 'cancelled', 'refunded'];
/** The transitions that lead to each state from `open`. */
const PATH_TO: Record<string, string[]> = { open: [], paid: ['pay'], shipped: ['pay', 'ship'], cancelled: ['cancel'], refunded: ['pay', 'refund'] };
const INPUT: Record<string, object> = { ship: { carrier: 'DHL' }, cancel: { reason: 'test' } };

let mod: ServerModule;
let server: Running;
let customer = '';
/** When set, the next call of the orders' pay handler cancels the order first (a change between load and write). */
const interfere = { pay: false, wrongState: false };

beforeAll(async () => {
  mod = await importServer(await generateInto('lifecycle'));
  const handlers = mod.createMemoryHandlers();
  const orders = handlers['orders']!;
  const pay = orders['pay']!;
  const cancel = orders['cancel']!;
  orders['pay'] = ((order: { id: string }, input: unknown, ctx: object) => {
    if (interfere.pay) {
      interfere.pay = false;
      (cancel as (o: unknown, i: unknown, c: object) => unknown)(order, {}, { ...ctx, condition: null });
    }
    if (interfere.wrongState) {
      interfere.wrongState = false;
      return { ...order, status: 'shipped' };
    }
    return (pay as (o: unknown, i: unknown, c: object) => unknown)(order, input, ctx);
  }) as never;
  server = await start((app) => registerOf(mod, 'Shop')(app, handlers, { authenticate, migrations: SHOP_MIGRATIONS, rateLimit: false }));
  const created = await server.call('POST', '/v3/customers', { body: { email: 'life@example.com', name: 'Life' } });
  customer = created.body['id'] as string;
});
afterAll(() => server.close());

/** A new order moved to `state` through v3's transitions; returns its id. */
async function orderIn(state: string): Promise<string> {
  const created = await server.call('POST', '/v3/orders', { body: { customer_id: customer, product_id: 7, quantity: 1 } });
  expect(created.status).toBe(201);
  const id = created.body['id'] as string;
  for (const t of PATH_TO[state]!) expect((await server.call('POST', `/v3/orders/${id}:${t}`, { body: INPUT[t] ?? {} })).status).toBe(200);
  return id;
}

const statusOf = async (version: string, id: string) => (await server.call('GET', `/${version}/orders/${id}`)).body['status'];

function expectInvalidTransition(answer: Answer, state: string, allowed: string[]): void {
  expect(answer.status).toBe(409);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ type: 'about:blank', title: 'Conflict', status: 409, code: 'invalid_transition', state, allowed });
  expect(answer.body['detail']).toContain(`The resource is ${state}`);
}

describe('every state × transition of v3', () => {
  const pairs = STATES.flatMap((state) => Object.keys(TRANSITIONS).map((transition) => ({ state, transition })));
  it.each(pairs)('$transition from $state', async ({ state, transition }) => {
    const id = await orderIn(state);
    const { from, to } = TRANSITIONS[transition]!;
    const answer = await server.call('POST', `/v3/orders/${id}:${transition}`, { body: INPUT[transition] ?? {} });
    if (from.includes(state)) {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ id, status: to });
      expect(answer.headers.get('etag')).toMatch(/^"[\w-]+"$/);
      expect(await statusOf('v3', id)).toBe(to);
    } else {
      const allowed = Object.keys(TRANSITIONS).filter((t) => TRANSITIONS[t]!.from.includes(state));
      expectInvalidTransition(answer, state, allowed);
      expect(await statusOf('v3', id)).toBe(state);
    }
  });
});

describe('v1 sees the states it knows', () => {
  it('a refunded order (a v3 state) is cancelled in v1 and v2, in get, list and 409 bodies; refund does not exist there', async () => {
    const id = await orderIn('refunded');
    expect(await statusOf('v1', id)).toBe('cancelled');
    expect(await statusOf('v2', id)).toBe('cancelled');
    expect(await statusOf('v3', id)).toBe('refunded');
    const listed = await server.call('GET', `/v1/orders?customer_id=${customer}&limit=100`);
    expect(listed.body.data!.find((o) => o['id'] === id)).toMatchObject({ status: 'cancelled' });
    // Nothing leads out of refunded: v1 says so in its own words.
    expectInvalidTransition(await server.call('POST', `/v1/orders/${id}:cancel`, { body: {} }), 'cancelled', []);
    const refund = await server.call('POST', `/v1/orders/${id}:refund`, { body: {} });
    expect(refund.status).toBe(404);
    expect(refund.body['detail']).toContain('no custom method :refund');
  });

  it('in v1 every state × transition it has answers as v3 does, states shown its way', async () => {
    for (const state of STATES)
      for (const transition of ['pay', 'ship', 'cancel']) {
        const id = await orderIn(state);
        const answer = await server.call('POST', `/v1/orders/${id}:${transition}`, { body: INPUT[transition] ?? {} });
        const { from, to } = TRANSITIONS[transition]!;
        if (from.includes(state)) {
          expect(answer.status, `${transition} from ${state}`).toBe(200);
          expect(answer.body).toMatchObject({ status: to, qty: 1 });
        } else {
          const allowed = ['pay', 'ship', 'cancel'].filter((t) => TRANSITIONS[t]!.from.includes(state));
          expectInvalidTransition(answer, state === 'refunded' ? 'cancelled' : state, allowed);
        }
      }
  });
});

describe('the state field changes only through transitions', () => {
  it('create and update refuse it with 400, naming the transition that leads to the value sent', async () => {
    const created = await server.call('POST', '/v2/orders', { body: { customer_id: customer, product_id: 7, quantity: 1, status: 'paid' } });
    expect(created.status).toBe(400);
    expect(created.body.errors).toEqual([{ pointer: '#/status', detail: 'read-only: set by the server; to move to "paid" use POST /v2/orders/{id}:pay' }]);
    const id = await orderIn('open');
    const patched = await server.call('PATCH', `/v1/orders/${id}`, { body: { status: 'cancelled' } });
    expect(patched.body.errors).toEqual([
      { pointer: '#/status', detail: 'read-only: set by the server; to move to "cancelled" use POST /v1/orders/{id}:cancel' },
    ]);
    const unknown = await server.call('PATCH', `/v3/orders/${id}`, { body: { status: 'open' } });
    expect(unknown.body.errors![0]!.detail).toBe('read-only: set by the server; it changes only through POST /v3/orders/{id}:pay, :ship, :cancel or :refund');
    expect(await statusOf('v3', id)).toBe('open');
  });
});

describe('scopes per transition', () => {
  it('pay needs the write scopes, cancel its own scope; no credential is 401', async () => {
    const a = await orderIn('open');
    const b = await orderIn('open');
    const denied = await server.call('POST', `/v3/orders/${a}:cancel`, { token: 'clerk' });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'insufficient_scope', scopes: ['orders:cancel'] });
    expect(denied.headers.get('www-authenticate')).toContain('scope="orders:cancel"');
    expect((await server.call('POST', `/v3/orders/${a}:pay`, { token: 'clerk' })).status).toBe(200);
    expect((await server.call('POST', `/v3/orders/${b}:pay`, { token: 'canceller' })).body).toMatchObject({ status: 403, scopes: ['orders:write'] });
    expect((await server.call('POST', `/v3/orders/${b}:cancel`, { token: 'canceller' })).status).toBe(200);
    expect((await server.call('POST', `/v3/orders/${b}:ship`, { token: 'reader' })).status).toBe(403);
    expect((await server.call('POST', `/v3/orders/${b}:ship`, { token: null })).status).toBe(401);
  });
});

describe('transition input, validated per version', () => {
  it('an empty body, {} and a body that is not JSON', async () => {
    const id = await orderIn('open');
    expect((await server.call('POST', `/v3/orders/${id}:cancel`)).status).toBe(200);
    const other = await orderIn('open');
    expect((await server.call('POST', `/v3/orders/${other}:pay`, { body: {} })).status).toBe(200);
    const text = await server.call('POST', `/v3/orders/${other}:ship`, { raw: 'carrier=DHL', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
  });
  it('required fields, unknown fields and fields of later versions answer 400 with every issue', async () => {
    const id = await orderIn('paid');
    const missing = await server.call('POST', `/v3/orders/${id}:ship`, { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.errors!.map((e) => e.pointer)).toEqual(['#/carrier']);
    const extra = await server.call('POST', `/v3/orders/${id}:pay`, { body: { amount: 3 } });
    expect(extra.body.errors).toEqual([{ pointer: '#/amount', detail: 'unknown field: this version does not accept it' }]);
    // trackingCode arrives in v3.
    const early = await server.call('POST', `/v2/orders/${id}:ship`, { body: { carrier: 'DHL', trackingCode: 'JD1' } });
    expect(early.body.errors!.map((e) => e.pointer)).toEqual(['#/trackingCode']);
    const long = await server.call('POST', `/v3/orders/${id}:ship`, { body: { carrier: 'x'.repeat(41) } });
    expect(long.body.errors!.map((e) => e.pointer)).toEqual(['#/carrier']);
    expect(await statusOf('v3', id)).toBe('paid');
    expect((await server.call('POST', `/v3/orders/${id}:ship`, { body: { carrier: 'DHL', trackingCode: 'JD1' } })).body).toMatchObject({ status: 'shipped' });
  });
});

describe('the custom method route', () => {
  it('/orders/{id}:cancel and /orders/{id} route apart; an unknown verb is 404', async () => {
    const id = await orderIn('open');
    expect((await server.call('GET', `/v3/orders/${id}`)).status).toBe(200);
    const bogus = await server.call('POST', `/v3/orders/${id}:bogus`);
    expect(bogus.status).toBe(404);
    expect(bogus.body).toMatchObject({ code: 'not_found', detail: 'There is no custom method :bogus at /v3/orders/{id}.' });
    expect((await server.call('GET', `/v3/orders/${id}:bogus`)).status).toBe(404);
    expect((await server.call('DELETE', `/v3/orders/${id}:bogus`)).status).toBe(404);
    expect((await server.call('POST', `/v3/orders/${id}:pay/more`)).status).toBe(404);
    expect((await server.call('POST', `/v3/orders/${id}::pay`)).status).toBe(404);
    expect(await statusOf('v3', id)).toBe('open');
  });
  it('other methods on a transition answer 405 with Allow; OPTIONS lists POST', async () => {
    const id = await orderIn('open');
    const get = await server.call('GET', `/v3/orders/${id}:pay`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    const options = await server.call('OPTIONS', `/v3/orders/${id}:pay`);
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('POST, OPTIONS');
    const trace = await fetch(`${server.url}/v3/orders/${id}:pay`, { method: 'PROPFIND' });
    expect(trace.status).toBe(405);
  });
  it('ids with encoded characters: no such order (404); a percent-encoded colon routes as a colon', async () => {
    for (const raw of ['%E2%9C%93', 'a%2Fb', 'a%3Ab', '%20', encodeURIComponent('6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11/x')])
      expect((await server.call('POST', `/v3/orders/${raw}:pay`)).status, raw).toBe(404);
    const id = await orderIn('open');
    // Fastify's router decodes %3A before matching; ids never contain a colon, so this is unambiguous.
    expect((await server.call('POST', `/v3/orders/${id}%3Apay`)).body).toMatchObject({ status: 'paid' });
    expect((await server.call('POST', `/v3/orders/${id.toUpperCase()}:ship`, { body: { carrier: 'DHL' } })).status).toBe(404);
  });
});

describe('an Idempotency-Key makes a transition safe to retry', () => {
  it('the retry gets the first answer again (not a 409); the same key with another body is 422', async () => {
    const id = await orderIn('open');
    const headers = { 'idempotency-key': `pay-${id}` };
    const first = await server.call('POST', `/v3/orders/${id}:pay`, { body: {}, headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await server.call('POST', `/v3/orders/${id}:pay`, { body: {}, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    const cancel = { 'idempotency-key': `cancel-${id}` };
    expect((await server.call('POST', `/v3/orders/${id}:cancel`, { body: { reason: 'a' }, headers: cancel })).status).toBe(200);
    expect((await server.call('POST', `/v3/orders/${id}:cancel`, { body: { reason: 'b' }, headers: cancel })).body).toMatchObject({
      status: 422,
      code: 'idempotency_key_reused',
    });
    // Without the key the same move is not repeated: the order was paid, then cancelled.
    expectInvalidTransition(await server.call('POST', `/v3/orders/${id}:pay`, { body: {} }), 'cancelled', []);
    // The key belongs to this order and transition: another order with the same key runs on its own.
    const other = await orderIn('open');
    expect((await server.call('POST', `/v3/orders/${other}:pay`, { body: {}, headers })).headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('handlers and the state they are given', () => {
  it('a state that moves between the load and the write answers 409 with the state it moved to (the memory store checks atomically)', async () => {
    const id = await orderIn('open');
    interfere.pay = true;
    expectInvalidTransition(await server.call('POST', `/v2/orders/${id}:pay`, { body: {} }), 'cancelled', []);
    expect(await statusOf('v3', id)).toBe('cancelled');
  });
  it('a handler that answers another state than the target is a 500, logged', async () => {
    const id = await orderIn('open');
    interfere.wrongState = true;
    const answer = await server.call('POST', `/v3/orders/${id}:pay`, { body: {} });
    expect(answer.status).toBe(500);
    expect(JSON.stringify(answer.body)).not.toContain('shipped');
    expect(server.errors.join('\n')).toContain('the transition leads to \\"paid\\", the handler answered \\"shipped\\"');
  });
});

describe("a transition's own rate limit", () => {
  it('cancel allows 5 a minute per principal, besides the collection limit; pay is not counted against it', async () => {
    const limited = await start((app) => registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { authenticate, migrations: SHOP_MIGRATIONS }));
    try {
      const created = await limited.call('POST', '/v3/customers', { body: { email: 'rl@example.com', name: 'RL' } });
      const order = await limited.call('POST', '/v3/orders', { body: { customer_id: created.body['id'], product_id: 1, quantity: 1 } });
      const id = order.body['id'] as string;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await limited.call('POST', `/v3/orders/${id}:cancel`, { body: {} })).status);
      expect(statuses).toEqual([200, 409, 409, 409, 409, 429]);
      const blocked = await limited.call('POST', `/v3/orders/${id}:cancel`, { body: {} });
      expect(blocked.headers.get('ratelimit-policy')).toBe('5;w=60');
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expectInvalidTransition(await limited.call('POST', `/v3/orders/${id}:pay`, { body: {} }), 'cancelled', []);
      // Another principal has its own count.
      expect((await limited.call('POST', `/v3/orders/${id}:cancel`, { body: {}, token: 'canceller' })).status).toBe(409);
    } finally {
      await limited.close();
    }
  });
});
