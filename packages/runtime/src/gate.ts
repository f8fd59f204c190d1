/**
 * The gate of an operation or a transition, run before its body is read: version lifecycle (Deprecation,
 * Sunset, 410), credentials and scopes (401, 403; 429 for an address that sent too many rejected
 * credentials), rate limits (429 with RateLimit headers), and a required If-Match (428).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { readCredential, verifyBearer } from "./auth.js";
import { limitKeyOf } from "./client-address.js";
import { answerFailure, invoke } from "./invoke.js";
import { HttpProblem, problem, send } from "./problems.js";
import type { Limiter } from "./rate-limit.js";
import type { ApiSpec, VersionSpec } from "./spec.js";
import { stateOf, type Gate, type Mount } from "./state.js";
import type { Credential, Principal } from "./types.js";

const AUTHENTICATE = "options.authenticate";

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
}

/** What a 410 recommends: the newest released version that is not itself past its sunset, if any. */
export function successorOf(spec: ApiSpec, now: number): string | null {
  for (let i = spec.versions.length - 1; i >= 0; i--) {
    const v = spec.versions[i]!;
    if (v.released && (v.sunsetAt === null || now < v.sunsetAt)) return v.name;
  }
  return null;
}

/** The gate of a route in `version` that follows `rule`, or null when it has nothing to check. */
export function createGate(
  m: Mount,
  version: VersionSpec,
  rule: GateRule,
): Gate | null {
  const { isPublic, scopes: needs, limiters, requireIfMatch } = rule;
  const takesCredentials = m.spec.bearer || m.apiKeyHeader !== null;
  if (
    version.deprecation === null &&
    version.sunset === null &&
    limiters.length === 0 &&
    isPublic &&
    !takesCredentials &&
    !requireIfMatch
  )
    return null;
  const retired = (reply: FastifyReply) => {
    const next = successorOf(m.spec, m.now());
    const use = next === null ? "" : `; use ${next}`;
    return send(
      reply,
      problem(
        410,
        "version_sunset",
        `${version.name} was retired on ${version.sunset}${use}.`,
      ),
    );
  };
  return async (request, reply) => {
    if (version.deprecation !== null)
      reply.header("deprecation", version.deprecation);
    if (version.sunset !== null) {
      reply.header("sunset", version.sunset);
      if (version.sunsetAt !== null && m.now() >= version.sunsetAt)
        return retired(reply);
    }
    const credential = readCredential(request, m.spec, m.apiKeyHeader);
    if (credential !== null) {
      const address = limitKeyOf(request.ip);
      const failures = m.failures;
      const wait = failures === null ? null : await failures.admit(address);
      if (wait !== null) {
        reply.header("retry-after", wait);
        return send(
          reply,
          problem(
            429,
            "too_many_failed_credentials",
            `Too many rejected credentials from this address; retry in ${wait} s.`,
          ),
        );
      }
      let refused: FastifyReply | undefined;
      try {
        refused = await authorize(request, reply, credential, address);
      } finally {
        failures?.release(address);
      }
      if (refused !== undefined) return refused;
    } else if (!isPublic) {
      reply.header("www-authenticate", m.challenge(null));
      return send(
        reply,
        problem(401, "unauthenticated", "This operation needs a credential."),
      );
    }
    const limited =
      limiters.length === 0 ? undefined : await limit(request, reply, limiters);
    if (limited !== undefined) return limited;
    if (requireIfMatch && request.headers["if-match"] === undefined)
      return send(
        reply,
        problem(
          428,
          "precondition_required",
          "This write needs an If-Match header with the resource's current ETag (read it first), so that it never overwrites a change made meanwhile.",
        ),
      );
    return undefined;
  };

  /** Verifies and authenticates a credential, and checks its scopes: an answer when it is refused. */
  async function authorize(
    request: FastifyRequest,
    reply: FastifyReply,
    credential: Credential,
    address: string,
  ): Promise<FastifyReply | undefined> {
    const checked = await verifyBearer(m, credential, request, reply);
    if (checked === null) return reply;
    // `authenticate` is user code: its errors tell the client nothing, and it has the request timeout.
    const outcome = await invoke(request, AUTHENTICATE, m.requestTimeout, () =>
      m.authenticate(checked, request),
    );
    if (outcome.kind !== "value")
      return answerFailure(
        request,
        reply,
        AUTHENTICATE,
        outcome,
        m.requestTimeout,
      );
    const value = outcome.value;
    // A 401 problem is a rejected credential in `authenticate`'s own words: counted, and challenged, as null is.
    const rejected =
      value === null || (value instanceof HttpProblem && value.status === 401);
    if (rejected) {
      m.failures?.failed(address);
      reply.header(
        "www-authenticate",
        m.challenge(credential.scheme, 'error="invalid_token"'),
      );
    }
    if (value instanceof HttpProblem) return send(reply, value.toProblem());
    if (value === null)
      return send(
        reply,
        problem(401, "invalid_token", "The credential was not accepted."),
      );
    const principal: Principal = value;
    stateOf(request).principal = principal;
    if (!isPublic) {
      const lacking = needs.filter((s) => !principal.scopes.includes(s));
      if (lacking.length > 0) {
        const params = `error="insufficient_scope", scope="${lacking.join(" ")}"`;
        reply.header(
          "www-authenticate",
          m.challenge(credential.scheme, params),
        );
        return send(
          reply,
          problem(
            403,
            "insufficient_scope",
            `This operation needs the scope ${lacking.join(" and ")}.`,
            { scopes: lacking },
          ),
        );
      }
    }
    return undefined;
  }
}

/** Counts the request against every limit; 429 when one is exceeded. RateLimit headers on every answer. */
async function limit(
  request: FastifyRequest,
  reply: FastifyReply,
  limiters: readonly Limiter[],
): Promise<FastifyReply | undefined> {
  const results = await Promise.all(limiters.map((l) => l(request)));
  const exceeded = results
    .filter((r) => r.exceeded)
    .sort((a, b) => b.reset - a.reset)[0];
  const shown =
    exceeded ?? results.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  reply
    .header("ratelimit-limit", shown.max)
    .header("ratelimit-remaining", shown.remaining)
    .header("ratelimit-reset", shown.reset)
    .header("ratelimit-policy", shown.policy);
  if (!exceeded) return undefined;
  reply.header("retry-after", Math.max(1, exceeded.reset));
  return send(
    reply,
    problem(
      429,
      "rate_limited",
      `Too many requests; retry in ${Math.max(1, exceeded.reset)} s.`,
    ),
  );
}
