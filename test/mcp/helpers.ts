/**
 * @module Test helpers of the generated MCP server: start an example's generated API on 127.0.0.1 (memory handlers,
 * a fixed clock, every request counted), import its generated MCP module, and connect the official SDK client to a
 * server over an in-memory pair, Streamable HTTP or stdio.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { FastifyInstance } from 'fastify';
import path from 'node:path';
import { importServer, registerOf, SHOP_MIGRATIONS, start, type Running } from '../server/helpers.ts';

/** Every scope of the shop example. */
export const SHOP_SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'orders:cancel', 'webhooks:read', 'webhooks:write'];

/** `admin` has every scope, `reader` every `:read` scope; any other token is refused. */
export function shopAuthenticate({ token }: { token: string }): { id: string; scopes: string[] } | null {
  if (token === 'admin') return { id: token, scopes: SHOP_SCOPES };
  if (token === 'reader') return { id: token, scopes: SHOP_SCOPES.filter((s) => s.endsWith(':read')) };
  return null;
}

/** The clock of the memory handlers: every world answers the same timestamps. */
export const FIXED_NOW = (): Date => new Date('2026-10-01T12:00:00.000Z');

/** A running generated API, with the requests it received. */
export interface World extends Running {
  /** Every request the API received, as `METHOD url` with the headers that matter here. */
  readonly requests: { readonly method: string; readonly url: string; readonly headers: Readonly<Record<string, string | string[] | undefined>> }[];
}

/** Starts the shop example's generated server (`out`) on loopback; `mount` adds more routes (an MCP endpoint) to the app. */
export async function startShop(out: string, options: object = {}, mount?: (app: FastifyInstance) => void | Promise<void>): Promise<World> {
  const mod = await importServer(out);
  const requests: World['requests'][number][] = [];
  const running = await start(async (app) => {
    app.addHook('onRequest', async (request) => {
      requests.push({ method: request.method, url: request.url, headers: request.headers });
    });
    await registerOf(mod, 'Shop')(app, mod.createMemoryHandlers({}, { now: FIXED_NOW }), {
      authenticate: shopAuthenticate,
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      webhooks: { allowPrivateUrls: true, dispatch: false },
      ...options,
    });
    await mount?.(app);
  });
  return { ...running, requests };
}

/** What a test uses of a generated `mcp/index.ts`. */
export interface McpModule {
  createMcpServer(options: object): { connect(transport: Transport): Promise<void>; close(): Promise<void> };
  readonly VERSIONS: readonly string[];
  readonly DEFAULT_VERSION: string;
}

/** Imports the generated MCP server of `out`. */
export async function importMcp(out: string): Promise<McpModule> {
  return (await import(path.join(out, 'mcp/index.ts'))) as McpModule;
}

/** An SDK client connected to `transport`. */
export async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'restgen-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** An SDK client of the server `options` make, over an in-memory pair (no transport of its own to test). */
export async function inMemory(mcp: McpModule, options: object): Promise<Client> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await mcp.createMcpServer(options).connect(serverSide);
  return connect(clientSide);
}

/** An SDK client of the MCP endpoint at `url`, over Streamable HTTP, with `headers` on every request. */
export function overHttp(url: string, headers: Record<string, string> = {}): Promise<Client> {
  return connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
}

/**
 * An SDK client of `mcp/stdio.ts` of `out`, run as a desktop host runs it (a command, configured by `env`), with a
 * TypeScript runner: jiti's loader hook. Its stderr is collected in `stderr`.
 */
export async function overStdio(out: string, env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    // Resolved from `out`, inside this repository: its node_modules hold jiti.
    args: ['--import', 'jiti/register', path.join(out, 'mcp/stdio.ts')],
    env: { PATH: process.env['PATH'] ?? '', ...env },
    cwd: out,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { client: await connect(transport), stderr: () => stderr };
}
