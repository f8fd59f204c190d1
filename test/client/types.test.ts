/**
 * Type tests of the generated client (the golden copy of the example's client, which the project's tsc
 * checks): each version's methods take exactly that version's fields, an operation or collection a
 * version lacks is a type error, results are typed per version, and narrowed by a query's `fields` (only those,
 * and the id) and `expand` (the ref becomes the resource it names). The `@ts-expect-error` lines fail the type
 * check when the error they expect disappears. At run time, the namespaces hold the same operations.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  clientCredentials,
  createShopClient,
  type ApiPromise,
  type Page,
  type PagePromise,
  type ShopClient,
  type ShopClientOptions,
  type V1,
  type V2,
  type V3,
} from '../../examples/shop/generated/client/index.js';
import type { NotesClientOptions as HeaderOptions } from '../../examples/header-versioning/generated/client/index.js';

// Only type-checked, never called: no server is needed.
function typeChecks(shop: ShopClient): void {
  // v1 knows `qty` and `note`; v2 renamed qty to quantity, removed note and added currency.
  void shop.v1.orders.create({ customer_id: 'c', product_id: 7, qty: 2, note: 'hi' });
  // @ts-expect-error v1 has no `quantity` (it is `qty` there)
  void shop.v1.orders.create({ customer_id: 'c', product_id: 7, quantity: 2 });
  // @ts-expect-error v1 has no `currency` (added in v2)
  void shop.v1.orders.create({ customer_id: 'c', product_id: 7, qty: 2, currency: 'EUR' });
  void shop.v2.orders.create({ customer_id: 'c', product_id: 7, quantity: 2, currency: 'USD' });
  // @ts-expect-error v2 has no `qty`
  void shop.v2.orders.create({ customer_id: 'c', product_id: 7, qty: 2 });
  // @ts-expect-error v2 removed `note`
  void shop.v2.orders.update('id', { note: 'x' });
  // @ts-expect-error `status` is read-only: never in a request
  void shop.v2.orders.update('id', { status: 'paid' });
  // @ts-expect-error not a currency
  void shop.v2.orders.create({ customer_id: 'c', product_id: 7, quantity: 2, currency: 'GBP' });
  // reference changed type in v3: a number before, a string since.
  void shop.v2.orders.update('id', { reference: 12 });
  // @ts-expect-error v3's reference is a string
  void shop.v3.orders.update('id', { reference: 12 });
  // name became optional in v3 only.
  // @ts-expect-error v2 requires a customer's name
  void shop.v2.customers.create({ email: 'a@b.c' });
  void shop.v3.customers.create({ email: 'a@b.c' });

  // @ts-expect-error orders offer no replace in any version
  void shop.v2.orders.replace;
  void shop.v2.customers.replace('id', { email: 'a@b.c', name: 'A' });
  // @ts-expect-error coupons arrive in v3
  void shop.v2.coupons;
  void shop.v3.coupons.list();

  // List filters are the filterable fields of the version, each with its operators; a plain value is `eq`.
  void shop.v2.orders.list({ filter: { status: 'paid' }, limit: 10 });
  void shop.v2.orders.list({ filter: { status: { in: ['paid', 'shipped'] }, createdAt: { gte: '2026-01-01T00:00:00Z' } } });
  // @ts-expect-error product_id is not filterable
  void shop.v2.orders.list({ filter: { product_id: 7 } });
  // @ts-expect-error status takes eq and in, not ne
  void shop.v2.orders.list({ filter: { status: { ne: 'paid' } } });
  // @ts-expect-error createdAt takes ranges only, not equality
  void shop.v2.orders.list({ filter: { createdAt: '2026-01-01T00:00:00Z' } });
  // @ts-expect-error the filter takes the version's enum values
  void shop.v2.orders.list({ filter: { status: 'lost' } });
  // refunded arrives in v3: v2's filter and answers do not know it.
  // @ts-expect-error v2 has no 'refunded' state
  void shop.v2.orders.list({ filter: { status: 'refunded' } });
  void shop.v3.orders.list({ filter: { status: 'refunded', total: { gte: 1000, lt: 5000 } }, sort: ['-createdAt', 'total'] });
  // @ts-expect-error total arrives in v3
  void shop.v2.orders.list({ filter: { total: { gte: 1 } } });
  // @ts-expect-error quantity is no sort key
  void shop.v3.orders.list({ sort: ['quantity'] });
  // @ts-expect-error a mask names fields of the version (v3 has no qty)
  void shop.v3.orders.list({ fields: ['qty'] });
  // @ts-expect-error only the customer expands
  void shop.v3.orders.list({ expand: ['product_id'] });
  // @ts-expect-error a write expands, but shows every field
  void shop.v3.orders.create({ customer_id: 'c', product_id: 7, quantity: 2 }, { fields: ['id'] });

  // Transitions are methods per version, typed with that version's input; an input without required fields may be left out.
  void shop.v1.orders.pay('id');
  void shop.v2.orders.cancel('id', { reason: 'changed my mind' });
  void shop.v2.orders.cancel('id');
  void shop.v2.orders.ship('id', { carrier: 'DHL' });
  // @ts-expect-error ship needs a carrier
  void shop.v2.orders.ship('id');
  // @ts-expect-error trackingCode arrives in v3
  void shop.v2.orders.ship('id', { carrier: 'DHL', trackingCode: 'X1' });
  void shop.v3.orders.ship('id', { carrier: 'DHL', trackingCode: 'X1' });
  // @ts-expect-error refund arrives in v3
  void shop.v2.orders.refund;
  void shop.v3.orders.refund('id');
  // @ts-expect-error pay takes no input
  void shop.v3.orders.pay('id', { amount: 3 });
  // @ts-expect-error customers have no lifecycle
  void shop.v3.customers.pay;
  // Conditional requests: an ETag, or a resource the client returned.
  void shop.v3.coupons.update('id', { percentOff: 5 }, { ifMatch: '"abc"' });
  void shop.v3.orders.get('id', { ifNoneMatch: '"abc"' });
}

/** A client whose requests never leave (its fetch never settles): the calls below are there for their types. */
const idle = (): ShopClient => createShopClient({ baseUrl: 'http://127.0.0.1:1', fetch: () => new Promise<Response>(() => {}) });

describe('generated client types', () => {
  it('types results per version', () => {
    const shop = idle();
    expectTypeOf(shop.v1.orders.get('id')).toEqualTypeOf<ApiPromise<V1.Order>>();
    expectTypeOf<V1.Order>().toHaveProperty('qty').toEqualTypeOf<number>();
    expectTypeOf<V1.Order>().not.toHaveProperty('quantity');
    expectTypeOf<V2.Order>().toHaveProperty('quantity').toEqualTypeOf<number>();
    expectTypeOf<V2.Order>().toHaveProperty('currency').toEqualTypeOf<'EUR' | 'USD'>();
    expectTypeOf<V2.Order>().not.toHaveProperty('note');
    expectTypeOf<V3.Order['reference']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<V2.Order['reference']>().toEqualTypeOf<number | undefined>();
    // Write-only fields are never answered; fields with defaults always are.
    expectTypeOf<V2.Customer>().not.toHaveProperty('password');
    expectTypeOf<V2.CustomerCreate>().toHaveProperty('password').toEqualTypeOf<string | undefined>();
    expectTypeOf<V2.Customer['tier']>().toEqualTypeOf<'free' | 'pro'>();
    expectTypeOf<V2.CustomerCreate['tier']>().toEqualTypeOf<'free' | 'pro' | undefined>();
    expectTypeOf<V3.Coupon['validUntil']>().toEqualTypeOf<string | null>();
    expectTypeOf(shop.v2.orders.list()).toEqualTypeOf<PagePromise<V2.Order>>();
    expectTypeOf(shop.v2.orders.list({ filter: { status: 'paid' } })).resolves.toEqualTypeOf<Page<V2.Order>>();
    expectTypeOf<ShopClient['v2']['orders']['delete']>().returns.toEqualTypeOf<ApiPromise<void>>();
    expectTypeOf<ShopClient['v2']['orders']>().not.toHaveProperty('replace');
    expectTypeOf<ShopClient['v2']>().not.toHaveProperty('coupons');
    expectTypeOf<ShopClientOptions>().toHaveProperty('apiKey');
    expectTypeOf(shop.v2.orders.cancel('id')).toEqualTypeOf<ApiPromise<V2.Order>>();
    expectTypeOf<V1.Order['status']>().toEqualTypeOf<'open' | 'paid' | 'shipped' | 'cancelled'>();
    expectTypeOf<V3.Order['status']>().toEqualTypeOf<'open' | 'paid' | 'shipped' | 'cancelled' | 'refunded'>();
    // The event stream: typed events of the version, types named as the version has them.
    type Streamed = V1.WebhookEvent & { readonly id: string };
    expectTypeOf<ShopClient['v1']['events']['stream']>().returns.toExtend<AsyncIterable<Streamed>>();
    expectTypeOf<NonNullable<Parameters<ShopClient['v1']['events']['stream']>[0]>['types']>().toEqualTypeOf<
      readonly ('order.created' | 'order.updated' | 'order.deleted' | 'order.cancelled')[] | undefined
    >();
    // OAuth 2.0: the client can fetch its own tokens (the token URL defaults to the declared one).
    expectTypeOf<Parameters<typeof clientCredentials>[0]['tokenUrl']>().toEqualTypeOf<string | undefined>();
    expectTypeOf(clientCredentials({ clientId: 'a', clientSecret: 'b' })).toEqualTypeOf<NonNullable<ShopClientOptions['auth']>>();
    expectTypeOf<HeaderOptions>().not.toHaveProperty('auth');
    expectTypeOf<HeaderOptions>().not.toHaveProperty('bearer');
    // The webhook endpoints' create and rotateSecret answer the signing secret; no other answer shows it.
    expectTypeOf<Awaited<ReturnType<ShopClient['v3']['webhook_endpoints']['create']>>>().toEqualTypeOf<V3.WebhookEndpointWithSecret>();
    expectTypeOf<Awaited<ReturnType<ShopClient['v3']['webhook_endpoints']['create']>>['secret']>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<ReturnType<ShopClient['v1']['webhook_endpoints']['rotateSecret']>>['secret']>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<ReturnType<ShopClient['v3']['webhook_endpoints']['get']>>['secret']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Awaited<ReturnType<ShopClient['v3']['webhook_endpoints']['disable']>>['secret']>().toEqualTypeOf<string | undefined>();
    expect(typeChecks).toBeTypeOf('function');
  });

  it('narrows what a list, a get and a write answer by the fields and refs they ask for', () => {
    const shop = idle();
    const page = shop.v3.orders.list({ filter: { total: { gte: 10 } }, sort: ['-createdAt'], fields: ['total', 'status'], expand: ['customer_id'] });
    type Item = Awaited<typeof page>['data'][number];
    expectTypeOf<keyof Item>().toEqualTypeOf<'id' | 'customer_id' | 'total' | 'status'>();
    expectTypeOf<Item['total']>().toEqualTypeOf<number>();
    expectTypeOf<Item['status']>().toEqualTypeOf<V3.Order['status']>();
    // The expanded ref is the customer as v3 shows it (null when it no longer exists).
    expectTypeOf<Item['customer_id']>().toEqualTypeOf<V3.Customer | null>();
    // Without a mask every field is there.
    type Expanded = Awaited<ReturnType<typeof shop.v1.orders.get<{ expand: readonly ['customer_id'] }>>>;
    expectTypeOf<keyof Expanded>().toEqualTypeOf<keyof V1.Order>();
    expectTypeOf<Expanded['customer_id']>().toEqualTypeOf<V1.Customer | null>();
    expectTypeOf<Expanded['qty']>().toEqualTypeOf<number>();
    expectTypeOf(shop.v3.customers.get('c', { fields: ['name'] })).resolves.toEqualTypeOf<{ id: string; name?: string }>();
    expectTypeOf(shop.v3.orders.pay('o', {}, { expand: ['customer_id'] }))
      .resolves.toHaveProperty('customer_id')
      .toEqualTypeOf<V3.Customer | null>();
    // Iterating every page walks items of the same narrowed type.
    expectTypeOf(shop.v3.orders.list({ fields: ['total'] })).toMatchTypeOf<AsyncIterable<{ id: string; total: number }>>();
  });

  it('offers at run time exactly the operations each version declares', () => {
    const shop = createShopClient({ baseUrl: 'http://127.0.0.1:1' });
    expect(Object.keys(shop)).toEqual(['v1', 'v2', 'v3']);
    // Versions with events also have their event stream.
    expect(Object.keys(shop.v1)).toEqual(['customers', 'orders', 'webhook_endpoints', 'events']);
    expect(Object.keys(shop.v3)).toEqual(['customers', 'orders', 'coupons', 'webhook_endpoints', 'events']);
    expect(Object.keys(shop.v3.events)).toEqual(['stream']);
    expect(Object.keys(shop.v2.orders)).toEqual(['list', 'get', 'create', 'update', 'delete', 'pay', 'ship', 'cancel']);
    // v3 orders have an invoice: its download beside the operations and transitions.
    expect(Object.keys(shop.v3.orders)).toEqual(['list', 'get', 'create', 'update', 'delete', 'pay', 'ship', 'cancel', 'refund', 'download']);
    expect(Object.keys(shop.v2.customers)).toEqual(['list', 'get', 'create', 'replace', 'update', 'delete']);
  });
});
