/**
 * Attack: three concurrent conditional writes with the same `If-Match`, whose handlers are slow (held on a
 * deferred promise until all three requests have loaded the resource, so each one's precondition passed
 * before any write): one wins, and the others answer 412 Precondition Failed — the resource they named is
 * gone or changed — never 404 (RFC 9110 section 13.1.1: If-Match fails when no current representation
 * exists). The same for a delete that races an update. Over HTTP against the generated shop server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, testAuthenticate, type Running, type ServerModule } from '../server/helpers.ts';

type Fn = (...args: unknown[]) => unknown;

let mod: ServerModule;
let server: Running;
/** Resolves the loads held so far once `expected` requests have loaded (the deferred promise). */
let gate: { expected: number; waiting: (() => void)[] } = { expected: 0, waiting: [] };

beforeAll(async () => {
  mod = await importServer(await generateInto('attack-delete-race'));
  const handlers = mod.createMemoryHandlers() as unknown as Record<string, Record<string, Fn>>;
  const customers = handlers['customers']!;
  const get = customers['get']!;
  // The runtime loads the resource with get before a conditional write: hold each load until all arrived.
  customers['get'] = async (...args: unknown[]) => {
    const value = await get(...args);
    if (gate.expected > 0)
      await new Promise<void>((resolve) => {
        gate.waiting.push(resolve);
        if (gate.waiting.length === gate.expected) {
          for (const release of gate.waiting) release();
          gate = { expected: 0, waiting: [] };
        }
      });
    return value;
  };
  server = await start((app) => registerOf(mod, 'Shop')(app, handlers, { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS, rateLimit: false }));
});
afterAll(() => server?.close());

async function customer(n: number): Promise<{ id: string; etag: string }> {
  const made = await server.call('POST', '/v3/customers', { body: { email: `race${n}@example.com`, name: 'Race' } });
  expect(made.status).toBe(201);
  return { id: made.body['id'] as string, etag: made.headers.get('etag')! };
}

describe('conditional writes that lose a race', () => {
  it('three deletes with the same If-Match: [204, 412, 412]', async () => {
    const { id, etag } = await customer(1);
    gate = { expected: 3, waiting: [] };
    const answers = await Promise.all([0, 1, 2].map(() => server.call('DELETE', `/v3/customers/${id}`, { headers: { 'if-match': etag } })));
    expect(answers.map((a) => a.status).sort()).toEqual([204, 412, 412]);
    for (const lost of answers.filter((a) => a.status === 412)) expect(lost.body).toMatchObject({ code: 'precondition_failed' });
    // Without If-Match a delete of what is gone is still 404.
    expect((await server.call('DELETE', `/v3/customers/${id}`)).status).toBe(404);
  });

  it('a delete and two updates with the same If-Match: one wins, the others answer 412', async () => {
    const { id, etag } = await customer(2);
    gate = { expected: 3, waiting: [] };
    const headers = { 'if-match': etag };
    const answers = await Promise.all([
      server.call('DELETE', `/v3/customers/${id}`, { headers }),
      server.call('PATCH', `/v3/customers/${id}`, { headers, body: { name: 'One' } }),
      server.call('PATCH', `/v3/customers/${id}`, { headers, body: { name: 'Two' } }),
    ]);
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 412)).toHaveLength(2);
    expect(statuses.filter((s) => s === 204 || s === 200)).toHaveLength(1);
    expect(statuses).not.toContain(404);
  });
});
