/**
 * The limits of webhook endpoints, enforced by the built-in handlers for every version (also for code
 * generated before the schemas carried them) and declared in the generated schemas and documents: the
 * length of each text field, how many event types one endpoint takes, and how many signing secrets one
 * endpoint holds at once during rotations, for how long.
 */

/** The most characters of each text field of an endpoint, and the most event types it subscribes to. */
export const ENDPOINT_LIMITS = {
  /** `url` (a URL longer than this is no webhook URL). */
  url: 2_048,
  /** `description`. */
  description: 500,
  /** `reason` of `:disable`, shown as `disabledReason`. */
  reason: 500,
  /** Items of `events`. */
  events: 100,
} as const;

/**
 * The most signing secrets an endpoint holds at once: the current one and two rotated-out ones in their
 * grace period. A rotation beyond it ends the oldest grace period early, so every delivery carries at most
 * this many signatures.
 */
export const MAX_ACTIVE_SECRETS = 3;

/** The default grace period of a rotated-out secret, in seconds (24 h). */
export const DEFAULT_GRACE_SECONDS = 86_400;

/** The longest grace period of a rotated-out secret, in seconds (7 days). */
export const MAX_GRACE_SECONDS = 604_800;
