/**
 * `packages/runtime/src/memory-store.ts` as source: unique values through an index (freed on update and
 * delete, O(1) per request), cursors in creation order and keyset cursors in a sort, every filter operator, masks
 * and reads of several ids, a bounded store, and lifecycle transitions and write preconditions checked in the same
 * step as the write. (That a cursor was issued for the same sort and filters the runtime checks, see list-query.)
 */
import { describe, expect, it } from 'vitest';
import { createMemoryCollection, decodeCursor, encodeCursor, type MemorySpec, type MemoryTransition } from '../../packages/runtime/src/memory-store.ts';
import { HttpProblem, InvalidTransition, PreconditionFailed } from '../../packages/runtime/src/problems.ts';
import type { ListQuery, Page } from '../../packages/runtime/src/types.ts';
import { iterationSteps } from '../helpers/iteration-steps.ts';

const SPEC: MemorySpec = { name: 'users', id: 'id', assign: [['id', 'uuid']], unique: ['email'], readOnly: ['id'], lifecycle: null };
type User = { id: string; email: string; tier: string };
const ctx = {} as never;
/** A list query as the runtime hands it over: no filter, the handlers' own order, every field. */
const q = (over: Partial<ListQuery> & { limit: number }): ListQuery => ({ filter: {}, sort: [], fields: null, expand: [], ...over });

describe('unique values', () => {
  it('a taken value is 409; updating or deleting its holder frees it', async () => {
    const users = createMemoryCollection<User>(SPEC);
    const a = (await users.create({ email: 'a@x', tier: 'free' }, ctx)) as User;
    expect(await users.create({ email: 'a@x', tier: 'pro' }, ctx)).toMatchObject({ status: 409, members: { field: 'email' } });
    await users.update(a.id, { email: 'b@x' }, ctx);
    expect(await users.create({ email: 'a@x', tier: 'pro' }, ctx)).toMatchObject({ email: 'a@x' });
    expect(await users.create({ email: 'b@x', tier: 'pro' }, ctx)).toBeInstanceOf(HttpProblem);
    await users.delete(a.id, ctx);
    expect(await users.create({ email: 'b@x', tier: 'pro' }, ctx)).toMatchObject({ email: 'b@x' });
  });

  it('a resource keeps its own value on replace and update', async () => {
    const users = createMemoryCollection<User>(SPEC);
    const a = (await users.create({ email: 'a@x', tier: 'free' }, ctx)) as User;
    expect(await users.replace(a.id, { email: 'a@x', tier: 'pro' }, ctx)).toMatchObject({ tier: 'pro' });
    expect(await users.update(a.id, { email: 'a@x' }, ctx)).toMatchObject({ email: 'a@x' });
  });

  it('the check does not scan every record: a create does as much work with 15,000 records as with none', async () => {
    const users = createMemoryCollection<User>(SPEC);
    const creates = (from: number, count: number) =>
      iterationSteps(async () => {
        for (let i = from; i < from + count; i++) await users.create({ email: `${i}@x`, tier: 'free' }, ctx);
      });
    const first = await creates(0, 100);
    await creates(100, 14_900);
    // A scan per create would step through the 15,000 records held: 1.5 million steps for these 100.
    expect(await creates(15_000, 100)).toBeLessThanOrEqual(first);
  });
});

describe('cursors', () => {
  it('walk every record once, page by page', async () => {
    const users = createMemoryCollection<User>(SPEC);
    for (let i = 0; i < 5; i++) await users.create({ email: `${i}@x`, tier: i % 2 ? 'pro' : 'free' }, ctx);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await users.list(q({ limit: 2, ...(cursor ? { cursor } : {}) }), ctx)) as Page<User>;
      seen.push(...page.data.map((u) => u.email));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['0@x', '1@x', '2@x', '3@x', '4@x']);
  });

  it('a cursor of the same filters walks on with another page size; a cursor this store did not issue is a 400', async () => {
    const users = createMemoryCollection<User>(SPEC);
    for (let i = 0; i < 5; i++) await users.create({ email: `${i}@x`, tier: i < 3 ? 'pro' : 'free' }, ctx);
    const pro = (await users.list(q({ limit: 2, filter: { tier: { eq: 'pro' } } }), ctx)) as Page<User>;
    expect(pro.next_cursor).not.toBeNull();
    expect(await users.list(q({ limit: 5, filter: { tier: { eq: 'pro' } }, cursor: pro.next_cursor! }), ctx)).toMatchObject({ data: [{ email: '2@x' }] });
    for (const cursor of ['x12', 's', 'k!!', `k${Buffer.from('[1,2]').toString('base64url')}`])
      expect(await users.list(q({ limit: 2, cursor, sort: cursor.startsWith('k') ? [{ field: 'id', direction: 'asc' }] : [] }), ctx)).toMatchObject({
        status: 400,
        members: { errors: [{ parameter: 'cursor' }] },
      });
  });

  it('a deep page costs what the first one does: the cursor seeks, it does not walk every earlier record', async () => {
    const users = createMemoryCollection<User>(SPEC);
    for (let i = 0; i < 20_000; i++) await users.create({ email: `${i}@x`, tier: 'free' }, ctx);
    const first = (await users.list(q({ limit: 100 }), ctx)) as Page<User>;
    let deep: string | undefined = first.next_cursor!;
    for (let i = 0; i < 198; i++) deep = ((await users.list(q({ limit: 100, cursor: deep }), ctx)) as Page<User>).next_cursor!;
    const shallow = await iterationSteps(() => users.list(q({ limit: 100 }), ctx));
    const last = await iterationSteps(() => users.list(q({ limit: 100, cursor: deep }), ctx));
    expect(((await users.list(q({ limit: 100, cursor: deep }), ctx)) as Page<User>).data.map((u) => u.email)[99]).toBe('19999@x');
    // Reading the cursor adds a few steps; before, the last page walked the 19,900 earlier records.
    expect(last).toBeLessThan(shallow + 100);
  });

  it('seeks past deleted records and keeps order after many deletes', async () => {
    const users = createMemoryCollection<User>(SPEC);
    const made: User[] = [];
    for (let i = 0; i < 50; i++) made.push((await users.create({ email: `${i}@x`, tier: 'free' }, ctx)) as User);
    for (let i = 0; i < 50; i++) if (i % 3 !== 0) await users.delete(made[i]!.id, ctx);
    await users.update(made[3]!.id, { tier: 'pro' }, ctx);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await users.list(q({ limit: 4, ...(cursor ? { cursor } : {}) }), ctx)) as Page<User>;
      seen.push(...page.data.map((u) => u.email));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(made.filter((_, i) => i % 3 === 0).map((u) => u.email));
    await users.create({ email: 'new@x', tier: 'free' }, ctx);
    expect(((await users.list(q({ limit: 100 }), ctx)) as Page<User>).data.map((u) => u.email).at(-1)).toBe('new@x');
  });

  it('decode only what encode made', () => {
    expect(decodeCursor(encodeCursor(42))).toBe(42);
    expect(decodeCursor('not-a-cursor')).toBeNull();
    expect(decodeCursor('s1234567890123456')).toBeNull();
  });
});

type Book = { id: string; title: string; price?: number | null; at: string; genre: string };
const BOOKS: MemorySpec = { name: 'books', id: 'id', assign: [], unique: [], readOnly: ['id'], instants: ['at'], lifecycle: null };
const book = (n: number, over: Partial<Book> = {}): Book => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  title: `t${n}`,
  price: n * 10,
  at: `2026-01-01T00:00:0${n}Z`,
  genre: n % 2 ? 'poetry' : 'drama',
  ...over,
});

describe('filters, sorts and masks', () => {
  const seed = [
    book(1),
    book(2, { price: null }),
    book(3, { at: '2026-01-01T02:00:02+02:00', title: 'é' }),
    book(4, { title: '\uf8ff' }),
    book(5, { price: 20, title: '😀' }),
  ];
  const books = createMemoryCollection<Book>(BOOKS, seed);
  const ids = async (query: Partial<ListQuery>) => ((await books.list(q({ limit: 100, ...query }), ctx)) as Page<Book>).data.map((b) => Number(b.id.slice(-2)));

  it('implements every operator; several on one field combine with AND; null and absent never match', async () => {
    expect(await ids({ filter: { price: { eq: 20 } } })).toEqual([5]);
    expect(await ids({ filter: { price: { ne: 20 } } })).toEqual([1, 3, 4]);
    expect(await ids({ filter: { price: { in: [10, 40] } } })).toEqual([1, 4]);
    expect(await ids({ filter: { price: { gte: 20, lt: 40 } } })).toEqual([3, 5]);
    expect(await ids({ filter: { price: { gt: 20, lte: 40 } } })).toEqual([3, 4]);
    expect(await ids({ filter: { price: { gte: 10 }, genre: { in: ['poetry'] } } })).toEqual([1, 3, 5]);
  });

  it('compares date-times by instant and other text by code point', async () => {
    // Book 3's 02:00:02+02:00 is 00:00:02Z: the same instant as book 2's.
    expect(await ids({ filter: { at: { eq: '2026-01-01T00:00:02Z' } } })).toEqual([2, 3]);
    expect(await ids({ filter: { at: { lt: '2026-01-01T01:00:03+01:00' } } })).toEqual([1, 2, 3]);
    // U+1F600 is after U+F8FF by code point, though its first UTF-16 unit (0xD83D) is before 0xF8FF.
    expect(
      await ids({
        sort: [
          { field: 'title', direction: 'desc' },
          { field: 'id', direction: 'asc' },
        ],
      }),
    ).toEqual([5, 4, 3, 2, 1]);
  });

  it('sorts with absent values last in either direction, ties by the keys that follow, and walks keyset pages', async () => {
    const byPrice = (direction: 'asc' | 'desc') => [
      { field: 'price', direction },
      { field: 'id', direction: 'asc' as const },
    ];
    expect(await ids({ sort: byPrice('asc') })).toEqual([1, 5, 3, 4, 2]);
    expect(await ids({ sort: byPrice('desc') })).toEqual([4, 3, 5, 1, 2]);
    const walked: number[] = [];
    let cursor: string | undefined;
    do {
      const page = (await books.list(q({ limit: 2, sort: byPrice('desc'), ...(cursor ? { cursor } : {}) }), ctx)) as Page<Book>;
      walked.push(...page.data.map((b) => Number(b.id.slice(-2))));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(walked).toEqual([4, 3, 5, 1, 2]);
  });

  it('answers only the fields of a mask, and reads several ids at once', async () => {
    const page = (await books.list(q({ limit: 1, fields: ['id', 'title'] }), ctx)) as Page<Book>;
    expect(page.data).toEqual([{ id: book(1).id, title: 't1' }]);
    const many = (await books.getMany!([book(4).id, book(1).id, book(4).id, '00000000-0000-4000-8000-000000000099'], ctx)) as Book[];
    expect(many.map((b) => b.id).sort()).toEqual([book(1).id, book(4).id]);
  });
});

describe('bounds', () => {
  it('a create beyond maxRecords answers 507', async () => {
    const users = createMemoryCollection<User>(SPEC, [], { maxRecords: 2 });
    await users.create({ email: '1', tier: 'free' }, ctx);
    await users.create({ email: '2', tier: 'free' }, ctx);
    expect(await users.create({ email: '3', tier: 'free' }, ctx)).toMatchObject({ status: 507, code: 'storage_full' });
  });
});

describe('lifecycle transitions and write preconditions', () => {
  type Order = { id: string; status: string };
  interface Moves {
    pay: MemoryTransition<Order>;
    cancel: MemoryTransition<Order>;
  }
  const ORDERS: MemorySpec = {
    name: 'orders',
    id: 'id',
    assign: [
      ['id', 'uuid'],
      ['status', 'value', 'open'],
    ],
    unique: [],
    readOnly: ['id', 'status'],
    lifecycle: { field: 'status', transitions: { pay: { from: ['open'], to: 'paid' }, cancel: { from: ['open', 'paid'], to: 'cancelled' } } },
  };
  const withCondition = (matches: (current: object | null) => boolean) => ({ condition: { matches } }) as never;

  it('a transition moves the stored state, from its from states only (409 with the state otherwise)', async () => {
    const orders = createMemoryCollection<Order, Moves>(ORDERS);
    const order = (await orders.create({}, ctx)) as Order;
    expect(order.status).toBe('open');
    expect(orders.pay(order, {}, ctx)).toMatchObject({ id: order.id, status: 'paid' });
    expect(await orders.get(order.id, ctx)).toMatchObject({ status: 'paid' });
    // The resource passed in is what the runtime loaded; the store checks the state it holds now.
    const stale = orders.pay(order, {}, ctx);
    expect(stale).toBeInstanceOf(InvalidTransition);
    expect((stale as InvalidTransition).state).toBe('paid');
    expect(orders.cancel(order, {}, ctx)).toMatchObject({ status: 'cancelled' });
    expect(orders.pay({ id: 'nope', status: 'open' }, {}, ctx)).toMatchObject({ status: 404 });
  });

  it('a precondition is checked in the same step as the write: 412 when the stored resource no longer matches', async () => {
    const orders = createMemoryCollection<Order, Moves>(ORDERS);
    const order = (await orders.create({}, ctx)) as Order;
    const seen: (object | null)[] = [];
    const never = withCondition((current) => (seen.push(current), false));
    expect(await orders.update(order.id, {}, never)).toBeInstanceOf(PreconditionFailed);
    expect(await orders.replace(order.id, {}, never)).toMatchObject({ status: 412, code: 'precondition_failed' });
    expect(await orders.delete(order.id, never)).toMatchObject({ status: 412 });
    expect(orders.pay(order, {}, never)).toMatchObject({ status: 412 });
    // It was asked about the stored resource, and nothing changed.
    expect(seen[0]).toMatchObject({ id: order.id, status: 'open' });
    expect(await orders.get(order.id, ctx)).toMatchObject({ status: 'open' });
    const always = withCondition(() => true);
    expect(orders.pay(order, {}, always)).toMatchObject({ status: 'paid' });
    expect(await orders.delete(order.id, always)).toBeUndefined();
  });

  it('a conditional write on a resource deleted meanwhile answers 412 under If-Match (a concurrent delete won), 404 without', async () => {
    const orders = createMemoryCollection<Order, Moves>(ORDERS);
    const order = (await orders.create({}, ctx)) as Order;
    // As the runtime's condition answers: no missing resource satisfies If-Match; If-None-Match it does.
    const ifMatch = withCondition((current) => current !== null);
    const ifNoneMatch = withCondition(() => true);
    expect(await orders.delete(order.id, ifMatch)).toBeUndefined();
    expect(await orders.delete(order.id, ifMatch)).toMatchObject({ status: 412 });
    expect(await orders.update(order.id, {}, ifMatch)).toMatchObject({ status: 412 });
    expect(orders.pay(order, {}, ifMatch)).toMatchObject({ status: 412 });
    expect(await orders.delete(order.id, ifNoneMatch)).toMatchObject({ status: 404 });
    expect(await orders.delete(order.id, ctx)).toMatchObject({ status: 404 });
  });
});
