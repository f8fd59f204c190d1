/**
 * The gate of an operation or a transition, run before its body is read: version lifecycle (Deprecation,
 * Sunset, Link; 410 past the sunset or in a brownout), credentials and scopes (401, 403; 429 for an
 * address that sent too many rejected credentials; the caller, once known, reported to
 * `options.onVersionUse`), rate limits (429 with RateLimit headers), and a required If-Match (428).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCredential, verifyBearer } from './auth.js';
import { limitKeyOf } from './client-address.js';
import { answerFailure, invoke } from './invoke.js';
import { isProblem, problem, send } from './problems.js';
import type { Limiter } from './state.js';
import type { VersionSpec } from './spec.js';
import { stateOf, type Gate, type Mount } from './state.js';
import type { Credential, Principal } from './types.js';
import { createLifecycle } from './version-lifecycle.js';
import { createUseReporter } from './version-use.js';

export { successorOf } from './version-lifecycle.js';

const AUTHENTICATE = 'options.authenticate';

/** Who may call an operation (or a transition) and what it counts against. */
export interface GateRule {
  /** Callable without a credential (a credential that is sent must still be valid). */
  readonly isPublic: boolean;
  /** The scopes a principal needs. */
  readonly scopes: readonly string[];
  /** The limits it counts against. */
  readonly limiters: readonly Limiter[];
  /** A request without If-Match answers 428. */
  readonly requireIfMatch: boolean;
  /** The collection's key and the operation (or transition) name, for `options.onVersionUse`. */
  readonly collection: string;
  readonly operation: string;
}

/**
 * Checks a request's credential (API key or bearer token, JWT verification, `authenticate`), counting
 * rejected ones per client address: the principal, or null once it answered (401, 429, 503). The
 * gate calls it, and header versioning calls it before the gate when it asks `pinnedVersion` for the
 * principal's version (the gate then does not check the credential again).
 */
export async function authenticateRequest(m: Mount, request: FastifyRequest, reply: FastifyReply, credential: Credential): Promise<Principal | null> {
  const address = limitKeyOf(request.ip);
  const failures = m.failures;
  const wait = failures === null ? null : await failures.admit(address);
  if (wait !== null) {
    reply.header('retry-after', wait);
    send(reply, problem(429, 'too_many_failed_credentials', `Too many rejected credentials from this address; retry in ${wait} s.`));
    return null;
  }
  try {
    return await principalOf(m, request, reply, credential, address);
  } finally {
    failures?.release(address);
  }
}

/** Verifies and authenticates a credential: the principal, or null once it refused it. */
async function principalOf(m: Mount, request: FastifyRequest, reply: FastifyReply, credential: Credential, address: string): Promise<Principal | null> {
  const checked = await verifyBearer(m, credential, request, reply);
  if (checked === null) return null;
  // `authenticate` is user code: its errors tell the client nothing, and it has the request timeout.
  const outcome = await invoke(request, AUTHENTICATE, m.requestTimeout, () => m.authenticate(checked, request));
  if (outcome.kind !== 'value') {
    answerFailure(request, reply, AUTHENTICATE, outcome, m.requestTimeout);
    return null;
  }
  const value = outcome.value;
  // A 401 problem is a rejected credential in `authenticate`'s own words: counted, and challenged, as null is.
  const rejected = value === null || (isProblem(value) && value.status === 401);
  if (rejected) {
    m.failures?.failed(address);
    reply.header('www-authenticate', m.challenge(credential.scheme, 'error="invalid_token"'));
  }
  if (isProblem(value)) send(reply, value.toProblem());
  else if (value === null) send(reply, problem(401, 'invalid_token', 'The credential was not accepted.'));
  else return value;
  return null;
}

/** The gate of a route in `version` that follows `rule`, or null when it has nothing to check. */
export function createGate(m: Mount, version: VersionSpec, rule: GateRule): Gate | null {
  const { isPublic, scopes: needs, limiters, requireIfMatch } = rule;
  const takesCredentials = m.spec.bearer || m.apiKeyHeader !== null;
  const lifecycle = createLifecycle(m.spec, version, m.now);
  const report = createUseReporter(m, version, rule.collection, rule.operation);
  if (lifecycle === null && report === null && limiters.length === 0 && isPublic && !takesCredentials && !requireIfMatch) return null;
  return async (request, reply) => {
    if (lifecycle !== null) {
      const refused = lifecycle(reply);
      if (refused !== undefined) return refused;
    }
    const credential = readCredential(request, m.spec, m.apiKeyHeader);
    if (credential !== null) {
      const state = stateOf(request);
      // Checked already when header versioning asked `pinnedVersion` for this principal's version.
      const principal = state.authenticated && state.principal !== null ? state.principal : await authenticateRequest(m, request, reply, credential);
      if (principal === null) return reply;
      state.principal = principal;
      report?.(request, principal);
      if (!isPublic) {
        const refused = checkScopes(reply, credential, principal);
        if (refused !== undefined) return refused;
      }
    } else if (!isPublic) {
      reply.header('www-authenticate', m.challenge(null));
      return send(reply, problem(401, 'unauthenticated', 'This operation needs a credential.'));
    } else report?.(request, null);
    const limited = limiters.length === 0 ? undefined : await limit(request, reply, limiters);
    if (limited !== undefined) return limited;
    if (requireIfMatch && request.headers['if-match'] === undefined)
      return send(
        reply,
        problem(
          428,
          'precondition_required',
          "This write needs an If-Match header with the resource's current ETag (read it first), so that it never overwrites a change made meanwhile.",
        ),
      );
    return undefined;
  };

  /** 403 when `principal` lacks a scope the route needs. */
  function checkScopes(reply: FastifyReply, credential: Credential, principal: Principal): FastifyReply | undefined {
    const lacking = needs.filter((s) => !principal.scopes.includes(s));
    if (lacking.length === 0) return undefined;
    const params = `error="insufficient_scope", scope="${lacking.join(' ')}"`;
    reply.header('www-authenticate', m.challenge(credential.scheme, params));
    return send(reply, problem(403, 'insufficient_scope', `This operation needs the scope ${lacking.join(' and ')}.`, { scopes: lacking }));
  }
}

/** Counts the request against every limit; 429 when one is exceeded. RateLimit headers on every answer. */
async function limit(request: FastifyRequest, reply: FastifyReply, limiters: readonly Limiter[]): Promise<FastifyReply | undefined> {
  const results = await Promise.all(limiters.map((l) => l(request)));
  const exceeded = results.filter((r) => r.exceeded).sort((a, b) => b.reset - a.reset)[0];
  const shown = exceeded ?? results.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  reply
    .header('ratelimit-limit', shown.max)
    .header('ratelimit-remaining', shown.remaining)
    .header('ratelimit-reset', shown.reset)
    .header('ratelimit-policy', shown.policy);
  if (!exceeded) return undefined;
  reply.header('retry-after', Math.max(1, exceeded.reset));
  return send(reply, problem(429, 'rate_limited', `Too many requests; retry in ${Math.max(1, exceeded.reset)} s.`));
}
