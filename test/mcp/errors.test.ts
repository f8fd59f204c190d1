/**
 * Failures as an agent sees them, through the official SDK client against the shop example's generated server on
 * 127.0.0.1: a problem the API answers is a result with `isError` and structured content (status, code, detail, and
 * `errors[]` whose JSON pointers point into the tool's arguments); arguments the tool's input schema refuses are
 * refused before any HTTP call (the API receives nothing); no answer at all is a structured failure too; an unknown
 * tool is a protocol error.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_API } from '../helpers/load-ir.ts';
import { sharedOutput } from '../helpers/shared-output.ts';
import { importMcp, inMemory, startShop, type McpModule, type World } from './helpers.ts';

let world: World;
let mcp: McpModule;
let agent: Client;
beforeAll(async () => {
  const out = sharedOutput(SHOP_API)!;
  // The webhook URL policy as deployed: public https addresses only.
  world = await startShop(out, { webhooks: { dispatch: false } });
  mcp = await importMcp(out);
  agent = await inMemory(mcp, { version: 'v3', baseUrl: world.url, auth: { bearer: 'admin' } });
});
afterAll(async () => {
  await agent.close();
  await world.close();
});

/** A call's result, which must be a failure whose text content is its structured content. */
async function failure(name: string, args: Record<string, unknown>, client: Client = agent): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result)).toBe(true);
  const structured = result.structuredContent as Record<string, unknown>;
  expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(structured);
  return structured;
}

describe('a problem the API answers', () => {
  it('is a tool error carrying it: status, code, detail, and issues pointing into the arguments', async () => {
    const refused = await failure('webhook_endpoints_create', { body: { url: 'https://10.0.0.1/hooks', events: ['order.created'] } });
    expect(refused).toMatchObject({ status: 400, code: 'invalid_request', title: 'Bad Request' });
    expect(refused['errors']).toEqual([{ pointer: '#/body/url', detail: expect.stringContaining('10.0.0.1') }]);
    expect(refused['detail']).toEqual(expect.stringContaining('url is refused'));
  });

  it('keeps the members a problem adds (the state a transition found, the transitions it allows)', async () => {
    const customer = await agent.callTool({ name: 'customers_create', arguments: { body: { email: 'pat@shop.example' } } });
    const customerId = (customer.structuredContent as { id: string }).id;
    const order = await agent.callTool({ name: 'orders_create', arguments: { body: { customer_id: customerId, product_id: 1, quantity: 1 } } });
    const id = (order.structuredContent as { id: string }).id;
    expect((await agent.callTool({ name: 'orders_ship', arguments: { id, body: { carrier: 'DHL' } } })).isError).toBe(true);
    const conflict = await failure('orders_refund', { id });
    expect(conflict).toMatchObject({ status: 409, code: 'invalid_transition', state: 'open', allowed: ['pay', 'cancel'] });
    expect(await failure('orders_get', { id: '00000000-0000-4000-8000-000000000000' })).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('says 401 when the server has no credential for an operation that needs one', async () => {
    const anonymous = await inMemory(mcp, { version: 'v3', baseUrl: world.url });
    expect(await failure('orders_list', {}, anonymous)).toMatchObject({ status: 401, code: 'unauthenticated' });
    await anonymous.close();
  });

  it('has status 0 and says why when the API does not answer', async () => {
    const nowhere = await inMemory(mcp, { version: 'v2', baseUrl: 'http://127.0.0.1:9', auth: { bearer: 'admin' }, client: { maxRetries: 0 } });
    expect(await failure('customers_list', {}, nowhere)).toMatchObject({ status: 0, code: 'connection_failed' });
    await nowhere.close();
  });
});

describe('arguments the input schema refuses', () => {
  it('are refused with every issue, pointing into the arguments, and nothing reaches the API', async () => {
    const before = world.requests.length;
    const refused = await failure('orders_create', { body: { quantity: 0, colour: 'red' }, extra: true });
    expect(refused).toMatchObject({ status: 400, code: 'validation_failed', detail: expect.stringContaining('nothing was sent to the API') });
    expect(refused['errors']).toEqual(
      expect.arrayContaining([
        { pointer: '#/extra', detail: 'is not an argument of this tool' },
        { pointer: '#/body/customer_id', detail: 'is required' },
        { pointer: '#/body/colour', detail: 'is not a field here (unknown fields are refused)' },
        { pointer: '#/body/quantity', detail: 'must be >= 1' },
      ]),
    );
    expect((await failure('orders_get', { id: 'not-a-uuid' }))['errors']).toEqual([{ pointer: '#/id', detail: expect.stringContaining('must match pattern') }]);
    expect((await failure('coupons_update', { id: '00000000-0000-4000-8000-000000000000', body: {} }))['errors']).toEqual([
      { pointer: '#/ifMatch', detail: 'is required' },
    ]);
    expect(world.requests.length).toBe(before);
  });

  it('name an unknown tool: a protocol error', async () => {
    await expect(agent.callTool({ name: 'orders_teleport', arguments: {} })).rejects.toThrow(/Unknown tool: orders_teleport/);
  });
});
