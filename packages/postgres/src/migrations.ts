/**
 * The tables of `@restgen/postgres`, as numbered migrations: each is applied once, in order, and recorded in
 * `restgen_schema_version`. A migration is never changed once released; a change to a table is a new migration.
 * Every name starts with `restgen_`, so the tables sit beside the application's own in its schema (the first schema
 * of the connection's `search_path`).
 */

/** One step of the schema. */
export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

/** The migrations, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'webhook endpoints, the webhook outbox, idempotency records and the events table',
    sql: `
-- Webhook endpoints (the built-in /webhook_endpoints collection). An update is a compare-and-set on revision.
CREATE TABLE restgen_webhook_endpoints (
  id        text PRIMARY KEY,
  revision  bigint NOT NULL DEFAULT 1,
  record    jsonb NOT NULL
);

-- The webhook outbox: one row per message and endpoint, inserted in the handler's transaction, claimed with a lease
-- (FOR UPDATE SKIP LOCKED), deleted once delivered or given up.
CREATE TABLE restgen_webhook_outbox (
  -- The webhook-id header: the same across every attempt of one message.
  id        text PRIMARY KEY,
  seq       bigint GENERATED ALWAYS AS IDENTITY,
  endpoint  text NOT NULL,
  type      text NOT NULL,
  body      text NOT NULL,
  attempts  integer NOT NULL DEFAULT 0,
  -- When it may be claimed, in ms since the epoch (the dispatcher's clock); a claim moves it past the lease.
  due_at    bigint NOT NULL,
  -- The token of the dispatcher holding it; complete and retry count only with the current one.
  lease     text
);
CREATE INDEX restgen_webhook_outbox_due ON restgen_webhook_outbox (due_at, seq);

-- Answers to Idempotency-Keys, written in the handler's transaction: the key commits with the change or not at all.
CREATE TABLE restgen_idempotency (
  -- Who sent the key, what for, and the key (opaque text).
  key          text PRIMARY KEY,
  -- SHA-256 of the request body's canonical JSON: the same key with another body answers 422.
  fingerprint  text NOT NULL,
  -- The answer replayed: status, Location, ETag and body.
  answer       jsonb NOT NULL,
  -- In ms since the epoch; an expired record is replaced by the next request with its key.
  expires_at   bigint NOT NULL
);
CREATE INDEX restgen_idempotency_expires ON restgen_idempotency (expires_at);

-- Every event once, in the newest version's shape, for change data capture: the columns Debezium's outbox event
-- router reads by default (id, aggregatetype, aggregateid, type, payload) and the time it was written.
CREATE TABLE restgen_events (
  id             uuid PRIMARY KEY,
  aggregatetype  varchar(255) NOT NULL,
  aggregateid    varchar(255) NOT NULL,
  type           varchar(255) NOT NULL,
  payload        jsonb,
  timestamp      timestamptz NOT NULL DEFAULT now()
);
`,
  },
  {
    version: 2,
    description: "the event stream's log",
    sql: `
-- The event stream's log (GET /vN/events): every event the API sends, once, in the newest version's shape. A handler
-- inserts its events in its own transaction without a sequence; the log numbers committed rows afterwards, one
-- numbering at a time (the row lock on restgen_event_log_head), so sequences follow the order rows became visible and
-- a reader never sees a sequence before every lower one (a sequence taken at insert could commit out of order).
CREATE TABLE restgen_event_log (
  -- The order rows were inserted in: the order one numbering hands sequences out in.
  id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- The stream's id: null until numbered, then 1, 2, 3, ... without gaps. Retention deletes the oldest.
  seq   bigint UNIQUE,
  type  text NOT NULL,
  -- When it happened, in ms since the epoch (the server's clock): retention by age reads it.
  at    bigint NOT NULL,
  -- The event's data in the newest version's shape, as JSON text (the stream renders it per version).
  data  text NOT NULL
);
-- What the next numbering takes, oldest first.
CREATE INDEX restgen_event_log_unnumbered ON restgen_event_log (id) WHERE seq IS NULL;

-- The newest sequence handed out (0: none yet), in one row whose lock makes numberings take turns.
CREATE TABLE restgen_event_log_head (
  one   boolean PRIMARY KEY DEFAULT true CHECK (one),
  head  bigint NOT NULL
);
INSERT INTO restgen_event_log_head (head) VALUES (0);
`,
  },
];

/** The newest version this package knows. */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
