/**
 * `packages/runtime/src/memory-store.ts` as source: unique values through an index (freed on update and
 * delete, O(1) per request), cursors bound to the filters they were issued for, a bounded store, and
 * lifecycle transitions and write preconditions checked in the same step as the write.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryCollection, decodeCursor, encodeCursor, type MemorySpec, type MemoryTransition } from '../../packages/runtime/src/memory-store.ts';
import { HttpProblem, InvalidTransition, PreconditionFailed } from '../../packages/runtime/src/problems.ts';
import type { Page } from '../../packages/runtime/src/types.ts';
import { iterationSteps } from '../helpers/iteration-steps.ts';

const SPEC: MemorySpec = { name: 'users', id: 'id', assign: [['id', 'uuid']], unique: ['email'], readOnly: ['id'], lifecycle: null };
type User = { id: string; email: string; tier: string };
const ctx = {} as never;

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
      const page = (await users.list({ limit: 2, ...(cursor ? { cursor } : {}) }, ctx)) as Page<User>;
      seen.push(...page.data.map((u) => u.email));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['0@x', '1@x', '2@x', '3@x', '4@x']);
  });

  it('a cursor issued for other filters is a 400, never a silent skip', async () => {
    const users = createMemoryCollection<User>(SPEC);
    for (let i = 0; i < 5; i++) await users.create({ email: `${i}@x`, tier: i < 3 ? 'pro' : 'free' }, ctx);
    const pro = (await users.list({ limit: 2, tier: 'pro' } as never, ctx)) as Page<User>;
    expect(pro.next_cursor).not.toBeNull();
    const mixed = await users.list({ limit: 2, tier: 'free', cursor: pro.next_cursor! } as never, ctx);
    expect(mixed).toMatchObject({ status: 400, members: { errors: [{ parameter: 'cursor' }] } });
    // The same filters with another page size are fine.
    expect(await users.list({ limit: 5, tier: 'pro', cursor: pro.next_cursor! } as never, ctx)).toMatchObject({ data: [{ email: '2@x' }] });
  });

  it('a deep page costs what the first one does: the cursor seeks, it does not walk every earlier record', async () => {
    const users = createMemoryCollection<User>(SPEC);
    for (let i = 0; i < 20_000; i++) await users.create({ email: `${i}@x`, tier: 'free' }, ctx);
    const first = (await users.list({ limit: 100 }, ctx)) as Page<User>;
    let deep: string | undefined = first.next_cursor!;
    for (let i = 0; i < 198; i++) deep = ((await users.list({ limit: 100, cursor: deep }, ctx)) as Page<User>).next_cursor!;
    const shallow = await iterationSteps(() => users.list({ limit: 100 }, ctx));
    const last = await iterationSteps(() => users.list({ limit: 100, cursor: deep }, ctx));
    expect(((await users.list({ limit: 100, cursor: deep }, ctx)) as Page<User>).data.map((u) => u.email)[99]).toBe('19999@x');
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
      const page = (await users.list({ limit: 4, ...(cursor ? { cursor } : {}) }, ctx)) as Page<User>;
      seen.push(...page.data.map((u) => u.email));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(made.filter((_, i) => i % 3 === 0).map((u) => u.email));
    await users.create({ email: 'new@x', tier: 'free' }, ctx);
    expect(((await users.list({ limit: 100 }, ctx)) as Page<User>).data.map((u) => u.email).at(-1)).toBe('new@x');
  });

  it('decode only what encode made', () => {
    expect(decodeCursor(encodeCursor(42, 'abcdefghijkl'), 'abcdefghijkl')).toBe(42);
    expect(decodeCursor(encodeCursor(42, 'abcdefghijkl'), 'zzzzzzzzzzzz')).toBeNull();
    expect(decodeCursor('not-a-cursor', 'abcdefghijkl')).toBeNull();
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
