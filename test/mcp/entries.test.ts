/**
 * The two entries besides `createMcpServer`: the Streamable HTTP mount for a Fastify app (stateless: POST only;
 * the caller's credential forwarded to the API; DNS rebinding protection when asked for) and the stdio entry a desktop
 * host runs (configured by the environment; every problem with it said on stderr, exit status 2, before any protocol).
 */
import type { FastifyInstance } from 'fastify';
import { spawnSync } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stdioOptions } from '../../runtime/mcp/stdio.ts';
import { SHOP_API } from '../helpers/load-ir.ts';
import { sharedOutput } from '../helpers/shared-output.ts';
import { overHttp, startShop, type World } from './helpers.ts';

interface HttpModule {
  registerShopMcp(app: FastifyInstance, mount: { options: (request: IncomingMessage) => object; path?: string; allowedHosts?: string[] }): void;
  credentialOf(request: IncomingMessage): object;
}

describe('the Streamable HTTP mount', () => {
  let world: World;
  beforeAll(async () => {
    const out = sharedOutput(SHOP_API)!;
    const http = (await import(path.join(out, 'mcp/http.ts'))) as HttpModule;
    let url = '';
    world = await startShop(out, {}, (app) => {
      http.registerShopMcp(app, { options: (request) => ({ version: 'v3', baseUrl: url, ...http.credentialOf(request) }) });
      http.registerShopMcp(app, { path: '/guarded/mcp', allowedHosts: ['localhost:1'], options: () => ({ version: 'v3', baseUrl: url }) });
    });
    url = world.url;
  });
  afterAll(() => world.close());

  it('answers GET and DELETE with 405: it keeps no session', async () => {
    for (const method of ['GET', 'DELETE']) {
      const answer = await fetch(`${world.url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.get('allow')).toBe('POST');
      expect(await answer.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
  });

  it("forwards the caller's credential (bearer token or API key) to the API, and none when it sends none", async () => {
    for (const headers of [{ authorization: 'Bearer admin' }, { 'x-api-key': 'admin' }] as Record<string, string>[]) {
      const agent = await overHttp(`${world.url}/mcp`, headers);
      const page = await agent.callTool({ name: 'orders_list', arguments: {} });
      await agent.close();
      expect(page.isError, JSON.stringify(headers)).toBeUndefined();
    }
    const anonymous = await overHttp(`${world.url}/mcp`);
    const refused = await anonymous.callTool({ name: 'orders_list', arguments: {} });
    await anonymous.close();
    expect(refused.structuredContent).toMatchObject({ status: 401, code: 'unauthenticated' });
  });

  it('refuses a Host it was not told to answer when hosts are listed (DNS rebinding)', async () => {
    await expect(overHttp(`${world.url}/guarded/mcp`)).rejects.toThrow(/403|Invalid Host/);
  });
});

describe('the stdio entry', () => {
  const settings = { title: 'Shop API', versions: ['v1', 'v2', 'v3'], defaultVersion: 'v2', apiKey: true, bearer: true } as const;

  it('reads its options from the environment', () => {
    expect(stdioOptions({ API_BASE_URL: 'https://api.example.com' }, settings)).toEqual({ options: { version: 'v2', baseUrl: 'https://api.example.com' } });
    expect(
      stdioOptions({ API_BASE_URL: 'http://127.0.0.1:3000', API_VERSION: 'v3', API_TOKEN: 't', API_SCOPES: 'orders:read, customers:read' }, settings),
    ).toEqual({
      options: { version: 'v3', baseUrl: 'http://127.0.0.1:3000', token: 't', scopes: ['orders:read', 'customers:read'] },
    });
  });

  it('defaults API_BASE_URL to the first server the API declares, and takes the environment over it', () => {
    const declared = { ...settings, defaultBaseUrl: 'https://api.shop.example.com' };
    expect(stdioOptions({}, declared)).toEqual({ options: { version: 'v2', baseUrl: 'https://api.shop.example.com' } });
    expect(stdioOptions({ API_BASE_URL: 'http://127.0.0.1:3000' }, declared)).toEqual({ options: { version: 'v2', baseUrl: 'http://127.0.0.1:3000' } });
  });

  it('says every problem with the environment at once', () => {
    expect(stdioOptions({ API_VERSION: 'v9', API_KEY: 'k', API_TOKEN: 't' }, settings)).toEqual({
      problems: [
        'API_BASE_URL is not set: set it to where Shop API is served (https://api.example.com).',
        'API_VERSION "v9" is not a version of Shop API; it has v1, v2, v3.',
        'API_KEY and API_TOKEN are both set: set one of them.',
      ],
    });
    expect(stdioOptions({ API_BASE_URL: 'ftp://files', API_KEY: 'k' }, { ...settings, apiKey: false })).toEqual({
      problems: ['API_BASE_URL "ftp://files" is not an http or https URL.', 'Shop API takes no API key: set API_TOKEN instead.'],
    });
  });

  it('exits with status 2 and the problems on stderr, writing nothing on stdout', { timeout: 120_000 }, () => {
    const out = sharedOutput(SHOP_API)!;
    const run = spawnSync(process.execPath, ['--import', 'jiti/register', path.join(out, 'mcp/stdio.ts')], {
      cwd: out,
      env: { PATH: process.env['PATH'] ?? '', API_VERSION: 'v0' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('API_BASE_URL is not set');
    expect(run.stderr).toContain('API_VERSION "v0" is not a version of Shop API; it has v1, v2, v3.');
  });
});
