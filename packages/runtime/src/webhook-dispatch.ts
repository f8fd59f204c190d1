/**
 * The webhook dispatcher: claims due deliveries from the outbox, POSTs each with the Standard Webhooks
 * headers and a per-attempt timeout, and on a timeout, a connection error, 429 or 5xx tries again on a
 * bounded schedule with jitter (a 429's `Retry-After` may lengthen a wait, never shorten it). Another 4xx, or
 * the last attempt failing, gives the message up; an endpoint whose messages keep failing every attempt is
 * disabled (a message whose last attempt answered 429 does not count: the receiver was there, only busy).
 * Deliveries run side by side, at most `concurrency` at once and `endpointConcurrency` per endpoint; a slot
 * that frees is filled at once, and endpoints that hang or trickle share at most half of the slots
 * (`webhook-flights.ts`), so a healthy endpoint's messages flow at its own pace whatever the others do.
 */
import { logSafely } from './contain.js';
import { post } from './webhook-post.js';
import { retryAfterOf } from './webhook-retry-after.js';
import { signaturesOf } from './webhook-sign.js';
import { claimBreadthFirst, createFlights } from './webhook-flights.js';
import { MAX_ACTIVE_SECRETS } from './webhook-limits.js';
import type { Claimed, EndpointRecord, EndpointStore, Outbox } from './webhook-store.js';
import { guardedLookup, RefusedAddress, urlShapeProblem, type Resolver } from './webhook-url.js';

/** How deliveries are timed (all in ms). */
export interface DispatchTiming {
  /** The wait after each failed attempt; one more attempt than entries in all (default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
  readonly retrySchedule?: readonly number[];
  /** Each wait varies by up to this fraction either way (default 0.2). */
  readonly jitter?: number;
  /** How long one attempt may take (default 10 000). */
  readonly attemptTimeout?: number;
  /** How often the outbox is checked for due deliveries (default 1 000). */
  readonly pollInterval?: number;
  /** The longest `Retry-After` honoured (default 1 h); a longer one waits this long. */
  readonly maxRetryAfter?: number;
  /** Messages in a row that fail every attempt before the endpoint is disabled (default 3). */
  readonly disableAfter?: number;
  /** Deliveries in flight at once per instance (default 10). */
  readonly concurrency?: number;
  /** Deliveries in flight at once per endpoint and instance (default 3): a slow receiver holds no more. */
  readonly endpointConcurrency?: number;
}

/** How long an attempt may take before its endpoint counts as slow, in ms (or `attemptTimeout`, when shorter). */
export const SLOW_AFTER = 1_000;

/** What a dispatcher needs. */
export interface DispatcherParts extends DispatchTiming {
  readonly outbox: Outbox;
  readonly endpoints: EndpointStore;
  /** http and private addresses allowed (development, tests). */
  readonly allowPrivateUrls?: boolean;
  readonly resolve?: Resolver;
  readonly now?: () => number;
  readonly log?: { warn(obj: object, msg: string): void };
  /** Runs once when the dispatcher starts, before its first poll (moving the keys of an older runtime). */
  readonly prepare?: () => Promise<void>;
}

/** A running dispatcher. */
export interface WebhookDispatcher {
  /** Starts polling (idempotent). */
  start(): void;
  /** Stops polling and waits for the deliveries in flight. */
  stop(): Promise<void>;
  /** Claims and delivers what is due now, once; resolves when those deliveries are done. */
  runOnce(): Promise<number>;
}

/** The default retry schedule (Standard Webhooks' reference schedule). */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

type Outcome =
  | { readonly kind: 'ok' }
  | { readonly kind: 'retry'; readonly reason: string; readonly after?: number; readonly busy?: boolean; readonly timedOut?: boolean }
  | { readonly kind: 'fail'; readonly reason: string };

/** Creates a dispatcher over an outbox and the endpoints. */
export function createDispatcher(parts: DispatcherParts): WebhookDispatcher {
  const schedule = parts.retrySchedule ?? DEFAULT_RETRY_SCHEDULE;
  const jitter = parts.jitter ?? 0.2;
  const timeout = parts.attemptTimeout ?? 10_000;
  const poll = parts.pollInterval ?? 1_000;
  const maxRetryAfter = parts.maxRetryAfter ?? 3_600_000;
  const disableAfter = parts.disableAfter ?? 3;
  const concurrency = Math.max(1, parts.concurrency ?? 10);
  const perEndpoint = Math.max(1, parts.endpointConcurrency ?? 3);
  const slowAfter = Math.min(SLOW_AFTER, timeout);
  // The lease outlasts an attempt, so no other instance takes a delivery still in flight.
  const lease = timeout + 5_000;
  const now = parts.now ?? Date.now;
  const { outbox, endpoints } = parts;
  const lookup = guardedLookup(parts.allowPrivateUrls === true, parts.resolve);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running = false;

  const attempt = async (d: Claimed): Promise<Outcome | null> => {
    const endpoint = await endpoints.get(d.endpoint);
    // Deleted or disabled meanwhile: nothing is delivered (documented).
    if (endpoint === null || endpoint.status !== 'enabled') return null;
    // The name is looked up once, by the connection (`lookup`), which refuses private addresses.
    const refused = urlShapeProblem(endpoint.url, parts.allowPrivateUrls === true);
    if (refused !== null) return { kind: 'retry', reason: refused };
    const at = now();
    const timestamp = Math.floor(at / 1000);
    // At most the newest few: a record stored before rotations were bounded may hold many.
    const secrets = endpoint.secrets
      .filter((s) => s.expiresAt === null || s.expiresAt > at)
      .slice(0, MAX_ACTIVE_SECRETS)
      .map((s) => s.secret);
    try {
      const response = await post(
        endpoint.url,
        {
          'content-type': 'application/json',
          'user-agent': 'restgen-webhooks',
          'webhook-id': d.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signaturesOf(secrets, d.id, timestamp, d.body),
        },
        d.body,
        timeout,
        lookup,
      );
      if (response.status >= 200 && response.status < 300) return { kind: 'ok' };
      const reason = `the endpoint answered ${response.status}`;
      if (response.status === 429) {
        const after = retryAfterOf(response.retryAfter, at, maxRetryAfter);
        return {
          kind: 'retry',
          reason,
          busy: true,
          ...(after !== undefined ? { after } : {}),
        };
      }
      if (response.status >= 500 || response.status === 408) return { kind: 'retry', reason };
      return { kind: 'fail', reason };
    } catch (error) {
      if (error instanceof RefusedAddress) return { kind: 'retry', reason: error.message };
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      return {
        kind: 'retry',
        reason: timedOut ? `no answer within ${timeout} ms` : 'the connection failed',
        timedOut,
      };
    }
  };

  /**
   * Counts a message given up on against its endpoint (disabling it at the limit), or resets the count; in
   * one atomic update, so a change made meanwhile through the API (a rotated secret, new events, a delete)
   * is kept.
   */
  const record = async (endpointId: string, failed: boolean, reason: string) => {
    let disabled: EndpointRecord | null = null;
    await endpoints.update(endpointId, (e) => {
      disabled = null;
      if (!failed) return e.failedMessages === 0 ? e : { ...e, failedMessages: 0 };
      const failedMessages = e.failedMessages + 1;
      if (failedMessages < disableAfter || e.status !== 'enabled') return { ...e, failedMessages };
      disabled = {
        ...e,
        failedMessages,
        status: 'disabled',
        disabledReason: `${failedMessages} messages in a row failed every attempt (last: ${reason}); enable it again when the endpoint works`,
      };
      return disabled;
    });
    const e = disabled as EndpointRecord | null;
    if (e !== null)
      parts.log?.warn({ endpoint: e.id, url: e.url }, `webhook endpoint ${e.id} disabled: ${e.failedMessages} messages in a row failed every attempt`);
  };

  /** Delivers `d` once; whether its attempt timed out (its endpoint is slow). */
  const deliver = async (d: Claimed): Promise<boolean> => {
    const outcome = await attempt(d);
    if (outcome === null || outcome.kind === 'ok') {
      if (await outbox.complete(d)) if (outcome !== null) await record(d.endpoint, false, '');
      return false;
    }
    const timedOut = outcome.kind === 'retry' && outcome.timedOut === true;
    const made = d.attempts + 1;
    if (outcome.kind === 'retry' && made <= schedule.length) {
      const base = schedule[made - 1]!;
      const scheduled = Math.round(base * (1 + (Math.random() * 2 - 1) * jitter));
      // A receiver may ask for a longer wait, never a shorter one: `Retry-After: 0` must not spend the schedule.
      await outbox.retry(d, now() + Math.max(outcome.after ?? 0, scheduled));
      return timedOut;
    }
    parts.log?.warn({ webhookId: d.id, endpoint: d.endpoint, attempts: made }, `webhook ${d.id} given up: ${outcome.reason}`);
    // A receiver that answered 429 to the last attempt is there, only busy: that does not count towards disabling it.
    const counts = !(outcome.kind === 'retry' && outcome.busy === true);
    if ((await outbox.complete(d)) && counts) await record(d.endpoint, true, outcome.reason);
    return timedOut;
  };

  const flights = createFlights({ concurrency, perEndpoint, slowAfter, deferBy: poll });
  /** The deliveries in flight (stop() waits for them). */
  const inFlight = new Set<Promise<void>>();

  const launch = (d: Claimed): Promise<void> => {
    const startedAt = now();
    flights.begin(d.endpoint, startedAt);
    // When this attempt turns slow, the slots it holds beyond the slow half go to the others: claim again then.
    const wake = setTimeout(() => {
      if (running) void pump();
    }, slowAfter);
    let timedOut = false;
    const flight: Promise<void> = deliver(d)
      .then((late) => {
        timedOut = late;
      })
      .catch((error: unknown) => logSafely(parts.log, 'warn', { err: error, webhookId: d.id }, 'webhook delivery failed in the dispatcher'))
      .finally(() => {
        clearTimeout(wake);
        inFlight.delete(flight);
        flights.end(d.endpoint, startedAt, now(), timedOut);
        // A slot is free: fill it at once.
        if (running) void pump();
      });
    inFlight.add(flight);
    return flight;
  };

  /** Claims what the free slots take, shared out per endpoint, and starts delivering it. */
  const claimFree = async (): Promise<Promise<void>[]> => {
    const at = now();
    const plan = flights.plan(at);
    if (plan.free <= 0) return [];
    const { claimed, failed } = await claimBreadthFirst(outbox, at, lease, plan);
    const launched = claimed.map(launch);
    // What was leased before a round failed is on its way; the failure is reported as a failed claim.
    if (failed !== null) throw failed.cause;
    return launched;
  };

  let pumping: Promise<void> | null = null;
  let again = false;
  /** Claims until the slots are full or nothing more is due; one claim at a time (a call meanwhile asks for another round). */
  const pump = (): Promise<void> => {
    if (pumping !== null) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        again = false;
        const free = flights.plan(now()).free;
        const launched = await claimFree();
        // A full claim means more may be due.
        if (launched.length > 0 && launched.length === free) again = true;
      } while (again && running);
    })()
      .catch((error: unknown) => logSafely(parts.log, 'warn', { err: error }, 'webhook outbox could not be read'))
      .finally(() => {
        pumping = null;
      });
    return pumping;
  };

  const runOnce = async (): Promise<number> => {
    const launched = await claimFree();
    await Promise.all(launched);
    return launched.length;
  };

  const loop = () => {
    if (!running) return;
    void pump().then(() => {
      if (running) timer = setTimeout(loop, poll);
    });
  };

  return {
    start: () => {
      if (running) return;
      running = true;
      const first = () => {
        if (running) timer = setTimeout(loop, 0);
      };
      if (parts.prepare) void parts.prepare().finally(first);
      else first();
    },
    stop: async () => {
      running = false;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await pumping;
      await Promise.all([...inFlight]);
    },
    runOnce,
  };
}
