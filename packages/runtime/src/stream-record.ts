/**
 * Events into the event log (what `GET /vN/events` reads): every event the API sends, whoever subscribes to it,
 * once, as JSON text in the newest shape. A derived event keeps its resource as the newest version that has the
 * collection answers it (shaped and checked, write-only fields left out: the log never holds what no answer
 * shows); a custom event keeps its payload as `ctx.emit` checked it. The stream renders either for each reader's
 * version with the webhooks' own renderers, so a reader of v1 and a webhook endpoint of v1 get the same shape.
 */
import { createPresenter } from './answer.js';
import { isTransactionalLog, type EventLog, type NewEvent } from './event-log.js';
import type { WebhooksSpec } from './spec.js';
import type { Mount } from './state.js';
import { createDeferred, type Deferral, type DeferredLog } from './webhook-deferred.js';

/** Writes events to the log. */
export interface EventRecorder {
  /** Whether events written through a transaction (`recordWith`) go into the handler's transaction. */
  readonly transactional: boolean;
  /** Appends `type` with `data` (newest shape); nothing when `data` cannot be shown (logged). */
  record(type: string, data: Record<string, unknown>): Promise<void>;
  /** The same through `tx`, the handler's transaction (only when {@link transactional}). */
  recordWith(tx: unknown, type: string, data: Record<string, unknown>): Promise<void>;
  /**
   * The same after the handler's change was stored: an append the log refuses is held in memory and tried again
   * (as refused webhook deliveries are), never thrown. Null when it was appended (or cannot be shown), else
   * what became of it: `deferred`, or `lost` when too many already wait.
   */
  recordAfter(type: string, data: Record<string, unknown>): Promise<Deferral | null>;
  /** Tries what waits once more, and logs what still waits as lost (the server stops). */
  stop(): Promise<void>;
}

/** The newest shape of each event type's data as kept in the log, or null when it cannot be shown. */
type Canonical = (data: Record<string, unknown>) => unknown | null;

/** How each type's data is kept: a derived event's resource as the newest version with its collection shows it. */
function canonicalForms(m: Mount, webhooks: WebhooksSpec, log: { warn(obj: object, msg: string): void }): Map<string, Canonical> {
  const out = new Map<string, Canonical>();
  for (const [type, r] of Object.entries(webhooks.resources)) {
    const version = [...m.spec.versions].reverse().find((v) => v.routes.some((route) => route.collection.key === r.collection));
    const route = version?.routes.find((x) => x.collection.key === r.collection);
    if (!version || !route) continue;
    const present = createPresenter(m, version, route, `event ${type}`);
    out.set(type, (data) => {
      const shown = present(data, '#', log);
      return shown.ok ? shown.value : null;
    });
  }
  // A custom event's data was checked against the newest payload that has it (`ctx.emit`): kept as it is.
  for (const type of Object.keys(webhooks.custom)) out.set(type, (data) => data);
  return out;
}

/**
 * The recorder of `eventLog`; `appended` runs after each append (the stream hub reads at once instead of at its
 * next poll).
 */
export function createEventRecorder(m: Mount, webhooks: WebhooksSpec, eventLog: EventLog, appended: () => void, log: DeferredLog): EventRecorder {
  const forms = canonicalForms(m, webhooks, log);
  const eventOf = (type: string, data: Record<string, unknown>): NewEvent | null => {
    const form = forms.get(type);
    const kept = form?.(data);
    if (kept === undefined || kept === null) {
      log.warn({ type }, `event ${type} does not fit its newest schema; not kept for the event stream`);
      return null;
    }
    return { type, time: m.now(), data: JSON.stringify(kept) };
  };
  const transactional = isTransactionalLog(eventLog) ? eventLog : null;
  const held = createDeferred<NewEvent>(
    {
      write: async (events) => {
        await eventLog.append(events);
        appended();
      },
      describe: (e) => ({ type: e.type, time: new Date(e.time).toISOString() }),
      say: {
        unit: 'events',
        held: "the event stream's log failed after the change was stored; its events wait in memory for another try",
        written: "events held after a failure of the event stream's log are in the log now",
        full: (e, most) => `event ${e.type} lost for the event stream: its log failed and ${most} events already wait`,
        stopped: (e) => `event ${e.type} lost for the event stream: its log still failed when the server stopped`,
      },
    },
    log,
  );
  return {
    transactional: transactional !== null,
    async record(type, data) {
      const event = eventOf(type, data);
      if (event === null) return;
      await eventLog.append([event]);
      appended();
    },
    async recordWith(tx, type, data) {
      if (transactional === null) throw new TypeError('recordWith needs a transactional event log');
      const event = eventOf(type, data);
      // Visible to readers once the transaction commits; the hub finds it at its next poll.
      if (event !== null) await transactional.appendWith(tx, [event]);
    },
    async recordAfter(type, data) {
      const event = eventOf(type, data);
      if (event === null) return null;
      try {
        await eventLog.append([event]);
      } catch (error) {
        return held.hold([event], error);
      }
      appended();
      return null;
    },
    stop: () => held.stop(),
  };
}
