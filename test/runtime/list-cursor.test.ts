/**
 * A list's cursor digest (`packages/runtime/src/list-cursor.ts`), built per route at mount, against the digest's
 * definition written plainly here (the canonical text joined, cyrb53, `toString(36)`): on random queries of every
 * filter value kind and sort, the same 11 characters, so that cursors issued before a release (or by an instance
 * not yet upgraded) still match. And the cursor's wrapping: its own query's digest passes, another's is
 * `cursor_mismatch`, text that is not a cursor is `invalid_cursor`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base36, createQueryDigest, unwrapCursor, wrapCursor } from '../../packages/runtime/src/list-cursor.ts';
import { HttpProblem } from '../../packages/runtime/src/problems.ts';
import type { QuerySpec } from '../../packages/runtime/src/spec.ts';
import type { ListQuery } from '../../packages/runtime/src/types.ts';

/** The digest as it is defined: the canonical text of the filters (keys and operators sorted) and the sort, hashed. */
function definedDigest(query: Pick<ListQuery, 'filter' | 'sort'>): string {
  let text = '';
  for (const key of Object.keys(query.filter).sort()) {
    const ops = query.filter[key] as Record<string, unknown>;
    text += `\u0001${key}`;
    for (const op of Object.keys(ops).sort()) if (ops[op] !== undefined) text += `\u0002${op}\u0003${JSON.stringify(ops[op])}`;
  }
  for (const k of query.sort) text += `\u0004${k.field}\u0005${k.direction}`;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36).padStart(11, '0');
}

/** A route's filters as generated: `status` and `status[eq]` are one operator; `qty` is `quantity` renamed. */
const SPEC: QuerySpec = {
  filters: {
    status: ['status', 'eq'],
    'status[eq]': ['status', 'eq'],
    'status[in]': ['status', 'in'],
    'status[ne]': ['status', 'ne'],
    'qty[gte]': ['quantity', 'gte'],
    'qty[lt]': ['quantity', 'lt'],
    'createdAt[gt]': ['createdAt', 'gt'],
    'total[lte]': ['total', 'lte'],
    'Zeta[eq]': ['Zeta', 'eq'],
    'é[eq]': ['é', 'eq'],
  },
  sort: { createdAt: 'createdAt', total: 'total' },
};

const value = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 1e21, 2 ** 53),
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.boolean(),
  fc.array(fc.oneof(fc.integer(), fc.string()), { minLength: 1, maxLength: 4 }),
);
const ops = (names: readonly string[]) => fc.dictionary(fc.constantFrom(...names), value, { maxKeys: names.length });
const query = fc.record({
  filter: fc.record(
    { status: ops(['eq', 'in', 'ne']), quantity: ops(['gte', 'lt']), createdAt: ops(['gt']), total: ops(['lte']), Zeta: ops(['eq']), é: ops(['eq']) },
    { requiredKeys: [] },
  ),
  sort: fc.array(fc.record({ field: fc.constantFrom('createdAt', 'total', 'id'), direction: fc.constantFrom('asc' as const, 'desc' as const) }), {
    maxLength: 3,
  }),
});

describe('the cursor digest', () => {
  const digest = createQueryDigest(SPEC);

  it('is the defined digest of the canonical text, for any filters and sort the route can hold', () => {
    fc.assert(
      fc.property(query, (q) => {
        // The structured query holds an operator's object only when a value was given for it.
        const filter = Object.fromEntries(Object.entries(q.filter).filter(([, o]) => Object.keys(o).length > 0));
        expect(digest({ filter, sort: q.sort })).toBe(definedDigest({ filter, sort: q.sort }));
      }),
      { numRuns: 2000 },
    );
  });

  it('is that of the empty text for a list without filters or sort, and tells queries apart', () => {
    expect(digest({ filter: {}, sort: [] })).toBe(definedDigest({ filter: {}, sort: [] }));
    const ranged = { filter: { quantity: { gte: 1, lt: 1000 } }, sort: [{ field: 'createdAt', direction: 'desc' as const }] };
    expect(digest(ranged)).toBe(definedDigest(ranged));
    expect(digest(ranged)).not.toBe(digest({ ...ranged, sort: [{ field: 'createdAt', direction: 'asc' }] }));
    expect(digest(ranged)).not.toBe(digest({ ...ranged, filter: { quantity: { gte: 1, lt: 999 } } }));
    expect(digest(ranged)).not.toBe(digest({ filter: {}, sort: [] }));
  });

  it('writes a hash in 11 base-36 digits as toString(36) does', () => {
    for (const n of [0, 1, 35, 36, 1295, 1296, 36 ** 10 - 1, 36 ** 10, 2 ** 53 - 1]) expect(base36(n), String(n)).toBe(n.toString(36).padStart(11, '0'));
    fc.assert(fc.property(fc.maxSafeNat(), (n) => base36(n) === n.toString(36).padStart(11, '0')));
  });
});

describe('a cursor bound to its query', () => {
  it('gives back the handler’s cursor for its own query, and answers 400 for another query or text of no cursor', () => {
    const digest = createQueryDigest(SPEC)({ filter: { status: { eq: 'paid' } }, sort: [] });
    const other = createQueryDigest(SPEC)({ filter: { status: { eq: 'open' } }, sort: [] });
    const cursor = wrapCursor(digest, 'inner.with.dots');
    expect(unwrapCursor(cursor, digest)).toBe('inner.with.dots');
    const mismatch = unwrapCursor(cursor, other);
    expect(mismatch).toBeInstanceOf(HttpProblem);
    expect((mismatch as HttpProblem).toProblem()).toMatchObject({ status: 400, code: 'cursor_mismatch', errors: [{ pointer: '/query/cursor' }] });
    for (const text of ['garbage', `${digest}.`, `${digest.toUpperCase()}.x`, `.${digest}`])
      expect((unwrapCursor(text, digest) as HttpProblem).toProblem(), text).toMatchObject({ status: 400, code: 'invalid_cursor' });
  });
});
