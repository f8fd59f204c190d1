/**
 * @module The shop example on PostgreSQL (examples/shop-postgres), started for a test on 127.0.0.1 port 0
 * against a database of its own, and called over HTTP.
 */
import { createDiskFileStore } from '@restgen/runtime';
import { startShopServer, type ShopServer, type ShopServerOptions } from '../../examples/shop-postgres/server.ts';
import { TEST_FILES } from '../server/helpers.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

/** Every scope of the shop API. */
export const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'orders:cancel', 'webhooks:read', 'webhooks:write'];

/** An HTTP answer: status, headers and the parsed JSON body ({} when empty). */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown> & { data?: Record<string, unknown>[]; next_cursor?: string | null };
}

/** A shop server on its own database. */
export interface RunningShop {
  readonly server: ShopServer;
  readonly db: TestDatabase;
  /** Calls the API with a bearer token of every scope; `headers` are added. */
  call(method: string, path: string, body?: unknown, headers?: Readonly<Record<string, string>>): Promise<Answer>;
  /** Stops the server and drops the database. */
  stop(): Promise<void>;
}

/**
 * Starts the shop on PostgreSQL (server at `serverUrl`) with `extra` options; `prepare` sees the pool before
 * it opens any connection.
 */
export async function startShop(
  serverUrl: string,
  extra: Partial<ShopServerOptions> = {},
  prepare?: (pool: TestDatabase['pool']) => void,
): Promise<RunningShop> {
  const db = await createTestDatabase(serverUrl);
  prepare?.(db.pool);
  const server = await startShopServer({
    pool: db.pool,
    authenticate: ({ token }) => (token === 'bad' ? null : { id: token, scopes: SCOPES }),
    rateLimit: false,
    files: createDiskFileStore(TEST_FILES),
    ...extra,
  } as ShopServerOptions);
  return {
    server,
    db,
    async call(method, path, body, headers = {}) {
      const init: RequestInit = {
        method,
        headers: { authorization: 'Bearer admin', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      };
      if (body !== undefined) init.body = JSON.stringify(body);
      const response = await fetch(server.url + path, init);
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Answer['body']) : {} };
    },
    async stop() {
      await server.close();
      await db.drop();
    },
  };
}
