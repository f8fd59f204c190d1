/**
 * The event log the event stream (`GET /vN/events`) reads: every event the API sends, once, in the newest
 * version's shape, numbered by a sequence that only grows (the stream's `id`), kept for a retention window.
 * The interfaces, and the memory implementation (one instance); the Redis one is in `event-log-redis.ts`,
 * PostgreSQL's in `@restgen/postgres` (a `TransactionalEventLog`, written in the handlers' transactions). A reader resumes after the last sequence it saw; when the log
 * has dropped events after that point, the read says so (`expired`) and the stream answers 410.
 */

/** An event as it is appended: its type, when it happened (ms since the epoch) and its data as JSON text. */
export interface NewEvent {
  readonly type: string;
  readonly time: number;
  /** The event's data in the newest version's shape, as JSON text (the stream renders it per version). */
  readonly data: string;
}

/** An event as the log keeps it: {@link NewEvent} with its sequence number (1, 2, 3, ...). */
export interface LoggedEvent extends NewEvent {
  readonly seq: number;
}

/** What one read finds. */
export interface LogPage {
  /** The events after the position read from, oldest first, at most as many as asked for. */
  readonly events: readonly LoggedEvent[];
  /** The newest sequence the log has handed out (0: none yet). */
  readonly head: number;
  /**
   * True when events after the position read from were dropped (retention), or the position is one the log
   * never handed out (after the head: the log was emptied since): a reader there cannot see every event.
   */
  readonly expired: boolean;
}

/**
 * Where the event stream's events are kept. `append` numbers the events in the order given, after every
 * event appended before; a sequence is never handed out twice. Reads see an event only once every event
 * before it is visible too (a reader that resumed after `n` never misses one below `n`).
 */
export interface EventLog {
  append(events: readonly NewEvent[]): Promise<void>;
  /** Up to `max` events with a sequence above `after`, oldest first. */
  read(after: number, max: number): Promise<LogPage>;
  /** How long events are kept at least, in ms, and at most how many: for the documents and the 410's detail. */
  readonly retention: Retention;
}

/** An {@link EventLog} whose appends can go through the handler's own transaction (a table in its database). */
export interface TransactionalEventLog extends EventLog {
  /** Appends through `tx` (what the handler passed to `ctx.events.write`): visible once it commits, gone if it rolls back. */
  appendWith(tx: unknown, events: readonly NewEvent[]): Promise<void>;
}

/** How long a log keeps events: at least `ms` (unless more than `events` came since), and at most `events` of them. */
export interface Retention {
  readonly ms: number;
  readonly events: number;
}

/** The default retention of the memory log: a day, and the newest 10,000 events. */
export const MEMORY_RETENTION: Retention = { ms: 86_400_000, events: 10_000 };

/** Whether a log appends through the handlers' transactions. */
export function isTransactionalLog(log: EventLog): log is TransactionalEventLog {
  return typeof (log as { appendWith?: unknown }).appendWith === 'function';
}

/**
 * Whether a read after `after` cannot see every event: `first` is the oldest sequence kept (head + 1 when the
 * log keeps none), `head` the newest handed out.
 */
export const isExpired = (after: number, first: number, head: number): boolean => after > head || after < first - 1;

/**
 * An event log in this process's memory (one instance: another instance has its own). Events older than
 * `retention.ms` or beyond the newest `retention.events` are dropped when the next event is appended, so memory
 * holds at most `retention.events` events.
 */
export function createMemoryEventLog(retention: Partial<Retention> = {}, now: () => number = Date.now): EventLog {
  const kept: Retention = { ms: retention.ms ?? MEMORY_RETENTION.ms, events: retention.events ?? MEMORY_RETENTION.events };
  // Kept from index `start` on; the dropped front is cut off once it is half the array (amortized O(1) per event).
  let events: LoggedEvent[] = [];
  let start = 0;
  let head = 0;
  const trim = () => {
    const oldest = now() - kept.ms;
    start = Math.max(start, events.length - kept.events);
    while (start < events.length && events[start]!.time < oldest) start++;
    if (start > 1024 && start * 2 > events.length) {
      events = events.slice(start);
      start = 0;
    }
  };
  return {
    retention: kept,
    append: async (added) => {
      for (const e of added) events.push({ seq: ++head, type: e.type, time: e.time, data: e.data });
      trim();
    },
    read: async (after, max) => {
      const first = events[start]?.seq ?? head + 1;
      if (isExpired(after, first, head)) return { events: [], head, expired: true };
      // Sequences are consecutive: the index of `after + 1` is known.
      const from = start + Math.max(0, after + 1 - first);
      return { events: events.slice(from, from + max), head, expired: false };
    },
  };
}
