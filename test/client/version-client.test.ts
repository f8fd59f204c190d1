/**
 * The per-version entries of the generated index (`createShopV2Client`, `createNotesV2025_06Client`): a
 * client of one version alone, typed and sending exactly as the same version of the client of every
 * version (its path prefix or its versioning header, credentials, transitions).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { type createNotesClient, createNotesV2025_06Client } from '../../examples/header-versioning/generated/client/index.js';
import { createShopClient, createShopV2Client, type FetchInit } from '../../examples/shop/generated/client/index.js';

const ORDER = { id: 'o1', customer_id: 'c1', product_id: 7, quantity: 2, currency: 'EUR', status: 'open', createdAt: '2026-10-01T00:00:00Z' };

/** A `fetch` that answers `body` and records what it was asked. */
function recorder(body: unknown): { fetch: (url: string, init: FetchInit) => Promise<Response>; seen: [string, string, Record<string, string>][] } {
  const seen: [string, string, Record<string, string>][] = [];
  return {
    seen,
    fetch: async (url, init) => {
      seen.push([init.method, url, Object.fromEntries(init.headers)]);
      return Response.json(body);
    },
  };
}

describe('a client of one version', () => {
  it('is typed as that version of the client of every version', () => {
    expectTypeOf(createShopV2Client).returns.toEqualTypeOf<ReturnType<typeof createShopClient>['v2']>();
    expectTypeOf(createNotesV2025_06Client).returns.toEqualTypeOf<ReturnType<typeof createNotesClient>['2025-06']>();
  });

  it("sends what the same version's namespace sends: path prefix, credential, transitions", async () => {
    const alone = recorder(ORDER);
    const every = recorder(ORDER);
    const calls = async (v2: ReturnType<typeof createShopV2Client>): Promise<void> => {
      await v2.orders.get('o1');
      await v2.orders.cancel('o1', undefined, { idempotencyKey: 'k' });
    };
    await calls(createShopV2Client({ baseUrl: 'https://api.example.com/', bearer: 'TOKEN', fetch: alone.fetch }));
    await calls(createShopClient({ baseUrl: 'https://api.example.com/', bearer: 'TOKEN', fetch: every.fetch }).v2);
    expect(alone.seen).toEqual(every.seen);
    expect(alone.seen.map(([method, url, headers]) => [method, url, headers['authorization']])).toEqual([
      ['GET', 'https://api.example.com/v2/orders/o1', 'Bearer TOKEN'],
      ['POST', 'https://api.example.com/v2/orders/o1:cancel', 'Bearer TOKEN'],
    ]);
  });

  it('selects its version by the header where the API versions by header', async () => {
    const { fetch, seen } = recorder({ data: [], next_cursor: null });
    const notes = createNotesV2025_06Client({ baseUrl: 'https://notes.example.com', fetch });
    const first = Object.keys(notes)[0]! as keyof typeof notes;
    await (notes[first] as (typeof notes)['notes']).list();
    expect(seen).toHaveLength(1);
    const [, url, headers] = seen[0]!;
    // No path prefix: the version is the Api-Version header.
    expect([url, headers['api-version']]).toEqual([`https://notes.example.com/${first}`, '2025-06']);
  });
});
