/**
 * The API of the server benchmark: one collection in three versions with a rename, a removed field with a
 * fallback and a field added with a default, so the oldest version's routes migrate both ways; a range filter
 * on the renamed field and a sort key, for lists that query. No auth and no rate limit: the benchmark compares
 * routing, validation and migration with a hand-written route.
 */
import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'bench',
  versions: { v1: { released: '2026-01-01' }, v2: { released: '2026-02-01' }, v3: { released: '2026-03-01' } },
  collections: {
    orders: collection({
      fields: {
        id: f.id(),
        customer_id: f.uuid(),
        product_id: f.int().min(1),
        quantity: f
          .int()
          .min(1)
          .max(1000)
          .renamedFrom('qty', 'v2')
          .filterable({ ops: ['gte', 'lt'] }),
        note: f.string().max(500).removedIn('v3', { fallback: '' }),
        currency: f.enum(['EUR', 'USD']).default('EUR').addedIn('v2'),
        giftMessage: f.string().max(200).optional().addedIn('v3'),
        status: f.enum(['open', 'paid', 'shipped']).readOnly(),
        createdAt: f.datetime().readOnly().sortable(),
      },
      operations: ['list', 'get', 'create'],
    }),
  },
});
