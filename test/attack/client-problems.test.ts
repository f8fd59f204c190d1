/**
 * Attack: problem bodies the client does not expect. Whatever a server (or a proxy before it) puts in a
 * 4xx problem, the client throws the error of the status, with what it could read, and does not retry
 * a final status: a malformed `errors` list must not turn a 400 into a retried ConnectionError.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BadRequestError, ConflictError, createShopClient } from '../../examples/shop/generated/client/index.js';
import { problem, startFaultServer, type FaultServer } from '../client/fault-server.ts';

const servers: FaultServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

describe('malformed problem bodies', () => {
  it('errors with null, strings and numbers among the issues: BadRequestError with the readable issues, sent once', async () => {
    const api = await startFaultServer([
      problem(400, 'Bad Request', { errors: [null, 'name is required', 7, { pointer: '/quantity', detail: 'must be positive' }] }),
    ]);
    servers.push(api);
    const error = await createShopClient({ baseUrl: api.url, retryDelay: 1 })
      .v2.orders.create({ customer_id: 'c1', product_id: 7, quantity: -1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).status).toBe(400);
    expect((error as BadRequestError).message).toContain('/quantity: must be positive');
    expect(api.seen).toHaveLength(1);
  });

  it('an errors member that is an object, or issues without pointer: the error of the status, sent once', async () => {
    const api = await startFaultServer([problem(409, 'Conflict', { errors: { pointer: '/email' } }), problem(400, 'Bad', { errors: [undefined, {}] })]);
    servers.push(api);
    const shop = createShopClient({ baseUrl: api.url, retryDelay: 1 });
    await expect(shop.v2.orders.get('o1')).rejects.toBeInstanceOf(ConflictError);
    await expect(shop.v2.orders.get('o1')).rejects.toBeInstanceOf(BadRequestError);
    expect(api.seen).toHaveLength(2);
  });
});
