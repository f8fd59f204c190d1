/**
 * The deliveries a dispatcher has in flight, and how its slots are shared so that receivers that hang or
 * trickle cannot hold up a healthy one. An endpoint is **slow** while one of its attempts has been in flight
 * for `slowAfter` or more, and for {@link SLOW_MEMORY} after an attempt of it timed out or took that long (an
 * attempt that ends sooner clears it). Slow endpoints together hold at most half of `concurrency`: the
 * deliveries of slow endpoints in flight beyond that half do not count against the others, whose share is
 * therefore the other half, and a claim leases at most what is left of the slow half to slow endpoints (their
 * other due deliveries wait a poll, unwalked). A delivery that became slow while in flight may have been claimed
 * when its endpoint was not, so more than `concurrency` can be in flight: never more than `concurrency` plus
 * half of it. A claim goes breadth first ({@link claimBreadthFirst}): every due endpoint gets a delivery before
 * any gets a second, so deliveries of many endpoints that came first cannot take a whole claim.
 */
import type { Claimed, Fairness, Outbox } from './webhook-store.js';

/** How long an endpoint counts as slow after an attempt of it timed out or took `slowAfter` or more, in ms. */
export const SLOW_MEMORY = 60_000;

/** The dispatcher's limits. */
export interface FlightLimits {
  readonly concurrency: number;
  readonly perEndpoint: number;
  /** An attempt in flight this long (ms) makes its endpoint slow. */
  readonly slowAfter: number;
  /** How far a slow endpoint's deliveries beyond its share are put back (the poll interval), in ms. */
  readonly deferBy: number;
}

/** What a claim may take now: how many deliveries, and how they are shared out. */
export interface ClaimPlan {
  readonly free: number;
  readonly fairness: Fairness;
}

/** The deliveries in flight. */
export interface Flights {
  /** How many are in flight. */
  readonly size: number;
  /** A delivery of `endpoint` started at `at`. */
  begin(endpoint: string, at: number): void;
  /** The delivery of `endpoint` started at `startedAt` ended at `at`; `timedOut` when its attempt ran out of time. */
  end(endpoint: string, startedAt: number, at: number, timedOut: boolean): void;
  /** What a claim at `at` may take. */
  plan(at: number): ClaimPlan;
}

/** An empty table of flights under `limits`. */
export function createFlights(limits: FlightLimits): Flights {
  const { concurrency, perEndpoint, slowAfter, deferBy } = limits;
  const half = Math.max(1, Math.floor(concurrency / 2));
  /** When each endpoint's deliveries in flight started, oldest first. */
  const started = new Map<string, number[]>();
  /** Until when an endpoint counts as slow after a slow attempt ended. */
  const slowUntil = new Map<string, number>();
  let size = 0;
  return {
    get size() {
      return size;
    },
    begin(endpoint, at) {
      size++;
      const times = started.get(endpoint);
      if (times === undefined) started.set(endpoint, [at]);
      else times.push(at);
    },
    end(endpoint, startedAt, at, timedOut) {
      size--;
      const times = started.get(endpoint) ?? [];
      const i = times.indexOf(startedAt);
      if (i >= 0) times.splice(i, 1);
      if (times.length === 0) started.delete(endpoint);
      if (timedOut || at - startedAt >= slowAfter) slowUntil.set(endpoint, at + SLOW_MEMORY);
      else slowUntil.delete(endpoint);
    },
    plan(at) {
      const inFlight = new Map<string, number>();
      const slow = new Set<string>();
      let slowInFlight = 0;
      for (const [endpoint, until] of slowUntil) {
        if (until > at) slow.add(endpoint);
        else slowUntil.delete(endpoint);
      }
      for (const [endpoint, times] of started) {
        inFlight.set(endpoint, times.length);
        if (at - times[0]! >= slowAfter) slow.add(endpoint);
        if (slow.has(endpoint)) slowInFlight += times.length;
      }
      const healthyInFlight = size - slowInFlight;
      return {
        free: Math.max(0, Math.min(concurrency - healthyInFlight - Math.min(slowInFlight, half), concurrency + half - size)),
        fairness: { perEndpoint, inFlight, slow, slowSlots: Math.max(0, half - slowInFlight), deferUntil: at + deferBy },
      };
    },
  };
}

/** What a claim took, and why it stopped early when a round of it failed after earlier rounds took deliveries. */
export interface ClaimedRounds {
  readonly claimed: readonly Claimed[];
  /** The failure of a later round (the deliveries of the earlier ones are leased: deliver them), or null. */
  readonly failed: { readonly cause: unknown } | null;
}

/**
 * Claims up to `plan.free` deliveries due at `at` from `outbox`, breadth first: a claim that lets each endpoint
 * hold one delivery more than it has, then one that lets it hold two, up to the plan's `perEndpoint`. A round stops
 * when the slots are full, or when it found nothing and no endpoint holds as many as it allowed (no later round
 * could find more). A first round that fails throws; a later one that fails ends the claim with what the earlier
 * rounds leased, which must still be delivered (else they would wait out their lease).
 */
export async function claimBreadthFirst(outbox: Outbox, at: number, leaseMs: number, plan: ClaimPlan): Promise<ClaimedRounds> {
  const { fairness } = plan;
  const held = new Map(fairness.inFlight);
  const claimed: Claimed[] = [];
  let slowSlots = fairness.slowSlots;
  for (let level = 1; level <= fairness.perEndpoint && claimed.length < plan.free; level++) {
    let round: Claimed[];
    try {
      round = await outbox.claim(at, plan.free - claimed.length, leaseMs, { ...fairness, perEndpoint: level, inFlight: held, slowSlots });
    } catch (cause) {
      if (claimed.length === 0) throw cause;
      return { claimed, failed: { cause } };
    }
    for (const d of round) {
      held.set(d.endpoint, (held.get(d.endpoint) ?? 0) + 1);
      if (fairness.slow.has(d.endpoint)) slowSlots--;
    }
    claimed.push(...round);
    if (round.length === 0 && ![...held.values()].some((n) => n >= level)) break;
  }
  return { claimed, failed: null };
}
