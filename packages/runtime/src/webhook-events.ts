/**
 * Events into the outbox: a derived event after its handler succeeded (create, update/replace, delete, a
 * transition into a state with an event) and a custom event when a handler calls `ctx.emit`. The payload
 * is rendered once per subscribed endpoint, in the shape of the version the endpoint is pinned to
 * (migrated down by the same plans and hooks as answers), so a separate dispatcher needs no handlers.
 * With a transactional outbox, a handler writes its events in its own transaction (`ctx.events.write`,
 * `ctx.events.emit`): then an event exists if and only if the handler's change committed. An event written
 * after the handler answered whose outbox write fails is held in memory for another try (`webhook-deferred.ts`):
 * the change exists, so the request still answers its success, and a response header says so.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { createPresenter } from './answer.js';
import { isRecord, type AnyFn } from './guards.js';
import { compileObjectDown } from './migrate.js';
import { isProblem } from './problems.js';
import { preloadedOf } from './preloaded.js';
import { createShaper } from './shape.js';
import type { MountedSpec, RouteSpec, WebhooksSpec } from './spec.js';
import type { Mount } from './state.js';
import { stateOf } from './state.js';
import { isTransactional, type OutboxEvent } from './transactional-outbox.js';
import type { HandlerContext, HandlerEvents } from './types.js';
import type { Deferral, DeferredEvents } from './webhook-deferred.js';
import type { Delivery, EndpointRecord, EndpointStore, Outbox } from './webhook-store.js';
import type { EventRecorder } from './stream-record.js';

/** Renders an event's data (newest shape) for one version, or null when the version cannot show it. */
export type Render = (data: Record<string, unknown>) => unknown | null;

/** Writes events to the outbox. */
export interface EventSender {
  /** The enabled endpoints now (one read of the endpoint store). */
  enabled(): Promise<EndpointRecord[]>;
  /** The enabled endpoints subscribed to `type` now (one read of the endpoint store). */
  subscribers(type: string): Promise<EndpointRecord[]>;
  /**
   * Queues `type` with `data` (newest shape) for `endpoints` (by default every one subscribed to it), with
   * `add` (by default the outbox's own `add`; a transactional write passes one bound to its transaction).
   */
  send(
    type: string,
    data: Record<string, unknown>,
    endpoints?: readonly EndpointRecord[],
    add?: (deliveries: readonly Delivery[]) => Promise<void>,
  ): Promise<void>;
  /**
   * The event of `type` with `data` (newest shape) as the newest version that has it shows it, once, for an
   * outbox that keeps every event (`addEventWith`); null when no version can show it. `aggregateId` is the
   * resource's id (a derived event), else the event's own id is used.
   */
  event(type: string, data: Record<string, unknown>, aggregateId?: string): OutboxEvent | null;
}

/**
 * The renderers of every event type, by type and version: what webhook deliveries and the event stream send,
 * migrated down by the same plans and hooks as answers.
 */
export function createEventRenderers(m: Mount, webhooks: WebhooksSpec, log: { warn(obj: object, msg: string): void }): Map<string, Map<string, Render>> {
  const out = new Map<string, Map<string, Render>>();
  for (const version of m.spec.versions)
    for (const type of webhooks.versions[version.name] ?? []) {
      const byVersion = out.get(type) ?? new Map<string, Render>();
      out.set(type, byVersion);
      const resource = webhooks.resources[type];
      if (resource) {
        const route = version.routes.find((r) => r.collection.key === resource.collection);
        if (!route) continue;
        const present = createPresenter(m, version, route, `event ${type}`);
        byVersion.set(version.name, (data) => {
          const shown = present(data, '#', log);
          return shown.ok ? shown.value : null;
        });
        continue;
      }
      const payload = webhooks.custom[type]?.[version.name];
      if (!payload) continue;
      const down = compileObjectDown(payload.schema, payload.down, m.hooks);
      const shape = createShaper(payload.schema, true);
      byVersion.set(version.name, (data) => {
        const shaped = shape(down(data));
        return shaped.ok ? shaped.value : null;
      });
    }
  return out;
}

/** Creates the sender that renders events per endpoint and adds them to the outbox. */
export function createEventSender(
  m: Mount,
  webhooks: WebhooksSpec,
  endpoints: EndpointStore,
  outbox: Outbox,
  log: { warn(obj: object, msg: string): void },
): EventSender {
  const render = createEventRenderers(m, webhooks, log);
  const enabled = async () => (await endpoints.list()).filter((e) => e.status === 'enabled');
  const subscribers = async (type: string) => (await enabled()).filter((e) => e.events.includes(type));
  // The newest version that shows each type (versions are oldest first, so the last one set wins).
  const newest = new Map<string, Render>();
  for (const [type, byVersion] of render)
    for (const version of m.spec.versions) {
      const shown = byVersion.get(version.name);
      if (shown) newest.set(type, shown);
    }
  return {
    enabled,
    subscribers,
    event(type, data, aggregateId) {
      const payload = newest.get(type)?.(data);
      if (payload === undefined || payload === null) return null;
      const id = randomUUID();
      return { id, type, aggregateType: type.split('.')[0]!, aggregateId: aggregateId ?? id, payload, timestamp: new Date(m.now()).toISOString() };
    },
    async send(type, data, to, add = (d) => outbox.add(d)) {
      const byVersion = render.get(type);
      if (!byVersion) return;
      const timestamp = new Date(m.now()).toISOString();
      const deliveries: Delivery[] = [];
      for (const e of to ?? (await subscribers(type))) {
        const shown = byVersion.get(e.version)?.(data);
        if (shown === undefined) continue;
        if (shown === null) {
          log.warn({ type, version: e.version, endpoint: e.id }, `event ${type} does not fit the ${e.version} payload schema; not sent to ${e.id}`);
          continue;
        }
        deliveries.push({
          id: `msg_${randomUUID().replace(/-/g, '')}`,
          endpoint: e.id,
          type,
          body: JSON.stringify({ type, timestamp, data: shown }),
          attempts: 0,
          dueAt: m.now(),
        });
      }
      if (deliveries.length > 0) await add(deliveries);
    },
  };
}

/** The newest-version payload check of each custom event (what `ctx.emit` is given). */
function emitChecks(spec: MountedSpec, webhooks: WebhooksSpec): Map<string, (data: unknown) => Record<string, unknown>> {
  const out = new Map<string, (data: unknown) => Record<string, unknown>>();
  for (const [type, byVersion] of Object.entries(webhooks.custom)) {
    const newest = [...spec.versions].reverse().find((v) => byVersion[v.name]);
    if (!newest) continue;
    const schema = byVersion[newest.name]!.schema;
    out.set(type, (data) => {
      const parsed = schema.safeParse(data);
      if (!parsed.success)
        throw new TypeError(
          `ctx.emit('${type}'): the data does not fit the payload of ${newest.name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
        );
      return parsed.data as Record<string, unknown>;
    });
  }
  return out;
}

/** Notes on `request` what became of its events: `lost` outweighs `deferred`; null (all written) changes nothing. */
function deferIn(request: FastifyRequest, what: Deferral | null): void {
  if (what === null) return;
  const state = stateOf(request);
  state.events = state.events === 'lost' ? 'lost' : what;
}

const OPERATIONS: ReadonlySet<string> = new Set(['list', 'get', 'create', 'replace', 'update', 'delete']);

/** The derived event a handler's success sends: by operation, and by the state a transition leads to. */
interface CollectionEvents {
  readonly byOp: Map<string, string>;
  readonly byState: Map<string, string>;
  readonly stateField: string | null;
}

function eventsOfCollections(webhooks: WebhooksSpec, newest: ReadonlyMap<string, RouteSpec>): Map<string, CollectionEvents> {
  const out = new Map<string, CollectionEvents>();
  for (const [type, r] of Object.entries(webhooks.resources)) {
    const c = out.get(r.collection) ?? {
      byOp: new Map(),
      byState: new Map(),
      stateField: newest.get(r.collection)?.collection.lifecycle?.field ?? null,
    };
    out.set(r.collection, c);
    if (r.action === 'created') c.byOp.set('create', type);
    else if (r.action === 'updated') c.byOp.set('update', type), c.byOp.set('replace', type);
    else if (r.action === 'deleted') c.byOp.set('delete', type);
    else if (r.state !== null) c.byState.set(r.state, type);
  }
  return out;
}

/** The resource `id` as it is: what the route read already for this handler (a delete's files), else `load`ed. */
async function loadOnce(load: AnyFn, id: unknown, ctx: HandlerContext): Promise<unknown> {
  const read = preloadedOf(ctx);
  return read === undefined ? load(id, ctx) : read.value;
}

/**
 * Gives handlers a working `ctx.emit` and `ctx.events` (custom events) and wraps the handlers that have a
 * derived event so that a success sends it; the others are left as they are (no wrapper, no endpoint read).
 * The endpoints are read before the handler runs, so a store that cannot be reached (Redis away: 503) fails
 * the request before anything changed. A wrapped handler that calls `ctx.events.write(tx, resource)` writes
 * its event through `tx` when the outbox is transactional (and nothing after it answers); otherwise the event
 * is written after it answered, of the resource it passed or answered, and an outbox that fails then has the
 * deliveries held in `deferred` (the change exists: the request answers its success). A delete whose event has
 * a subscriber (or an event log to keep it) loads the resource first (with the get handler, or takes the read the
 * route made for the resource's files), so its event carries the resource as it was when the handler does not pass
 * it; without either it loads nothing. With `recorder`, every event also goes into the event stream's log,
 * subscribed to or not: through `tx` when the log is transactional, else after the handler answered, where a log that
 * fails holds the event for another try as the outbox's deliveries are held (the request's `Webhook-Events` says
 * `deferred`, or `lost`).
 */
export function wrapForEvents(
  m: Mount,
  table: Record<string, Record<string, AnyFn>>,
  webhooks: WebhooksSpec,
  sender: EventSender,
  outbox: Outbox,
  deferred: DeferredEvents,
  recorder: EventRecorder | null,
): void {
  const checks = emitChecks(m.spec, webhooks);
  const transactional = isTransactional(outbox) ? outbox : null;
  /** The writer of deliveries through `tx`, or undefined (the outbox's own `add`) when it takes none. */
  const through = (tx: unknown) => (transactional === null ? undefined : (d: readonly Delivery[]) => transactional.addWith(tx, d));
  /** Keeps the event once through `tx`, when the outbox keeps every event (`addEventWith`). */
  const keep = async (tx: unknown, type: string, data: Record<string, unknown>, aggregateId?: string) => {
    if (!transactional?.addEventWith) return;
    const event = sender.event(type, data, aggregateId);
    if (event !== null) await transactional.addEventWith(tx, event);
  };
  const custom = (type: string, data: unknown): Record<string, unknown> => {
    const check = checks.get(type);
    if (!check) throw new TypeError(`ctx.emit('${type}'): no custom event has this type; declare it in defineApi({ events }).`);
    return check(data);
  };
  m.emit = async (type: string, data: unknown): Promise<void> => {
    const checked = custom(type, data);
    await sender.send(type, checked);
    await recorder?.record(type, checked);
  };
  m.events = {
    write: async () => undefined,
    emit: async (tx, type, data) => {
      const checked = custom(type, data);
      await sender.send(type, checked, undefined, through(tx));
      await keep(tx, type, checked);
      if (recorder?.transactional) await recorder.recordWith(tx, type, checked);
      else await recorder?.record(type, checked);
    },
  };
  const events = eventsOfCollections(webhooks, m.newest);
  for (const [key, handlers] of Object.entries(table)) {
    const c = events.get(key);
    if (key === webhooks.collection || c === undefined) continue;
    const idField = m.newest.get(key)?.id;
    for (const [op, fn] of Object.entries(handlers)) {
      const opEvent = c.byOp.get(op);
      const isTransition = !OPERATIONS.has(op);
      if (isTransition ? c.byState.size === 0 : opEvent === undefined) continue;
      // A delete's event carries the resource as it was: loaded first, when someone subscribes or the log keeps it.
      const deleted = op === 'delete' ? opEvent : undefined;
      const load = deleted === undefined ? undefined : handlers['get'];
      /** The event of `subject`: the operation's, or the one of the state a transition led to. */
      const typeOf = (subject: unknown): string | undefined => {
        if (!isTransition) return opEvent;
        const state = c.stateField && isRecord(subject) ? subject[c.stateField] : undefined;
        return typeof state === 'string' ? c.byState.get(state) : undefined;
      };
      handlers[op] = async (...args: unknown[]) => {
        const ctx = args[args.length - 1] as HandlerContext;
        const enabled = await sender.enabled();
        const wanted = (type: string) => enabled.filter((e) => e.events.includes(type));
        const before = load && deleted !== undefined && (recorder !== null || wanted(deleted).length > 0) ? await loadOnce(load, args[0], ctx) : undefined;
        // What the handler passed to ctx.events.write, and what of its event is written (in its transaction).
        const given: { resource?: object; written: boolean; recorded: boolean } = {
          written: false,
          recorded: false,
        };
        const own: HandlerEvents = {
          emit: ctx.events.emit,
          write: async (tx, resource) => {
            given.resource = resource;
            const type = typeOf(resource);
            const event = type !== undefined && isRecord(resource) ? { type, data: resource } : null;
            if (transactional !== null) {
              if (event !== null) {
                await sender.send(event.type, event.data, wanted(event.type), through(tx));
                const id = idField === undefined ? undefined : event.data[idField];
                await keep(tx, event.type, event.data, typeof id === 'string' ? id : undefined);
              }
              given.written = true;
            }
            if (recorder?.transactional) {
              if (event !== null) await recorder.recordWith(tx, event.type, event.data);
              given.recorded = true;
            }
            // What the context itself writes through tx (the answer to an Idempotency-Key).
            await ctx.events.write(tx, resource);
          },
        };
        args[args.length - 1] = { ...ctx, events: own };
        const result: unknown = await fn(...args);
        if (isProblem(result) || (given.written && (given.recorded || recorder === null))) return result;
        const subject = given.resource ?? (op === 'delete' ? before : result);
        const type = typeOf(subject);
        if (type === undefined || !isRecord(subject) || isProblem(subject)) return result;
        const to = given.written ? [] : wanted(type);
        // The change is stored: a store that fails now has what it refused kept for another try (or logged as
        // lost), and the request answers its success, saying so in Webhook-Events.
        if (to.length > 0)
          await sender.send(type, subject, to, (d) =>
            outbox.add(d).catch((error: unknown) => {
              deferIn(ctx.request, deferred.hold(d, error));
            }),
          );
        if (recorder !== null && !given.recorded) deferIn(ctx.request, await recorder.recordAfter(type, subject));
        return result;
      };
    }
  }
}
