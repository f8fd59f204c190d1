/**
 * `@restgen/postgres`'s event log on a real PostgreSQL: two transactions that commit out of order are seen in commit
 * order and a reader never skips the earlier one (a sequence taken at insert would); a rolled-back append never
 * appears; many concurrent writers, some rolling back, under a polling reader give every committed event once, in
 * sequence without holes; retention by count and by age (an injected clock), pruned a bounded amount per numbering,
 * and `expired` as `isExpired` defines it; and two logs on one database (two instances) read each other's events.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPostgresEventLog, KICK_EVENTS, migrate, NUMBER_MAX, PRUNE_MAX } from '@restgen/postgres';
import type { EventLog, LoggedEvent } from '@restgen/runtime';
import pg from 'pg';
import { createTestDatabase, postgresUrl, requirePostgres, type TestDatabase } from './database.ts';

const serverUrl = postgresUrl();
const event = (data: string, time = Date.now()) => ({ type: 't', time, data });

/** Runs `work` in a transaction of its own; `commit` false rolls it back. */
async function inTx(pool: pg.Pool, work: (tx: pg.PoolClient) => Promise<void>, commit = true): Promise<void> {
  const tx = await pool.connect();
  try {
    await tx.query('BEGIN');
    await work(tx);
    await tx.query(commit ? 'COMMIT' : 'ROLLBACK');
  } finally {
    tx.release();
  }
}

/** A reader that polls the log as the stream hub does: after the last sequence it saw, never before. */
function follower(log: EventLog) {
  const seen: LoggedEvent[] = [];
  let position = 0;
  return {
    seen,
    async poll(): Promise<void> {
      for (;;) {
        const page = await log.read(position, 100);
        if (page.expired) throw new Error(`expired at ${position}`);
        seen.push(...page.events);
        if (page.events.length === 0) return;
        position = page.events[page.events.length - 1]!.seq;
      }
    },
  };
}

describe.runIf(requirePostgres(serverUrl))("@restgen/postgres's event log", () => {
  let db: TestDatabase;
  let schemas = 0;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await createTestDatabase(serverUrl!);
  });
  afterAll(async () => db?.drop());
  afterEach(async () => pool.end());
  // Each test on tables of its own, in a schema of its own (the first of the pool's search_path): a numbering a
  // log started in the background of one test cannot touch the next one's rows.
  beforeEach(async () => {
    const schema = `s${schemas++}`;
    await db.pool.query(`CREATE SCHEMA ${schema}`);
    pool = new pg.Pool({ connectionString: db.url, max: 16, options: `-c search_path=${schema}` });
    await migrate(pool);
  });
  const rows = async () => Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM restgen_event_log')).rows[0]!.n);

  it('numbers events as they commit: a reader never skips a transaction that committed after a later one', async () => {
    const log = createPostgresEventLog(pool);
    const reader = follower(log);
    const a = await pool.connect();
    const b = await pool.connect();
    try {
      await a.query('BEGIN');
      await b.query('BEGIN');
      // A writes first (a bigserial would give it 1), B second (2); B commits first.
      await log.appendWith(a, [event('A')]);
      await log.appendWith(b, [event('B')]);
      await b.query('COMMIT');
      await reader.poll();
      expect(reader.seen.map((e) => [e.seq, e.data])).toEqual([[1, 'B']]);
      await a.query('COMMIT');
      await reader.poll();
    } finally {
      a.release();
      b.release();
    }
    // The reader resumed after 1 and still got A: its sequence is the one after B's.
    expect(reader.seen.map((e) => [e.seq, e.data])).toEqual([
      [1, 'B'],
      [2, 'A'],
    ]);
    expect(await log.read(0, 10)).toMatchObject({ head: 2, expired: false });
  });

  it('a rolled-back append never appears and takes no sequence', async () => {
    const log = createPostgresEventLog(pool);
    await inTx(pool, (tx) => log.appendWith(tx, [event('gone')]), false);
    await inTx(pool, (tx) => log.appendWith(tx, [event('kept')]));
    const page = await log.read(0, 10);
    expect(page.events.map((e) => [e.seq, e.data])).toEqual([[1, 'kept']]);
    expect(page.head).toBe(1);
  });

  it('refuses the pool as a transaction, naming the fix', async () => {
    const log = createPostgresEventLog(pool);
    await expect(log.appendWith(pool, [event('x')])).rejects.toThrow('tx is the pool; pass the client that holds the transaction');
  });

  it('gives a polling reader every committed event of concurrent writers once, in sequence without holes', async () => {
    const log = createPostgresEventLog(pool);
    const reader = follower(log);
    let writing = true;
    const polling = (async () => {
      while (writing) {
        await reader.poll();
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const committed: string[] = [];
    // 12 writers, 15 transactions each; every third rolls back; each holds its transaction a random while after
    // appending, so commits land in another order than the inserts.
    await Promise.all(
      Array.from({ length: 12 }, (_, w) =>
        (async () => {
          for (let t = 0; t < 15; t++) {
            const commit = (w + t) % 3 !== 0;
            const data = [`${w}.${t}.a`, `${w}.${t}.b`];
            await inTx(
              pool,
              async (tx) => {
                await log.appendWith(
                  tx,
                  data.map((d) => event(d)),
                );
                await new Promise((r) => setTimeout(r, Math.random() * 8));
              },
              commit,
            );
            if (commit) committed.push(...data);
          }
        })(),
      ),
    );
    writing = false;
    await polling;
    await reader.poll();
    expect(reader.seen.map((e) => e.data).sort()).toEqual(committed.sort());
    expect(reader.seen.map((e) => e.seq)).toEqual(committed.map((_, i) => i + 1));
    // A transaction's events keep the order they were appended in (others' may fall between them).
    const seqOf = new Map(reader.seen.map((e) => [e.data, e.seq]));
    for (const data of committed.filter((d) => d.endsWith('.a'))) expect(seqOf.get(data)!).toBeLessThan(seqOf.get(data.replace(/a$/, 'b'))!);
  });

  it('keeps the newest retention.events events and reads an older position as expired', async () => {
    const log = createPostgresEventLog(pool, { retention: { events: 3 } });
    await log.append([1, 2, 3, 4, 5].map((n) => event(String(n))));
    expect(await log.read(1, 10)).toEqual({ events: [], head: 5, expired: true });
    const page = await log.read(2, 10);
    expect(page.expired).toBe(false);
    expect(page.events.map((e) => e.seq)).toEqual([3, 4, 5]);
    // A position it never handed out (the table was emptied since) cannot be resumed from either.
    expect((await log.read(6, 10)).expired).toBe(true);
    expect(await rows()).toBe(3);
  });

  it('drops events older than retention.ms when the next ones are numbered, oldest first', async () => {
    let now = 1_000_000;
    const log = createPostgresEventLog(pool, { retention: { ms: 60_000 }, now: () => now });
    await log.append([event('1', now), event('2', now)]);
    now += 60_000;
    await log.append([event('3', now)]);
    expect((await log.read(0, 10)).events.map((e) => e.seq)).toEqual([1, 2, 3]);
    now += 1;
    await log.append([event('4', now)]);
    expect((await log.read(0, 10)).expired).toBe(true);
    expect((await log.read(2, 10)).events.map((e) => e.seq)).toEqual([3, 4]);
  });

  it('prunes a bounded number of rows per numbering, oldest first, until what is left is young', async () => {
    let now = 1_000_000;
    const log = createPostgresEventLog(pool, { retention: { ms: 1000 }, now: () => now });
    const many = PRUNE_MAX + NUMBER_MAX + 1;
    await log.append(Array.from({ length: many }, (_, i) => event(String(i + 1), now)));
    expect(await rows()).toBe(many);
    now += 1001;
    // Each append's numbering deletes at most PRUNE_MAX of the old rows, and stops at the first young one.
    await log.append([event('young 1', now)]);
    expect(await rows()).toBe(many + 1 - PRUNE_MAX);
    await log.append([event('young 2', now)]);
    expect(await rows()).toBe(2);
    const page = await log.read(many, 10);
    expect(page.events.map((e) => e.data)).toEqual(['young 1', 'young 2']);
    expect((await log.read(many - 1, 10)).expired).toBe(true);
  });

  it('numbers what handlers committed when a read comes, a bounded batch at a time, and keeps the table to the retention', async () => {
    const log = createPostgresEventLog(pool, { retention: { events: 10 } });
    const total = 3 * NUMBER_MAX;
    // Rows committed by handlers while nobody read (inserted as appendWith does, without a background numbering).
    await pool.query("INSERT INTO restgen_event_log (type, at, data) SELECT 't', $1, g::text FROM generate_series(1, $2) g", [Date.now(), total]);
    const heads: number[] = [];
    for (let i = 0; i < 3; i++) heads.push((await log.read(0, 1)).head);
    expect(heads).toEqual([NUMBER_MAX, 2 * NUMBER_MAX, 3 * NUMBER_MAX]);
    expect(await rows()).toBe(10);
    const page = await log.read(total - 10, 100);
    expect(page.events.map((e) => e.data)).toEqual(Array.from({ length: 10 }, (_, i) => String(total - 9 + i)));
  });

  it('numbers and prunes in the background while handlers append and nobody reads', async () => {
    const now = 1_000_000;
    // A clock that stands still: only the count of appended events starts a numbering.
    const log = createPostgresEventLog(pool, { retention: { events: 10 }, now: () => now });
    const head = async () => Number((await pool.query<{ head: string }>('SELECT head FROM restgen_event_log_head')).rows[0]!.head);
    const batch = (n: number) => Array.from({ length: KICK_EVENTS }, (_, i) => event(`${n}.${i}`, now));
    // Each batch starts a numbering (while its own transaction is open: it numbers the batches committed before).
    for (let n = 1; n <= 50 && (await head()) === 0; n++) {
      await inTx(pool, (tx) => log.appendWith(tx, batch(n)));
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await head()).toBeGreaterThanOrEqual(KICK_EVENTS);
    // What was numbered was pruned to the retention at once; only what came after waits for a number.
    const numbered = await pool.query<{ n: string }>('SELECT count(*) AS n FROM restgen_event_log WHERE seq IS NOT NULL');
    expect(Number(numbered.rows[0]!.n)).toBe(10);
  });

  it('two logs on one database (two instances) read what the other appended', async () => {
    const a = createPostgresEventLog(pool);
    const b = createPostgresEventLog(pool);
    await a.append([event('from a')]);
    await inTx(pool, (tx) => b.appendWith(tx, [event('from b')]));
    expect((await b.read(0, 10)).events.map((e) => e.data)).toEqual(['from a', 'from b']);
    expect((await a.read(1, 10)).events.map((e) => [e.seq, e.data])).toEqual([[2, 'from b']]);
  });
});
