/**
 * The API of the version-resolution benchmark: the bench API's orders in two date versions, selected by the
 * `Bench-Version` header (a request without it gets the principal's pinned version), with API keys, so that
 * resolution by pin has a principal to ask about.
 */
import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'versionbench',
  versions: { '2025-01-15': { released: '2025-01-15' }, '2025-09-01': { released: '2025-09-01' } },
  versioning: { in: 'header', header: 'Bench-Version', default: 'latest' },
  auth: { apiKey: { header: 'X-API-Key' } },
  collections: {
    orders: collection({
      fields: {
        id: f.id(),
        customer_id: f.uuid(),
        product_id: f.int().min(1),
        quantity: f.int().min(1).max(1000).renamedFrom('qty', '2025-09-01'),
        currency: f.enum(['EUR', 'USD']).default('EUR'),
        status: f.enum(['open', 'paid', 'shipped']).readOnly(),
        createdAt: f.datetime().readOnly(),
      },
      operations: ['list', 'get', 'create'],
      scopes: { read: 'orders:read', write: 'orders:write' },
    }),
  },
});
