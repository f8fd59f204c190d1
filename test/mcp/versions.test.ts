/**
 * The MCP server of a version always speaks that version to the API, so an agent built against it keeps working when
 * newer versions ship: with header versioning (the ledger example: dates, a default, principals pinned to an old
 * version) every request carries the server's version and answers in its shape; with path versioning (the shop) every
 * request goes under its prefix. A deprecated version's server says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_API } from '../helpers/load-ir.ts';
import { sharedOutput } from '../helpers/shared-output.ts';
import { importServer, registerOf, start, type Running } from '../server/helpers.ts';
import { importMcp, inMemory, startShop } from './helpers.ts';

const LEDGER_API = new URL('../../examples/ledger/api.ts', import.meta.url).pathname;

describe('header versioning (the ledger example)', () => {
  let ledger: Running;
  const versions: (string | string[] | undefined)[] = [];
  let out = '';
  beforeAll(async () => {
    out = sharedOutput(LEDGER_API)!;
    const mod = await importServer(out);
    ledger = await start(async (app) => {
      app.addHook('onRequest', async (request) => void versions.push(request.headers['ledger-version']));
      // The principal is pinned to the oldest version: a request without the header would be answered in it.
      await registerOf(mod, 'Ledger')(app, mod.createMemoryHandlers(), {
        apiKeys: { k: { id: 'treasurer', scopes: ['ledger:read', 'ledger:write'] } },
        pinnedVersion: () => '2025-01-15',
      });
    });
  });
  afterAll(() => ledger.close());

  it("sends the server's version with every request and gets that version's shape back", async () => {
    const mcp = await importMcp(out);
    expect(mcp.DEFAULT_VERSION).toBe('2025-09-01');
    for (const [version, name] of [
      ['2025-01-15', 'holder'],
      ['2025-09-01', 'name'],
      ['2026-03-01', 'name'],
    ] as const) {
      versions.length = 0;
      const agent = await inMemory(mcp, { version, baseUrl: ledger.url, auth: { apiKey: 'k' } });
      const created = await agent.callTool({ name: 'accounts_create', arguments: { body: { [name]: 'Petty cash', currency: 'EUR' } } });
      expect(created.isError, JSON.stringify(created)).toBeUndefined();
      const id = (created.structuredContent as { id: string }).id;
      const read = await agent.callTool({ name: 'accounts_get', arguments: { id } });
      expect(read.structuredContent, version).toMatchObject({ id, [name]: 'Petty cash', currency: 'EUR' });
      const instructions = agent.getInstructions() ?? '';
      await agent.close();
      expect(versions, version).toEqual([version, version]);
      if (version === '2025-01-15') {
        expect(instructions).toContain('deprecated since 2026-01-01; it stops being served on 2027-06-01');
        expect(instructions).toContain('https://docs.example.com/upgrade/2025-01-15');
      } else expect(instructions).not.toContain('deprecated');
    }
  });
});

describe('path versioning (the shop example)', () => {
  it("calls every path under the server's version prefix", async () => {
    const out = sharedOutput(SHOP_API)!;
    const world = await startShop(out);
    try {
      const mcp = await importMcp(out);
      for (const version of mcp.VERSIONS) {
        const agent = await inMemory(mcp, { version, baseUrl: world.url, auth: { bearer: 'admin' } });
        const from = world.requests.length;
        await agent.callTool({ name: 'customers_list', arguments: {} });
        await agent.callTool({ name: 'orders_get', arguments: { id: '00000000-0000-4000-8000-000000000000' } });
        await agent.close();
        expect(world.requests.slice(from).map((r) => r.url.split('?')[0])).toEqual([
          `/${version}/customers`,
          `/${version}/orders/00000000-0000-4000-8000-000000000000`,
        ]);
      }
      expect(() => mcp.createMcpServer({ version: 'v4', baseUrl: world.url })).toThrow('"v4" is not a version of Shop API; it has v1, v2, v3.');
    } finally {
      await world.close();
    }
  });
});
