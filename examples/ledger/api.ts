/**
 * A ledger API whose versions are dates, operated like Stripe's and GitHub's: the `Ledger-Version` header
 * names a version (or a date, which resolves to the newest released version on or before it); a request
 * without it gets the version its principal is pinned to (the server's `pinnedVersion` option), else the
 * newest released version (`default: 'latest'`); every answer echoes the version that served it.
 * 2025-01-15 is deprecated, with a sunset, an hour of brownout to warn the clients still calling it and a page
 * on how to move off it; 2025-09-01 is the current version; 2026-03-01 is not released yet. It is served in
 * production and in a sandbox: the documents list both, and the generated client talks to production unless given
 * another `baseUrl`.
 */
import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'ledger',
  title: 'Ledger API',
  versions: {
    '2025-01-15': {
      released: '2025-01-15',
      deprecated: '2026-01-01',
      sunset: '2027-06-01',
      brownouts: [{ start: '2026-06-01T10:00:00Z', end: '2026-06-01T11:00:00Z' }],
      docs: 'https://docs.example.com/upgrade/2025-01-15',
    },
    '2025-09-01': { released: '2025-09-01' },
    '2026-03-01': {},
  },
  versioning: { in: 'header', header: 'Ledger-Version', default: 'latest' },
  servers: [
    { url: 'https://api.ledger.example', description: 'Production' },
    { url: 'https://sandbox.api.ledger.example', description: 'Sandbox: test keys, no real money' },
  ],
  auth: { apiKey: { header: 'X-API-Key' } },
  collections: {
    accounts: collection({
      fields: {
        id: f.id(),
        name: f.string().min(1).max(100).renamedFrom('holder', '2025-09-01'),
        currency: f.enum(['EUR', 'USD', 'GBP']).filterable(),
        overdraftLimit: f.int().min(0).default(0).addedIn('2025-09-01').description('In minor units (cents).'),
        createdAt: f.datetime().readOnly(),
      },
      scopes: { read: 'ledger:read', write: 'ledger:write' },
      events: ['created'],
    }),
    transactions: collection({
      fields: {
        id: f.id(),
        account_id: f.ref('accounts').filterable(),
        amountMinor: f.int().min(1).renamedFrom('amount', '2025-09-01').description('In minor units (cents).'),
        direction: f.enum(['credit', 'debit']).filterable(),
        description: f.string().max(140).optional().renamedFrom('memo', '2025-09-01'),
        reference: f.string().max(64).optional().addedIn('2026-03-01'),
        bookedAt: f.datetime().readOnly(),
      },
      operations: ['list', 'get', 'create'],
      scopes: { read: 'ledger:read', write: 'ledger:write' },
    }),
  },
});
