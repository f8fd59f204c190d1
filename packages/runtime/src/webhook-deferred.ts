/**
 * Deliveries whose outbox write failed after the handler's change was stored (the memory or Redis outbox, or a
 * handler that did not write its event in its transaction): the change exists, so the request answers its
 * success, never a 503 that would make a client retry and create twice. The deliveries wait in this process's
 * memory and are added to the outbox again, with growing pauses, until it takes them. They are bounded: past
 * {@link DEFERRED_MAX} waiting, more are logged as lost at once; when the server stops, one last try is made
 * and whatever is still waiting is logged as lost (with each message's id, endpoint and type).
 */
import { logSafely } from './contain.js';
import type { Delivery, Outbox } from './webhook-store.js';

/** The most deliveries one process holds for a later try. */
export const DEFERRED_MAX = 10_000;
/** The first pause before a deferred batch is tried again, in ms; it doubles up to {@link DEFERRED_PAUSE_MAX}. */
export const DEFERRED_PAUSE = 500;
export const DEFERRED_PAUSE_MAX = 30_000;

/** What happened to deliveries the outbox refused: held for a later try, or lost (the holder is full). */
export type Deferral = 'deferred' | 'lost';

/** Where refused deliveries wait. */
export interface DeferredEvents {
  /** Holds `deliveries` for a later try: 'deferred', or 'lost' when there is no room (logged). */
  hold(deliveries: readonly Delivery[], cause: unknown): Deferral;
  /** How many wait. */
  readonly size: number;
  /** Tries once more and logs what is still waiting as lost. */
  stop(): Promise<void>;
}

/** The logger the holder reports to. */
export interface DeferredLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const described = (d: Delivery) => ({ webhookId: d.id, endpoint: d.endpoint, type: d.type });

/** Deliveries refused by `outbox`, added to it again later (see the module). */
export function createDeferredEvents(outbox: Outbox, log: DeferredLog, max = DEFERRED_MAX): DeferredEvents {
  let waiting: Delivery[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pause = DEFERRED_PAUSE;
  let stopped = false;

  const flush = async (): Promise<void> => {
    timer = null;
    const batch = waiting;
    waiting = [];
    try {
      await outbox.add(batch);
      pause = DEFERRED_PAUSE;
      log.info({ deliveries: batch.length }, 'webhook deliveries held after an outbox failure are in the outbox now');
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
    hold(deliveries, cause) {
      if (waiting.length + deliveries.length > max) {
        // What the outbox threw is a store's (user code): logged as what can be read of it.
        for (const d of deliveries)
          logSafely(log, 'error', { ...described(d), err: cause }, `webhook ${d.id} lost: the outbox failed and ${max} deliveries already wait`);
        return 'lost';
      }
      waiting.push(...deliveries);
      logSafely(
        log,
        'warn',
        { err: cause, deliveries: deliveries.length },
        'the outbox failed after the change was stored; its webhook deliveries wait in memory for another try',
      );
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
        await outbox.add(batch);
      } catch (error) {
        for (const d of batch)
          logSafely(log, 'error', { ...described(d), err: error }, `webhook ${d.id} lost: the outbox still failed when the server stopped`);
      }
    },
  };
}
