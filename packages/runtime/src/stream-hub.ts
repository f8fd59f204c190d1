/**
 * One instance's side of the event stream: the hub follows the event log (woken at once by an append on this
 * instance, and polled every `pollInterval` for appends by other instances) and hands each new batch to the
 * readers that are up to date, so a thousand readers cost one read of the log, not a thousand. A reader that is
 * behind (it resumed from an older id, or joined while a batch was in flight) reads the log itself, page by
 * page at the pace its connection takes, until it has caught up with the hub; then it joins the hub's batches.
 * JavaScript runs one step at a time, so "caught up" (the reader's position is the hub's) and joining happen
 * in one step: no batch falls between them.
 */
import type { EventLog, LoggedEvent } from './event-log.js';

/** A reader as the hub sees it. */
export interface HubReader {
  /** The last sequence this reader has been given (or skipped: another type, not readable). */
  position: number;
  /** Takes a batch that follows on from `position` (events at or below it are skipped by the reader). */
  take(events: readonly LoggedEvent[]): void;
  /** The reader fell behind the hub (a batch did not follow on from its position): it reads the log itself. */
  lag(): void;
}

/** The hub of one mounted API. */
export interface StreamHub {
  readonly log: EventLog;
  /** The newest sequence the hub has read. */
  readonly tail: number;
  /**
   * Adds `reader` when it has caught up (its position is at or past the hub's {@link tail}, or the hub follows
   * no one and starts from the reader's position): it takes every batch from now on. False: it is behind, and
   * reads on by itself.
   */
  join(reader: HubReader): boolean;
  leave(reader: HubReader): void;
  /** An event was appended on this instance: read it now rather than at the next poll. */
  wake(): void;
  /** Stops polling; readers are the route's to close. */
  stop(): void;
}

/** The hub's timing. */
export interface HubOptions {
  /** How often the log is read while readers are connected, for events other instances appended (ms). */
  readonly pollInterval: number;
  /** The most events one read takes. */
  readonly batch: number;
  readonly log: { warn(obj: object, msg: string): void };
}

/** Creates the hub that follows `log`. */
export function createStreamHub(log: EventLog, options: HubOptions): StreamHub {
  const readers = new Set<HubReader>();
  let tail = 0;
  let reading = false;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const schedule = () => {
    if (timer !== null || stopped || readers.size === 0) return;
    timer = setTimeout(() => {
      timer = null;
      void read();
    }, options.pollInterval);
  };

  /** Reads what was appended since `tail` and hands it out; one read at a time (a wake meanwhile asks for another). */
  const read = async (): Promise<void> => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const page = await log.read(tail, options.batch);
        if (page.expired) {
          // The log dropped what the hub had not read yet (a long outage, or the log was emptied): every reader
          // reads for itself from its own position, and finds out there whether it can go on.
          tail = page.head;
          for (const r of [...readers]) {
            readers.delete(r);
            r.lag();
          }
          continue;
        }
        const events = page.events;
        if (events.length === 0) break;
        tail = events[events.length - 1]!.seq;
        const first = events[0]!.seq;
        for (const r of [...readers]) {
          if (r.position >= first - 1) r.take(events);
          else {
            readers.delete(r);
            r.lag();
          }
        }
        if (events.length === options.batch) again = true;
      } while (again && !stopped);
    } catch (error) {
      // The log is away (Redis, PostgreSQL): readers keep their connections and heartbeats; the next poll tries again.
      options.log.warn({ err: error }, 'the event stream could not read the event log; trying again at the next poll');
    } finally {
      reading = false;
      schedule();
    }
  };

  return {
    log,
    get tail() {
      return tail;
    },
    join: (reader) => {
      // Following no one, the hub's tail means nothing: it starts where its first reader is.
      if (readers.size === 0 && !reading) tail = reader.position;
      else if (reader.position < tail) return false;
      readers.add(reader);
      schedule();
      return true;
    },
    leave: (reader) => {
      readers.delete(reader);
      if (readers.size === 0 && timer !== null) {
        clearTimeout(timer);
        timer = null;
      }
    },
    wake: () => {
      if (readers.size > 0) void read();
    },
    stop: () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
