/**
 * The client runtime sends each operation as the operations table of `@restgen/runtime/contract` says (the table
 * the server mounts). The client depends on nothing, so it cannot import the table, and a copy of it would cost every
 * app's bundle more than the six methods that read it: `namespace.ts` holds one method per operation (a
 * `Record<OperationName, ...>`, so a seventh fails to compile there), and this test holds each method to the table:
 * the same operations, each sending the table's method to the collection or to one resource, with a body exactly
 * when the operation takes one and the list query where it takes that.
 */
import { OPERATION_FACTS, OPERATIONS as SERVER_OPERATIONS, type OperationName } from '@restgen/runtime/contract';
import { describe, expect, it } from 'vitest';
import { createNamespace, type ResourceMethods } from '../../runtime/client/namespace.ts';
import type { Transport } from '../../runtime/client/transport.ts';

// The client's methods are the table's operations: a seventh in either fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const methodsAreOperations: Same<keyof ResourceMethods<{ item: unknown; ops: OperationName }>, OperationName> = true;

describe('the client runtime against the operations table', () => {
  it('has one method per operation of the table', () => {
    expect(methodsAreOperations).toBe(true);
  });

  it('sends each operation as the table says: method, collection or resource, body and query', async () => {
    const sent: { method: string; path: string; body: unknown; query: object | undefined }[] = [];
    const transport: Transport = async (method, _version, path, body, _opts, query) => {
      sent.push({ method, path, body, query });
      return { data: method === 'GET' && query !== undefined ? { data: [], next_cursor: null } : {}, response: new Response() };
    };
    const ns = createNamespace<{ orders: { item: unknown; ops: OperationName; create: object; replace: object; patch: object } }>(transport, 'v1', {
      orders: [SERVER_OPERATIONS, [], 'shop-orders'],
    });
    const orders = ns.orders as unknown as Record<OperationName, (...args: unknown[]) => Promise<unknown>>;
    expect(Object.keys(orders)).toEqual([...SERVER_OPERATIONS]);
    for (const op of SERVER_OPERATIONS) {
      const facts = OPERATION_FACTS[op];
      const args: unknown[] = [];
      if (facts.target === 'item') args.push('o1');
      if (facts.body !== null) args.push({ given: op });
      else if (facts.query) args.push({ limit: 5 });
      sent.length = 0;
      await orders[op](...args);
      expect(sent, op).toEqual([
        {
          method: facts.method,
          path: facts.target === 'item' ? 'shop-orders/o1' : 'shop-orders',
          body: facts.body === null ? undefined : { given: op },
          query: facts.query ? { limit: 5 } : undefined,
        },
      ]);
    }
  });
});
