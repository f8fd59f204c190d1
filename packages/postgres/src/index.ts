/**
 * `@restgen/postgres`: the PostgreSQL stores of a restgen-generated server, shared by every instance that serves
 * one database — the transactional webhook outbox (`createPostgresOutbox`), webhook endpoints
 * (`createPostgresEndpoints`), answers to Idempotency-Keys written in the handler's transaction
 * (`createPostgresIdempotency`), the event stream's log (`createPostgresEventLog`) — and the versioned migration that creates their tables (`migrate`, and the
 * `restgen-postgres` command). They implement the interfaces `@restgen/runtime` declares.
 */
export { createPostgresEndpoints } from './endpoints.js';
export {
  createPostgresEventLog,
  KICK_EVENTS,
  KICK_MS,
  NUMBER_MAX,
  POSTGRES_RETENTION,
  PRUNE_MAX,
  type PostgresEventLogOptions,
} from './event-log.js';
export { createPostgresIdempotency, type PostgresIdempotency, type PostgresIdempotencyOptions } from './idempotency.js';
export { migrate, schemaVersion, type MigrationResult } from './migrate.js';
export { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations.js';
export { createPostgresOutbox, type PostgresOutboxOptions } from './outbox.js';
