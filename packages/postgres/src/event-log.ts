/**
 * The event stream's log as a table (`restgen_event_log`), a `TransactionalEventLog`: handlers append their events
 * with `appendWith(tx)` inside their own transaction (through `ctx.events.write`), so a reader sees an event once its
 * change committed, and never one whose change rolled back.
 *
 * Why events are numbered after they commit: a sequence taken at insert (`bigserial`) is handed out when the row is
 * written, not when it commits, so transaction A can take 10, B take 11 and commit first; a reader then sees 11,
 * moves its position past it, and never sees 10. Serializing the writers instead (an advisory lock held from the
 * insert to the commit) would make every event-writing transaction wait for the previous one to commit. So rows are
 * inserted without a sequence, and a **numbering** gives the committed rows that have none the next sequences, in one
 * short transaction of its own, one numbering at a time (it locks the one row of `restgen_event_log_head`, which holds
 * the newest sequence). A row that commits later is numbered later, with a higher sequence: what a reader sees is
 * always 1..head without holes, and a read is one statement (one snapshot), so it never sees a numbering half done.
 * Writers never wait for one another; the price is a second write per event (the numbering's update).
 *
 * Who numbers: every read that finds rows without a sequence (the stream hub of each instance with readers reads every
 * `pollInterval`, so an event reaches readers on every instance within about that interval of its commit); `append`
 * (outside a transaction) numbers its own events at once; and an instance whose handlers append, with nobody reading,
 * starts a numbering now and then (every {@link KICK_EVENTS} events or {@link KICK_MS} ms), so retention keeps the
 * table bounded even when no stream is open. Each numbering takes at most {@link NUMBER_MAX} rows, then deletes what
 * is past the retention from the oldest, at most {@link PRUNE_MAX} rows (more than a numbering adds, so the table
 * shrinks back to its retention under any steady rate).
 */
import type pg from 'pg';
import { isExpired, type LoggedEvent, type NewEvent, type Retention, type TransactionalEventLog } from '@restgen/runtime';
import { clientOf, inTransaction, type Queryable } from './client.js';

/** The default retention in PostgreSQL: a day, and the newest 100,000 events (the Redis log's). */
export const POSTGRES_RETENTION: Retention = { ms: 86_400_000, events: 100_000 };

/** The most rows one numbering gives sequences to. */
export const NUMBER_MAX = 500;
/** The most rows one numbering deletes as past the retention (more than it numbers: the table shrinks back). */
export const PRUNE_MAX = 1000;
/** An instance that appends in handlers' transactions starts a numbering after this many events... */
export const KICK_EVENTS = 250;
/** ...or when this long passed since its last one (ms), whichever comes first. */
export const KICK_MS = 1000;

/** Options of {@link createPostgresEventLog}. */
export interface PostgresEventLogOptions {
  /**
   * How long events are kept at least (`ms`, default a day; unless more than `events` came since), and at most how
   * many (`events`, default 100,000). A reader that resumes from an older id gets 410 `stream_expired`.
   */
  readonly retention?: Partial<Retention>;
  /** The clock events are aged by, in ms since the epoch (default `Date.now`); tests inject one. */
  readonly now?: () => number;
}

/** Inserts events without a sequence, in the order given (identity values follow unnest's order). */
const INSERT = `INSERT INTO restgen_event_log (type, at, data)
  SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[])`;

/**
 * Numbers up to $1 committed rows that have no sequence, oldest insert first, after the head, and moves the head past
 * them; answers the new head, or no row when there was nothing to number (then nothing is written: instances that
 * queued behind one numbering find nothing left, cheaply). Run after the head row is locked (`FOR UPDATE`), in the
 * same transaction.
 */
const NUMBER = `WITH next AS (
    SELECT id, row_number() OVER (ORDER BY id) AS n FROM restgen_event_log WHERE seq IS NULL ORDER BY id LIMIT $1
  ), numbered AS (
    UPDATE restgen_event_log l SET seq = h.head + next.n FROM next, restgen_event_log_head h WHERE l.id = next.id RETURNING 1
  )
  UPDATE restgen_event_log_head SET head = head + (SELECT count(*) FROM numbered) WHERE EXISTS (SELECT 1 FROM numbered) RETURNING head`;

/**
 * Deletes the oldest numbered rows past the retention, at most $3 of them: every sequence up to $1 (head minus the
 * events kept), and the run of oldest rows that happened before $2 (now minus the ms kept), which stops at the first
 * younger one, as the memory log's does. Only a prefix of the sequences is ever deleted, so what remains is
 * `first..head` without holes and `isExpired` holds.
 */
const PRUNE = `WITH kept AS (SELECT min(seq) AS first FROM restgen_event_log),
  young AS (
    SELECT min(l.seq) AS seq FROM restgen_event_log l, kept WHERE l.seq BETWEEN kept.first AND kept.first + $3 - 1 AND l.at >= $2
  )
  DELETE FROM restgen_event_log WHERE seq <= (
    SELECT LEAST(kept.first + $3 - 1, GREATEST($1::bigint, COALESCE(young.seq, kept.first + $3) - 1)) FROM kept, young
  )`;

/**
 * One read, one statement (so one snapshot: the head, the oldest kept and the page agree with each other): the head,
 * the oldest sequence kept (null when none), whether committed rows wait for a number, and up to $2 events after $1.
 */
const READ = `SELECT h.head, (SELECT min(seq) FROM restgen_event_log) AS first,
    EXISTS (SELECT 1 FROM restgen_event_log WHERE seq IS NULL) AS waiting, e.seq, e.type, e.at, e.data
  FROM restgen_event_log_head h
  LEFT JOIN LATERAL (SELECT seq, type, at, data FROM restgen_event_log WHERE seq > $1 ORDER BY seq LIMIT $2) e ON true
  ORDER BY e.seq`;

interface ReadRow {
  readonly head: string;
  readonly first: string | null;
  readonly waiting: boolean;
  readonly seq: string | null;
  readonly type: string | null;
  readonly at: string | null;
  readonly data: string | null;
}

/** The parameters of {@link INSERT}. */
const columnsOf = (events: readonly NewEvent[]) => [events.map((e) => e.type), events.map((e) => e.time), events.map((e) => e.data)];

/** Read committed whatever the database's default: a numbering waits for the head's lock, never fails on it. */
const BEGIN = 'BEGIN ISOLATION LEVEL READ COMMITTED';

/**
 * The event log in the database `pool` connects to (tables created by `migrate`), shared by every instance on it.
 * Pass it as the stream's log: `registerShopApi(app, handlers, { stream: { log: createPostgresEventLog(pool) } })`.
 * One API's stream per schema: two APIs on one database keep their tables in schemas of their own (`search_path`).
 */
export function createPostgresEventLog(pool: pg.Pool, options: PostgresEventLogOptions = {}): TransactionalEventLog {
  const retention: Retention = { ms: options.retention?.ms ?? POSTGRES_RETENTION.ms, events: options.retention?.events ?? POSTGRES_RETENTION.events };
  const now = options.now ?? Date.now;

  /**
   * Numbers what waits (up to NUMBER_MAX) and prunes, in `db`'s transaction, which holds the head's lock until it
   * ends; answers how many it numbered.
   */
  const numberIn = async (db: Queryable): Promise<number> => {
    const locked = await db.query<{ head: string }>('SELECT head FROM restgen_event_log_head FOR UPDATE');
    const before = Number(locked.rows[0]!.head);
    const numbered = await db.query<{ head: string }>(NUMBER, [NUMBER_MAX]);
    if (numbered.rows.length === 0) return 0;
    // As the memory log trims when events come: what the new ones push past the retention goes.
    const head = Number(numbered.rows[0]!.head);
    await db.query(PRUNE, [head - retention.events, now() - retention.ms, PRUNE_MAX]);
    return head - before;
  };
  const number = () =>
    inTransaction(
      pool,
      async (db) => {
        await numberIn(db);
      },
      BEGIN,
    );

  // The background numbering of appendWith (nobody may be reading): one at a time, its failure left to the next one.
  let sinceKick = 0;
  let lastKick = now();
  let kicking = false;
  const kick = (added: number) => {
    sinceKick += added;
    if (kicking || (sinceKick < KICK_EVENTS && now() - lastKick < KICK_MS)) return;
    kicking = true;
    sinceKick = 0;
    lastKick = now();
    // Not awaited: the handler's transaction must not wait for another connection (the pool may be full of
    // handlers). A failure is not lost work: the rows wait for the next numbering or read.
    number().then(
      () => (kicking = false),
      () => (kicking = false),
    );
  };

  const read = async (after: number, max: number) => {
    const { rows } = await pool.query<ReadRow>(READ, [after, max]);
    const state = rows[0]!;
    const events: LoggedEvent[] = [];
    for (const r of rows) if (r.seq !== null) events.push({ seq: Number(r.seq), type: r.type!, time: Number(r.at), data: r.data! });
    return { head: Number(state.head), first: state.first === null ? null : Number(state.first), waiting: state.waiting, events };
  };

  return {
    retention,
    async append(events) {
      if (events.length === 0) return;
      // Inserted and numbered in one transaction: a failure leaves nothing behind, so the caller may try again.
      await inTransaction(
        pool,
        async (db) => {
          await db.query(INSERT, columnsOf(events));
          // Until every row it inserted has its number (a numbering takes NUMBER_MAX at most).
          while ((await numberIn(db)) === NUMBER_MAX);
        },
        BEGIN,
      );
    },
    async appendWith(tx, events) {
      // The handler's own connection, inside its transaction: the pool would commit on its own.
      const db = clientOf(tx, 'ctx.events.write(tx, ...)');
      if (events.length === 0) return;
      await db.query(INSERT, columnsOf(events));
      kick(events.length);
    },
    async read(after, max) {
      let page = await read(after, max);
      if (page.waiting) {
        await number();
        page = await read(after, max);
      }
      // The rule of every restgen log, with the oldest kept (head + 1 when none is) and the head of one snapshot.
      const expired = isExpired(after, page.first ?? page.head + 1, page.head);
      return { events: expired ? [] : page.events, head: page.head, expired };
    },
  };
}
