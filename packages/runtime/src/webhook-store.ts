/**
 * Where webhook endpoints and the outbox of deliveries live: the interfaces, and their memory implementation
 * (one instance); the Redis one (several instances share it) is in `webhook-redis.ts`. A claimed delivery is
 * leased: its due time moves past the lease, so an instance
 * that dies mid-delivery loses it and another instance delivers it after the lease expires; a completion
 * or retry counts only with the current lease token, so two instances never hold one delivery at once.
 */
import { randomUUID } from 'node:crypto';
import { DueQueue, type Due } from './due-queue.js';

/** A webhook endpoint as stored (secrets and failure counts never leave the server). */
export interface EndpointRecord {
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly description?: string;
  readonly status: 'enabled' | 'disabled';
  readonly disabledReason: string | null;
  readonly version: string;
  readonly createdAt: string;
  /** The current secret first; a rotated-out secret stays until `expiresAt` (ms). */
  readonly secrets: readonly {
    readonly secret: string;
    readonly expiresAt: number | null;
  }[];
  /** Messages in a row that failed every attempt (reset by a successful delivery). */
  readonly failedMessages: number;
}

/** The endpoints, by id. */
export interface EndpointStore {
  list(): Promise<EndpointRecord[]>;
  get(id: string): Promise<EndpointRecord | null>;
  /** Stores a new endpoint. */
  put(record: EndpointRecord): Promise<void>;
  /**
   * Replaces an endpoint with what `change` makes of it, atomically: a change made meanwhile by another
   * request or instance (a rotated secret, a delete) is never overwritten with an older copy; `change`
   * then runs again on the newer one. Null when there is no such endpoint (nothing is written).
   */
  update(id: string, change: (current: EndpointRecord) => EndpointRecord): Promise<EndpointRecord | null>;
  delete(id: string): Promise<boolean>;
}

/** One message to one endpoint: the `webhook-id` stays the same across its attempts. */
export interface Delivery {
  readonly id: string;
  readonly endpoint: string;
  readonly type: string;
  readonly body: string;
  /** Attempts made so far. */
  readonly attempts: number;
  readonly dueAt: number;
}

/** A delivery an instance holds until `complete` or `retry` (or until its lease runs out). */
export interface Claimed extends Delivery {
  readonly lease: string;
}

/**
 * How a claim shares deliveries between endpoints, so that slow receivers cost only their own queues: an
 * endpoint gets at most `perEndpoint` deliveries in flight (those in `inFlight` counted), its other due
 * deliveries are passed over (they stay due) and deliveries of other endpoints due later are claimed
 * instead. The `slow` endpoints (their recent attempts timed out or took long) together take at most
 * `slowSlots` deliveries of the claim; their due deliveries beyond that move to `deferUntil`, so that a large
 * backlog behind a hanging receiver is not walked on every claim.
 */
export interface Fairness {
  readonly perEndpoint: number;
  readonly inFlight: ReadonlyMap<string, number>;
  readonly slow: ReadonlySet<string>;
  /** How many deliveries of slow endpoints this claim may lease, all slow endpoints together (0: none). */
  readonly slowSlots: number;
  readonly deferUntil: number;
}

/** The most due deliveries one claim looks at (claimed, passed over or deferred): a bound on its work. */
export const CLAIM_SCAN_MAX = 5_000;

/** The deliveries waiting to be made. */
export interface Outbox {
  add(deliveries: readonly Delivery[]): Promise<void>;
  /**
   * Up to `max` deliveries due at `now`, each leased for `leaseMs`, shared out by `fairness` when given
   * (an outbox must honour it: the dispatcher's bounds per endpoint rest on it).
   */
  claim(now: number, max: number, leaseMs: number, fairness?: Fairness): Promise<Claimed[]>;
  /** Done (delivered, or given up): forgotten. False when the lease was lost. */
  complete(claimed: Claimed): Promise<boolean>;
  /** Tried again at `dueAt`. False when the lease was lost. */
  retry(claimed: Claimed, dueAt: number): Promise<boolean>;
}

/** Endpoints in memory. */
export function createMemoryEndpoints(): EndpointStore {
  const byId = new Map<string, EndpointRecord>();
  return {
    list: async () => [...byId.values()].sort((a, b) => (a.createdAt === b.createdAt ? a.id.localeCompare(b.id) : a.createdAt.localeCompare(b.createdAt))),
    get: async (id) => byId.get(id) ?? null,
    put: async (record) => void byId.set(record.id, record),
    // Read, changed and written in one synchronous step: nothing runs in between.
    update: async (id, change) => {
      const current = byId.get(id);
      if (current === undefined) return null;
      const next = change(current);
      byId.set(id, next);
      return next;
    },
    delete: async (id) => byId.delete(id),
  };
}

/**
 * An outbox in memory. Due times are kept in a heap ({@link DueQueue}), so a poll costs O(1) when nothing is
 * due and O(k log n) for k due deliveries, however many wait (a dead endpoint's retries can be many).
 */
export function createMemoryOutbox(): Outbox {
  const waiting = new Map<
    string,
    Delivery & {
      readonly lease: string | null;
      readonly seq: number;
      readonly order: number;
    }
  >();
  const queue = new DueQueue();
  // Deliveries due at the same time come out in the order they were first added.
  let added = 0;
  const hold = (d: Delivery, lease: string | null) => {
    const order = waiting.get(d.id)?.order ?? ++added;
    waiting.set(d.id, {
      ...d,
      lease,
      order,
      seq: queue.push(d.id, d.dueAt, order),
    });
  };
  return {
    add: async (deliveries) => {
      for (const d of deliveries) hold(d, null);
    },
    claim: async (now, max, leaseMs, fairness) => {
      const claimed: Claimed[] = [];
      const held = new Map(fairness?.inFlight);
      // Passed over: put back as they were once the claim is done (they stay due, in their order).
      const passed: Due[] = [];
      let slowTaken = 0;
      for (let scanned = 0; claimed.length < max && scanned < CLAIM_SCAN_MAX; ) {
        const top = queue.peek();
        if (top === undefined || top.at > now) break;
        queue.pop();
        const d = waiting.get(top.id);
        // Completed, or pushed again since (claimed, retried): this entry is stale.
        if (d === undefined || d.seq !== top.seq) continue;
        scanned++;
        const count = held.get(d.endpoint) ?? 0;
        if (fairness?.slow.has(d.endpoint)) {
          if (slowTaken >= fairness.slowSlots || count >= fairness.perEndpoint) {
            hold({ ...d, dueAt: fairness.deferUntil }, null);
            continue;
          }
          slowTaken++;
        } else if (fairness && count >= fairness.perEndpoint) {
          passed.push(top);
          continue;
        }
        held.set(d.endpoint, count + 1);
        const lease = randomUUID();
        hold({ ...d, dueAt: now + leaseMs }, lease);
        claimed.push({
          id: d.id,
          endpoint: d.endpoint,
          type: d.type,
          body: d.body,
          attempts: d.attempts,
          dueAt: d.dueAt,
          lease,
        });
      }
      for (const entry of passed) queue.restore(entry);
      return claimed;
    },
    complete: async (c) => {
      if (waiting.get(c.id)?.lease !== c.lease) return false;
      return waiting.delete(c.id);
    },
    retry: async (c, dueAt) => {
      if (waiting.get(c.id)?.lease !== c.lease) return false;
      hold(
        {
          id: c.id,
          endpoint: c.endpoint,
          type: c.type,
          body: c.body,
          attempts: c.attempts + 1,
          dueAt,
        },
        null,
      );
      return true;
    },
  };
}
