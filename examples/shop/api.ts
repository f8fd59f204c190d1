/**
 * The example shop API: three versions of customers, orders (with a lifecycle: pay, ship, cancel, and
 * refund from v3, and an invoice PDF uploaded from v3) and coupons (whose writes need If-Match). Orders send events
 * (created, updated, deleted, cancelled) to webhook endpoints, each in the shape of the version the endpoint was
 * created through, and stream them to readers of `GET /vN/events` in each reader's version. Orders (and their events)
 * are readable without a token until v3. Lists filter, sort and expand: orders by status (`?status[in]=paid,shipped`),
 * by when they were placed (`?createdAt[gte]=...&sort=-createdAt`) and, from v3, by their total
 * (`?total[gte]=1000&total[lt]=5000`), with the customer expanded (`?expand=customer_id`).
 * Run `npm run example` to regenerate `examples/shop/generated/`.
 */
import { collection, defineApi, f } from 'restgen';
import { address } from './address.ts';

export default defineApi({
  name: 'shop',
  title: 'Shop API',
  description: 'Customers place orders; coupons arrive in v3.',
  versions: {
    v1: { released: '2026-01-15', deprecated: '2026-09-01', sunset: '2027-03-01' },
    v2: { released: '2026-09-01' },
    v3: {},
  },
  versioning: { in: 'path' },
  auth: {
    oauth2: {
      flows: {
        authorizationCode: { authorizationUrl: 'https://id.shop.example.com/oauth/authorize', tokenUrl: 'https://id.shop.example.com/oauth/token' },
        clientCredentials: { tokenUrl: 'https://id.shop.example.com/oauth/token' },
      },
      scopes: {
        'customers:read': 'Read customers',
        'customers:write': 'Create, change and delete customers',
        'orders:read': 'Read orders',
        'orders:write': 'Place and change orders; pay for and ship them',
        'orders:cancel': 'Cancel orders',
        'webhooks:read': 'List and read webhook endpoints',
        'webhooks:write': 'Create, change, disable and delete webhook endpoints; rotate their secrets',
      },
    },
    apiKey: { header: 'X-API-Key' },
  },
  rateLimit: { limit: 100, window: '1m' },
  collections: {
    customers: collection({
      description: 'People who buy things.',
      fields: {
        id: f.id(),
        email: f.email().unique().filterable(),
        name: f.string().min(1).max(200).optional().madeOptionalIn('v3').description('Optional since v3 for guest checkout'),
        tier: f.enum(['free', 'pro']).default('free').filterable(),
        password: f.string().min(12).max(128).writeOnly().optional().addedIn('v2'),
        shipping: address.optional().addedIn('v2'),
        tags: f.array(f.string().min(1).max(30)).max(10).default([]),
        createdAt: f.datetime().readOnly().sortable(),
      },
      scopes: { read: 'customers:read', write: 'customers:write' },
    }),
    orders: collection({
      description: 'An order of one product by one customer.',
      fields: {
        id: f.id(),
        customer_id: f.ref('customers').filterable().expandable(),
        product_id: f.int().min(1).example(7),
        quantity: f.int().min(1).max(1000).renamedFrom('qty', 'v2'),
        note: f.string().max(500).optional().removedIn('v2'),
        currency: f.enum(['EUR', 'USD']).default('EUR').addedIn('v2'),
        reference: f.string().pattern(/^[A-Z]{2}-\d{4,16}$/).optional().typeChangedFrom('v3', f.int().min(0).optional()),
        giftMessage: f.string().max(200).optional().addedIn('v2'),
        invoice: f.file({ maxBytes: 10_000_000, types: ['application/pdf'] }).optional().nullable().addedIn('v3').description('The invoice, once issued'),
        total: f.int().min(0).default(0).addedIn('v3').filterable({ ops: ['gte', 'gt', 'lte', 'lt'] }).sortable().description('The amount charged, in cents of the currency (orders placed before v3 show 0)'),
        status: f
          .enum(['open', 'paid', 'shipped', 'cancelled', 'refunded'])
          .readOnly()
          .filterable({ ops: ['eq', 'in'] })
          .valueAddedIn('v3', 'refunded', { fallback: 'cancelled' }),
        createdAt: f.datetime().readOnly().filterable({ ops: ['gte', 'lt'] }).sortable(),
      },
      operations: ['list', 'get', 'create', 'update', 'delete'],
      scopes: { read: 'orders:read', write: 'orders:write' },
      rateLimit: { limit: 20, window: '1s' },
      // Readable without a token in v1 and v2; v3 needs orders:read (a breaking change a new version may make).
      public: [
        { name: 'list', removedIn: 'v3' },
        { name: 'get', removedIn: 'v3' },
      ],
      events: ['created', 'updated', 'deleted', 'cancelled'],
      pagination: { defaultLimit: 20, maxLimit: 100 },
      lifecycle: {
        field: 'status',
        initial: 'open',
        transitions: {
          pay: { from: ['open'], to: 'paid', description: 'The customer paid for the order.' },
          ship: {
            from: ['paid'],
            to: 'shipped',
            input: { carrier: f.string().min(1).max(40), trackingCode: f.string().max(64).optional().addedIn('v3') },
          },
          cancel: {
            from: ['open', 'paid'],
            to: 'cancelled',
            input: { reason: f.string().max(200).optional() },
            scopes: 'orders:cancel',
            rateLimit: { limit: 5, window: '1m' },
          },
          refund: { from: ['paid', 'shipped'], to: 'refunded', addedIn: 'v3', description: 'Money back; v1 and v2 show the order as cancelled.' },
        },
      },
    }),
    coupons: collection({
      description: 'Discount codes.',
      fields: {
        id: f.id(),
        code: f.string().pattern(/^[A-Z0-9]{4,16}$/).unique().sortable(),
        percentOff: f.int().min(1).max(100).filterable({ ops: ['gte', 'lte'] }).sortable(),
        validUntil: f.date().nullable().filterable({ ops: ['gte', 'lt'] }).sortable(),
      },
      defaultSort: 'code',
      requireIfMatch: true,
    }).addedIn('v3'),
  },
});
