/**
 * @module The shop API on PostgreSQL: `startShopServer` creates the tables, mounts every version of the shop
 * example (its generated server) on the PostgreSQL handlers, with webhook endpoints, the outbox, the event stream's
 * log and the answers to Idempotency-Keys in the same database (`@restgen/postgres`), and listens. Run it as a script:
 *
 *     DATABASE_URL=postgres://user:pass@127.0.0.1:5432/shop SHOP_API_KEY=secret FILES_DIR=./invoices \
 *       node --import jiti/register examples/shop-postgres/server.ts
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createPostgresEndpoints, createPostgresEventLog, createPostgresIdempotency, createPostgresOutbox } from '@restgen/postgres';
import { createDiskFileStore, type FileStore, type ServerOptions, type StreamOptions, type WebhookOptions } from '@restgen/runtime';
import { fastifyOptions, registerShopApi, type ShopCredentials, type ShopMigrations } from '../shop/generated/server/index.js';
import { createPostgresHandlers, type PostgresHandlersOptions } from './handlers.js';
import { createSchema } from './schema.js';

/** The conversions between versions that the shop's markers cannot express (see examples/shop/api.ts). */
export const SHOP_MIGRATIONS: ShopMigrations = {
  // v1 showed a free-text note; v2 removed it and nothing keeps it.
  v2: { orders: { note: { value: () => undefined } } },
  v3: {
    // v1 and v2 require a name: a guest customer (v3) answers the local part of its email.
    customers: { name: { whenMissing: (customer) => customer.email.split('@')[0] ?? customer.email } },
    // The reference was a number before v3 and is `RF-0042` since.
    orders: { reference: { up: (n) => `RF-${String(n).padStart(4, '0')}`, down: (s) => Number(s.replace(/\D/g, '')) } },
  },
};

/**
 * What {@link startShopServer} takes: the pool, credentials, the file store of invoices, and any option of
 * `registerShopApi` (`idempotency` defaults to the database's table).
 */
export type ShopServerOptions = Omit<ServerOptions, 'webhooks' | 'files' | 'stream'> &
  ShopCredentials &
  PostgresHandlersOptions & {
    readonly pool: pg.Pool;
    /** Where invoice PDFs are kept (a shared store, such as S3, behind several instances). */
    readonly files: FileStore;
    /** Webhook options; `outbox` and `endpoints` default to the database's tables. */
    readonly webhooks?: WebhookOptions;
    /** Event stream options; its `log` defaults to the database's table, shared by every instance. */
    readonly stream?: StreamOptions;
    readonly host?: string;
    /** The port to listen on (default 0: any free port). */
    readonly port?: number;
    readonly logger?: FastifyServerOptions['logger'];
  };

/** A started shop server. */
export interface ShopServer {
  readonly app: FastifyInstance;
  /** `http://host:port`, without a trailing slash. */
  readonly url: string;
  /** Stops listening and waits for requests in flight and for the webhook dispatcher (the pool stays open). */
  close(): Promise<void>;
}

/** Creates the tables (when missing), mounts the shop API on PostgreSQL and listens (127.0.0.1, any free port by default). */
export async function startShopServer(options: ShopServerOptions): Promise<ShopServer> {
  const { pool, cursorSecret, host = '127.0.0.1', port = 0, logger = false, webhooks = {}, stream = {}, ...rest } = options;
  await createSchema(pool);
  const app = Fastify({ ...fastifyOptions, logger });
  await registerShopApi(app, createPostgresHandlers(pool, cursorSecret === undefined ? {} : { cursorSecret }), {
    // Every handler passes its transaction to ctx.events.write: its event and its idempotent answer commit with it.
    idempotency: createPostgresIdempotency(pool),
    ...rest,
    migrations: SHOP_MIGRATIONS,
    webhooks: { outbox: createPostgresOutbox(pool), endpoints: createPostgresEndpoints(pool), ...webhooks },
    // GET /vN/events reads the events the handlers write in their transactions, from every instance on the database.
    stream: { log: createPostgresEventLog(pool), ...stream },
  });
  await app.listen({ host, port });
  const address = app.server.address() as AddressInfo;
  return { app, url: `http://${host}:${address.port}`, close: () => app.close() };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const url = process.env['DATABASE_URL'];
  const key = process.env['SHOP_API_KEY'];
  if (url === undefined || key === undefined) {
    console.error('set DATABASE_URL (postgres://...) and SHOP_API_KEY (the X-API-Key clients send)');
    process.exitCode = 2;
  } else {
    const pool = new pg.Pool({ connectionString: url });
    // An idle connection that breaks (the database restarted) is dropped from the pool; without a listener it would end the process.
    pool.on('error', (error) => console.error(`database connection lost: ${error.message}`));
    const scopes = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'orders:cancel', 'webhooks:read', 'webhooks:write'];
    const server = await startShopServer({
      pool,
      apiKeys: { [key]: { id: 'shop-admin', scopes } },
      files: createDiskFileStore(process.env['FILES_DIR'] ?? 'shop-files'),
      port: Number(process.env['PORT'] ?? 3000),
      logger: { level: 'info' },
      ...(process.env['CURSOR_SECRET'] ? { cursorSecret: process.env['CURSOR_SECRET'] } : {}),
    });
    console.log(`shop API on PostgreSQL at ${server.url}`);
    process.once('SIGINT', () => void server.close().finally(() => pool.end()));
    process.once('SIGTERM', () => void server.close().finally(() => pool.end()));
  }
}
