/**
 * A method's result is a real `Promise` (issue 29: it goes wherever a `Promise<T>` does; before, a
 * `PromiseLike` missing `[Symbol.toStringTag]`), with `withResponse()` beside it, and a list's also
 * walks pages. Against a loopback server: one request however the result is consumed, plain promises from
 * `then`, and no unhandled rejection when a failure is read through `withResponse()` only.
 */
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { NotFoundError, createShopClient, type ApiPromise, type Page, type PagePromise, type V2 } from '../../examples/shop/generated/client/index.js';
import { problem, startFaultServer, type FaultServer } from './fault-server.ts';

const ORDER = { id: 'o1', customer_id: 'c1', product_id: 7, quantity: 2, currency: 'EUR', status: 'open', createdAt: '2026-10-01T00:00:00Z' };
let server: FaultServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('ApiPromise is a Promise', () => {
  it('is assignable wherever a Promise of the data is expected (types)', () => {
    expectTypeOf<ApiPromise<V2.Order>>().toExtend<Promise<V2.Order>>();
    expectTypeOf<PagePromise<V2.Order>>().toExtend<Promise<Page<V2.Order>>>();
    expectTypeOf<PagePromise<V2.Order>>().toExtend<AsyncIterable<V2.Order>>();
    expectTypeOf<ApiPromise<V2.Order>['withResponse']>().returns.toEqualTypeOf<Promise<{ data: V2.Order; response: Response }>>();
    // What TS2741 refused: a result typed as a Promise, in Promise.all, returned from an async function.
    const shop = createShopClient({ baseUrl: 'http://127.0.0.1:1' });
    const typed = (): [Promise<V2.Order>, Promise<Page<V2.Customer>>, Promise<[V2.Order, Page<V2.Order>]>] => [
      shop.v2.orders.get('o1'),
      shop.v2.customers.list(),
      Promise.all([shop.v2.orders.get('o1'), shop.v2.orders.list()]),
    ];
    expect(typed).toBeTypeOf('function');
  });

  it('is a Promise at run time, and one request answers await and withResponse()', async () => {
    server = await startFaultServer((_, seen) =>
      seen.url === '/v2/orders' ? { status: 200, body: { data: [ORDER], next_cursor: null } } : { status: 200, headers: { 'x-request-id': 'r1' }, body: ORDER },
    );
    const shop = createShopClient({ baseUrl: server.url });
    const pending = shop.v2.orders.get('o1');
    expect(pending).toBeInstanceOf(Promise);
    expect(Object.prototype.toString.call(pending)).toBe('[object Promise]');
    await expect(pending).resolves.toEqual(ORDER);
    const { data, response } = await pending.withResponse();
    expect(data).toEqual(ORDER);
    expect(response.headers.get('x-request-id')).toBe('r1');
    expect(server.seen).toHaveLength(1);
    // `then` answers a plain promise: only the request's own promise has a response.
    const chained = pending.then((o) => o.id);
    expect(chained).toBeInstanceOf(Promise);
    expect(chained).not.toHaveProperty('withResponse');
    await expect(chained).resolves.toBe('o1');
    const [one, page] = await Promise.all([shop.v2.orders.get('o1'), shop.v2.orders.list()]);
    expect(one).toEqual(ORDER);
    expect(page).toEqual({ data: [ORDER], next_cursor: null });
  });

  it('a failure read through withResponse() only leaves no unhandled rejection', async () => {
    server = await startFaultServer([problem(404, 'Not Found')]);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const error = await createShopClient({ baseUrl: server.url })
        .v2.orders.get('o1')
        .withResponse()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a list page is a Promise too, and still walks its pages', async () => {
    server = await startFaultServer((n) => ({ status: 200, body: { data: [{ id: `o${n}` }], next_cursor: n < 2 ? `c${n + 1}` : null } }));
    const list = createShopClient({ baseUrl: server.url }).v2.orders.list();
    expect(list).toBeInstanceOf(Promise);
    const ids: string[] = [];
    for await (const order of list) ids.push(order.id);
    expect(ids).toEqual(['o0', 'o1', 'o2']);
  });
});
