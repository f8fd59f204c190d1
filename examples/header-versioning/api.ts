/**
 * A small API versioned by a request header instead of the path: `Api-Version: 2025-01` or `2025-06`.
 * One set of paths (`/notes`, `/notes/{id}`); `title` was called `heading` before 2025-06, tags arrived
 * with 2025-06, and tags can be replaced only from then on. No auth: every operation is public.
 */
import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'notes',
  title: 'Notes API',
  versions: {
    '2025-01': { released: '2025-01-10', deprecated: '2025-06-01', sunset: '2030-01-01' },
    '2025-06': { released: '2025-06-01' },
  },
  versioning: { in: 'header', header: 'Api-Version' },
  collections: {
    notes: collection({
      fields: {
        id: f.id(),
        title: f.string().min(1).max(100).renamedFrom('heading', '2025-06'),
        body: f.string().max(10_000).default(''),
        pinned: f.boolean().default(false).filterable(),
        tags: f.array(f.string().min(1).max(20)).max(5).default([]).addedIn('2025-06'),
        updatedAt: f.datetime().readOnly(),
      },
      operations: ['list', 'get', 'create', 'update', 'delete', { name: 'replace', addedIn: '2025-06' }],
      pagination: { defaultLimit: 2, maxLimit: 3 },
    }),
    labels: collection({ fields: { id: f.id(), name: f.string().min(1).unique() }, pagination: { defaultLimit: 2, maxLimit: 3 } }).addedIn('2025-06'),
  },
});
