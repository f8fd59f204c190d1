/**
 * A server given a credential whose scopes are known lists only the tools they allow: OAuth 2.0 client credentials
 * (the scopes the token endpoint granted, else those asked for), or a configured list (`scopes`, `API_SCOPES` on
 * stdio). A read-only credential lists no tool that writes. Against the shop and ledger examples' generated servers
 * on 127.0.0.1, and a token endpoint of the test's own.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as ShopClient from '../../examples/shop/generated/client/index.js';
import { SHOP_API } from '../helpers/load-ir.ts';
import { sharedOutput } from '../helpers/shared-output.ts';
import { importServer, registerOf, start, type Running } from '../server/helpers.ts';
import { importMcp, inMemory, overStdio, startShop, type McpModule, type World } from './helpers.ts';

const LEDGER_API = new URL('../../examples/ledger/api.ts', import.meta.url).pathname;

/** A token endpoint that answers `answer` (with `status`) and counts the requests. */
async function tokenEndpoint(answer: Record<string, unknown>, status = 200): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests++;
    request.resume();
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let shopOut = '';
let shop: World;
let mcp: McpModule;
let client: typeof ShopClient;
beforeAll(async () => {
  shopOut = sharedOutput(SHOP_API)!;
  shop = await startShop(shopOut);
  mcp = await importMcp(shopOut);
  client = (await import(path.join(shopOut, 'client/index.ts'))) as typeof ShopClient;
});
afterAll(() => shop.close());

describe('OAuth 2.0 client credentials', () => {
  it('list the tools the granted scopes allow, and call the API with the token', async () => {
    // The provider grants less than was asked for, and says so (RFC 6749 section 5.1).
    const provider = await tokenEndpoint({ access_token: 'reader', token_type: 'Bearer', expires_in: 3600, scope: 'customers:read orders:read' });
    try {
      const auth = client.clientCredentials({
        clientId: 'agent',
        clientSecret: 's3cret',
        tokenUrl: provider.url,
        scopes: ['customers:read', 'orders:read', 'orders:write'],
      });
      const agent = await inMemory(mcp, { version: 'v3', baseUrl: shop.url, auth });
      const tools = (await agent.listTools()).tools.map((t) => t.name);
      // Coupons declare no scopes: any credential may call every coupon tool.
      const coupons = ['list', 'get', 'create', 'replace', 'update', 'delete'].map((op) => `coupons_${op}`);
      expect(tools).toEqual(['customers_list', 'customers_get', 'orders_list', 'orders_get', ...coupons]);
      const page = await agent.callTool({ name: 'orders_list', arguments: { limit: 1 } });
      expect(page.isError).toBeUndefined();
      expect(page.structuredContent).toEqual({ data: [], next_cursor: null });
      await agent.close();
      // One token, fetched once, serves the listing and the call.
      expect(provider.requests()).toBe(1);
    } finally {
      await provider.close();
    }
  });

  it('say why when the token endpoint refuses the client: a call is a structured failure, a listing an error', async () => {
    const provider = await tokenEndpoint({ error: 'invalid_client', error_description: 'Unknown client' }, 401);
    try {
      const auth = client.clientCredentials({ clientId: 'agent', clientSecret: 'wrong', tokenUrl: provider.url });
      const agent = await inMemory(mcp, { version: 'v2', baseUrl: shop.url, auth });
      const call = await agent.callTool({ name: 'customers_list', arguments: {} });
      expect(call.isError).toBe(true);
      expect(call.structuredContent).toMatchObject({ status: 401, code: 'invalid_client', detail: expect.stringContaining('Unknown client') });
      await expect(agent.listTools()).rejects.toThrow(/invalid_client/);
      await agent.close();
    } finally {
      await provider.close();
    }
  });

  it('without a granted scope in the answer, list by the scopes asked for; without either, list every tool', async () => {
    const provider = await tokenEndpoint({ access_token: 'reader', token_type: 'Bearer', expires_in: 3600 });
    try {
      const asked = client.clientCredentials({ clientId: 'agent', clientSecret: 's3cret', tokenUrl: provider.url, scopes: ['orders:read'] });
      const narrow = await inMemory(mcp, { version: 'v2', baseUrl: shop.url, auth: asked });
      expect((await narrow.listTools()).tools.map((t) => t.name)).toEqual(['orders_list', 'orders_get']);
      await narrow.close();
      const unknown = client.clientCredentials({ clientId: 'agent', clientSecret: 's3cret', tokenUrl: provider.url });
      const every = await inMemory(mcp, { version: 'v2', baseUrl: shop.url, auth: unknown });
      expect((await every.listTools()).tools.length).toBe(22);
      await every.close();
    } finally {
      await provider.close();
    }
  });
});

describe('a read-only credential of the ledger example', () => {
  let ledger: Running;
  let out = '';
  beforeAll(async () => {
    out = sharedOutput(LEDGER_API)!;
    const mod = await importServer(out);
    ledger = await start((app) =>
      registerOf(mod, 'Ledger')(app, mod.createMemoryHandlers(), { apiKeys: { 'key-r': { id: 'auditor', scopes: ['ledger:read'] } } }),
    );
  });
  afterAll(() => ledger.close());

  it('calls the first server the API declares when given no baseUrl', async () => {
    const ledgerMcp = await importMcp(out);
    const asked: string[] = [];
    // The client's own fetch sees where a call goes, and takes it to the running server instead.
    const fetch = (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const href = String(url);
      asked.push(href);
      return globalThis.fetch(href.replace('https://api.ledger.example', ledger.url), init);
    };
    const agent = await inMemory(ledgerMcp, { version: '2025-09-01', auth: { apiKey: 'key-r' }, client: { fetch, maxRetries: 0 } });
    const page = await agent.callTool({ name: 'accounts_list', arguments: { limit: 1 } });
    await agent.close();
    expect(page.structuredContent).toEqual({ data: [], next_cursor: null });
    expect(asked).toEqual(['https://api.ledger.example/accounts?limit=1']);
  });

  it('lists no tool that writes, in any version, given its scopes (scopes, or API_SCOPES on stdio)', { timeout: 120_000 }, async () => {
    const ledgerMcp = await importMcp(out);
    for (const version of ledgerMcp.VERSIONS) {
      const agent = await inMemory(ledgerMcp, { version, baseUrl: ledger.url, auth: { apiKey: 'key-r' }, scopes: ['ledger:read'] });
      const tools = (await agent.listTools()).tools;
      await agent.close();
      expect(tools.map((t) => t.name).sort(), version).toEqual(['accounts_get', 'accounts_list', 'transactions_get', 'transactions_list']);
      expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    }
    const { client: agent } = await overStdio(out, { API_BASE_URL: ledger.url, API_KEY: 'key-r', API_SCOPES: 'ledger:read' });
    const tools = (await agent.listTools()).tools;
    expect(tools.filter((t) => !t.annotations?.readOnlyHint)).toEqual([]);
    expect(tools).toHaveLength(4);
    const page = await agent.callTool({ name: 'accounts_list', arguments: {} });
    expect(page.structuredContent).toEqual({ data: [], next_cursor: null });
    await agent.close();
  });
});
