-- The tables of the shop example on PostgreSQL (examples/shop-postgres), written once by hand for the newest
-- version (v3) of examples/shop/api.ts: handlers store the newest shape, and the generated server migrates older
-- versions' requests up and answers down. Every statement is idempotent: `createSchema` runs it on every start.
-- The tables of restgen's own stores (webhook endpoints, the outbox, idempotency records) are @restgen/postgres's:
-- `createSchema` runs its versioned migration first.
--
-- Every resource table has
--   seq       the order of lists (keyset pagination): an identity, never reused, never changed;
--   revision  raised by every write. A conditional write names the revision it read in its WHERE, so a write
--             whose If-Match (or lifecycle state) was checked against a row that changed meanwhile changes
--             nothing (0 rows) and is decided again against the row as it is now.
-- Bounds, patterns and enum values are not CHECK constraints: the API checks every request, and rows written
-- under an older contract (a longer name before `max` was lowered) must stay readable.

CREATE TABLE IF NOT EXISTS customers (
  id          uuid PRIMARY KEY,
  seq         bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT customers_seq_key UNIQUE,
  revision    bigint NOT NULL DEFAULT 1,
  -- f.email().unique(): a duplicate violates this constraint (SQLSTATE 23505), answered 409.
  email       text NOT NULL CONSTRAINT customers_email_key UNIQUE,
  name        text,
  tier        text NOT NULL,
  -- Write-only (`password`): a scrypt hash, never selected into an answer.
  password    text,
  shipping    jsonb,
  tags        jsonb NOT NULL DEFAULT '[]',
  created_at  timestamptz NOT NULL
);
-- The list filter ?tier= walks this index in list order (?email= is answered by the unique index).
CREATE INDEX IF NOT EXISTS customers_tier_seq ON customers (tier, seq);

CREATE TABLE IF NOT EXISTS orders (
  id            uuid PRIMARY KEY,
  seq           bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT orders_seq_key UNIQUE,
  revision      bigint NOT NULL DEFAULT 1,
  -- Not a foreign key: the API does not promise that a referenced customer exists (nor does the memory store).
  customer_id   uuid NOT NULL,
  -- bigint: the API allows any id up to 2^53 - 1 (a JSON-safe integer), past integer's 2^31 - 1.
  product_id    bigint NOT NULL,
  quantity      integer NOT NULL,
  currency      text NOT NULL,
  reference     text,
  gift_message  text,
  -- The lifecycle state: changed only by transitions, whose UPDATE names the states they start from.
  status        text NOT NULL,
  created_at    timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_customer_seq ON orders (customer_id, seq);
CREATE INDEX IF NOT EXISTS orders_status_seq ON orders (status, seq);
-- A database made when product_id was an integer column: widened once (it refused ids the API allows).
DO $$
BEGIN
  IF (SELECT data_type FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'orders' AND column_name = 'product_id') = 'integer' THEN
    ALTER TABLE orders ALTER COLUMN product_id TYPE bigint;
  END IF;
END $$;

CREATE TABLE IF NOT EXISTS coupons (
  id           uuid PRIMARY KEY,
  seq          bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT coupons_seq_key UNIQUE,
  revision     bigint NOT NULL DEFAULT 1,
  code         text NOT NULL CONSTRAINT coupons_code_key UNIQUE,
  percent_off  integer NOT NULL,
  valid_until  date
);
