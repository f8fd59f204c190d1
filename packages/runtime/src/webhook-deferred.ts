/**
 * What a store refused after the handler's change was stored: webhook deliveries whose outbox write failed (the
 * memory or Redis outbox, or a handler that did not write its event in its transaction), and events the event
 * stream's log refused. The change exists, so the request answers its success, never a 503 that would make a
 * client retry and create twice. What was refused waits in this process's memory and is written again, with
 * growing pauses, until the store takes it. It is bounded: past {@link DEFERRED_MAX} waiting, more is logged as
 * lost at once; when the server stops, one last try is made and whatever is still waiting is logged as lost
 * (each delivery with its message's id, endpoint and type; each event with its type).
 */
import { logSafely } from './contain.js';
import type { Delivery, Outbox } from './webhook-store.js';

/** The most deliveries (or events) one process holds for a later try, per holder. */
export const DEFERRED_MAX = 10_000;
/** The first pause before a deferred batch is tried again, in ms; it doubles up to {@link DEFERRED_PAUSE_MAX}. */
export const DEFERRED_PAUSE = 500;
export const DEFERRED_PAUSE_MAX = 30_000;

/** What happened to what a store refused: held for a later try, or lost (the holder is full). */
export type Deferral = 'deferred' | 'lost';

/** Where refused items wait. */
export interface Deferred<T> {
  /** Holds `items` for a later try: 'deferred', or 'lost' when there is no room (logged). */
  hold(items: readonly T[], cause: unknown): Deferral;
  /** How many wait. */
  readonly size: number;
  /** Tries once more and logs what is still waiting as lost. */
  stop(): Promise<void>;
}

/** Where refused webhook deliveries wait. */
export type DeferredEvents = Deferred<Delivery>;

/** The logger a holder reports to. */
export interface DeferredLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** How a holder writes its items again and names them in its log. */
export interface DeferredStore<T> {
  /** Writes `items` to the store that refused them (throws when it still cannot). */
  write(items: readonly T[]): Promise<void>;
  /** What the log says of one item lost. */
  describe(item: T): object;
  /** The log's words: the count's field (`deliveries`), and each message. */
  readonly say: {
    readonly unit: string;
    readonly held: string;
    readonly written: string;
    full(item: T, max: number): string;
    stopped(item: T): string;
  };
}

/** Items `store` refused, written to it again later (see the module). */
export function createDeferred<T>(store: DeferredStore<T>, log: DeferredLog, max = DEFERRED_MAX): Deferred<T> {
  let waiting: T[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pause = DEFERRED_PAUSE;
  let stopped = false;
  const { say } = store;
  const lost = (item: T, cause: unknown, msg: string) => logSafely(log, 'error', { ...store.describe(item), err: cause }, msg);

  const flush = async (): Promise<void> => {
    timer = null;
    const batch = waiting;
    waiting = [];
    try {
      await store.write(batch);
      pause = DEFERRED_PAUSE;
      log.info({ [say.unit]: batch.length }, say.written);
    } catch {
      waiting = [...batch, ...waiting];
      pause = Math.min(pause * 2, DEFERRED_PAUSE_MAX);
    }
    schedule();
  };
  const schedule = () => {
    if (stopped || timer !== null || waiting.length === 0) return;
    timer = setTimeout(() => void flush(), pause);
    // A process with nothing else to do may end; stop() logs what waits.
    timer.unref();
  };

  return {
    get size() {
      return waiting.length;
    },
    hold(items, cause) {
      if (waiting.length + items.length > max) {
        // What the store threw is a store's (user code): logged as what can be read of it.
        for (const item of items) lost(item, cause, say.full(item, max));
        return 'lost';
      }
      waiting.push(...items);
      logSafely(log, 'warn', { err: cause, [say.unit]: items.length }, say.held);
      schedule();
      return 'deferred';
    },
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (waiting.length === 0) return;
      const batch = waiting;
      waiting = [];
      try {
        await store.write(batch);
      } catch (error) {
        for (const item of batch) lost(item, error, say.stopped(item));
      }
    },
  };
}

/** Deliveries refused by `outbox`, added to it again later (see the module). */
export function createDeferredEvents(outbox: Outbox, log: DeferredLog, max = DEFERRED_MAX): DeferredEvents {
  return createDeferred<Delivery>(
    {
      write: (batch) => outbox.add(batch),
      describe: (d) => ({ webhookId: d.id, endpoint: d.endpoint, type: d.type }),
      say: {
        unit: 'deliveries',
        held: 'the outbox failed after the change was stored; its webhook deliveries wait in memory for another try',
        written: 'webhook deliveries held after an outbox failure are in the outbox now',
        full: (d, most) => `webhook ${d.id} lost: the outbox failed and ${most} deliveries already wait`,
        stopped: (d) => `webhook ${d.id} lost: the outbox still failed when the server stopped`,
      },
    },
    log,
    max,
  );
}
