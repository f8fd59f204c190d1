/**
 * What the route modules share: the per-request state (the principal a gate found, the entry header
 * versioning chose), the gate/handle pair of a route, and the mounted API's resolved settings.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Etagger } from './etag.js';
import type { FailureLimiter } from './auth-failures.js';
import type { AnyFn } from './guards.js';
import type { AnswerStore } from './idempotency.js';
import type { Hooks } from './migrate.js';
import type { JwtVerifier } from './jwt-claims.js';
import type { MountedSpec, RouteSpec } from './spec.js';
import type { OutdatedValue } from './older-data.js';
import type { Credential, HandlerEvents, Principal, VersionSource, VersionUse } from './types.js';

/** The `WWW-Authenticate` value of a 401 or 403; `error` goes into the challenge of the scheme the client used. */
export type Challenge = (scheme: Credential['scheme'] | null, error?: string) => string;

/** Counts a request against one limit; `reset` is in seconds. */
export type Limiter = (request: FastifyRequest) => Promise<{
  readonly exceeded: boolean;
  readonly max: number;
  readonly remaining: number;
  readonly reset: number;
  readonly policy: string;
}>;

/** The version a request resolved to (header versioning), and how. */
export interface Resolved {
  readonly name: string;
  readonly requested: string | null;
  readonly source: VersionSource;
}
/** What a request's gate learnt, for its handler. */
export interface RequestState {
  principal: Principal | null;
  entry: Entry | null;
  /** Header versioning: the version the request resolved to (echoed in the versioning header), or null. */
  version: Resolved | null;
  /** The credential was checked before the version was resolved (for `pinnedVersion`): the gate does not check it again. */
  authenticated: boolean;
  /**
   * Writes the answer to the request's Idempotency-Key through the handler's transaction (`ctx.events.write`),
   * when the server keeps answers in a transactional store; else null.
   */
  recordAnswer: ((tx: unknown, resource: unknown) => Promise<void>) | null;
  /** Events this request's change sends that the outbox refused: held for another try, or lost (a response header says which). */
  events: 'deferred' | 'lost' | null;
}
/** The request decoration holding the state (registered by `mountApi`). */
export const STATE = Symbol('restgen.state');
type WithState = FastifyRequest & { [STATE]: RequestState | null };
/** The state of a request, allocated on first use. */
export const stateOf = (request: FastifyRequest): RequestState => {
  const r = request as WithState;
  return (r[STATE] ??= {
    principal: null,
    entry: null,
    version: null,
    authenticated: false,
    recordAnswer: null,
    events: null,
  });
};
/** The principal a gate found, or null (also when no gate ran). */
export const principalOf = (request: FastifyRequest): Principal | null => (request as WithState)[STATE]?.principal ?? null;

/** What became of the events of a request's change when the outbox refused them (see {@link RequestState.events}), or null. */
export const deferralOf = (request: FastifyRequest): RequestState['events'] => (request as WithState)[STATE]?.events ?? null;

/** The answer recorder of a request (see {@link RequestState.recordAnswer}), or null. */
export const recorderOf = (request: FastifyRequest): RequestState['recordAnswer'] => (request as WithState)[STATE]?.recordAnswer ?? null;

/** The version a request resolved to (header versioning), or null (path versioning, or not resolved). */
export const resolvedOf = (request: FastifyRequest): Resolved | null => (request as WithState)[STATE]?.version ?? null;

/** Runs before the body is read; answering (returning the reply) ends the request there. */
export type Gate = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;
/** Answers a request that passed its gate: at once (undefined, the reply sent), or by a promise. */
export type Handle = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | undefined;
/** One route of one version. */
export interface Entry {
  /** What runs before the body is read (lifecycle, credentials, limits); null when there is nothing to check. */
  readonly gate: Gate | null;
  readonly handle: Handle;
}

/** The mounted API: its spec and everything `mountApi` resolved from the options. */
export interface Mount {
  readonly spec: MountedSpec;
  readonly handlers: Readonly<Record<string, Readonly<Record<string, AnyFn>>>>;
  readonly hooks: Hooks;
  readonly answers: AnswerStore;
  readonly authenticate: (credential: Credential, request: FastifyRequest) => Promise<Principal | null>;
  /** The clock of version lifecycles and idempotent answers (injectable). */
  readonly now: () => number;
  readonly apiKeyHeader: string | null;
  readonly challenge: Challenge;
  /** Verifies bearer tokens as JWTs (`options.jwt`), or null. */
  readonly verifyJwt: JwtVerifier | null;
  readonly failures: FailureLimiter | null;
  readonly apiLimiter: Limiter | null;
  /** The limits of collections (by key) and of transitions (by `<collection>:<transition>`). */
  readonly limiters: ReadonlyMap<string, Limiter>;
  /** The ETag function of each collection, by key (from its newest response schema). */
  readonly etags: ReadonlyMap<string, Etagger>;
  readonly prefix: string;
  /** The route of each collection's newest version: migrated requests are checked against its schemas. */
  readonly newest: ReadonlyMap<string, RouteSpec>;
  readonly validateResponses: boolean;
  /** How long a handler may take, in ms. */
  readonly requestTimeout: number;
  /** `options.onVersionUse`, or null. */
  readonly onVersionUse: ((use: VersionUse) => unknown) | null;
  /**
   * `ctx.emit` of every handler: sends a custom event (set by the webhooks runtime when the API declares
   * webhooks; without them it refuses every type).
   */
  emit: (type: string, data: unknown) => Promise<void>;
  /**
   * `ctx.events` of every handler that sends no derived event: `write` does nothing, `emit` writes a custom
   * event (set by the webhooks runtime; without webhooks it refuses every type).
   */
  events: HandlerEvents;
  /** Reports each answered value stored under an older contract (`options.onOutdatedValue`). */
  readonly onOutdatedValue: ((report: OutdatedValue) => void) | undefined;
}
