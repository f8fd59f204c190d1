/**
 * The current resource of a write or a transition, loaded with the collection's get handler, and the
 * check of a write's preconditions against it (412 when `If-Match` names another ETag, or `If-None-Match`
 * names this one). Handlers check them again atomically with their write, through `ctx.condition`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { reject } from './answer.js';
import { conditionOf, evaluate, preconditionsOf, type Etagger } from './etag.js';
import { isRecord } from './guards.js';
import { answerFailure, invoke } from './invoke.js';
import { type HttpProblem, PreconditionFailed, isProblem, send } from './problems.js';
import type { RouteSpec, VersionSpec } from './spec.js';
import type { Mount } from './state.js';
import type { Condition, HandlerContext } from './types.js';

/** What loading came to: the resource and its ETag, none (the get handler answered 404), or an answer already sent. */
export type Loaded =
  | {
      readonly kind: 'found';
      readonly value: Record<string, unknown>;
      readonly etag: string;
    }
  | { readonly kind: 'missing'; readonly problem: HttpProblem }
  | { readonly kind: 'answered'; readonly reply: FastifyReply };

/** Loads a resource by id. */
export type Loader = (request: FastifyRequest, reply: FastifyReply, id: string, ctx: HandlerContext) => Promise<Loaded>;

/** The loader of a collection, or null when it has no get handler (no version offers get). */
export function createLoader(m: Mount, version: VersionSpec, route: RouteSpec): Loader | null {
  const key = route.collection.key;
  const get = m.handlers[key]?.['get'];
  const etagOf = m.etags.get(key)!;
  const source = `handlers.${key}.get`;
  if (get === undefined) return null;
  return async (request, reply, id, ctx) => {
    const outcome = await invoke(request, source, m.requestTimeout, () => get(id, ctx));
    if (outcome.kind !== 'value')
      return {
        kind: 'answered',
        reply: answerFailure(request, reply, source, outcome, m.requestTimeout),
      };
    const value = outcome.value;
    if (isProblem(value)) return value.status === 404 ? { kind: 'missing', problem: value } : { kind: 'answered', reply: send(reply, value.toProblem()) };
    if (!isRecord(value) || Array.isArray(value))
      return {
        kind: 'answered',
        reply: reject(request, reply, version.name, {
          ok: false,
          source,
          pointer: '#',
          detail: 'not a resource object',
        }),
      };
    return { kind: 'found', value, etag: etagOf(value) };
  };
}

/** Answers 412: the preconditions do not hold for the current resource. */
export const preconditionFailed = (reply: FastifyReply): FastifyReply => send(reply, new PreconditionFailed().toProblem());

/**
 * The problem a conditional write's handler answered, as the client gets it: a 404 to a request that sent
 * `If-Match` is 412, since the resource it named existed when its precondition was checked and is gone now
 * (a concurrent delete won; RFC 9110 section 13.1.1: If-Match is false without a current representation).
 */
export function writeProblem(request: FastifyRequest, problem: HttpProblem): HttpProblem {
  return problem.status === 404 && preconditionsOf(request)?.ifMatch ? new PreconditionFailed() : problem;
}

/** A write may go on (with the condition its handler checks again), or was answered. */
export type Guarded = { readonly ok: true; readonly condition: Condition | null } | { readonly ok: false };

/**
 * Checks a write's preconditions (replace, update, delete) against the current resource before the
 * handler runs. Without a get handler the handler alone checks `ctx.condition`.
 */
export function createWriteGuard(
  m: Mount,
  version: VersionSpec,
  route: RouteSpec,
): (request: FastifyRequest, reply: FastifyReply, id: string, ctx: HandlerContext) => Promise<Guarded> {
  const load = createLoader(m, version, route);
  const etagOf: Etagger = m.etags.get(route.collection.key)!;
  return async (request, reply, id, ctx) => {
    const p = preconditionsOf(request);
    if (p === null) return { ok: true, condition: null };
    if (load !== null) {
      const loaded = await load(request, reply, id, ctx);
      if (loaded.kind === 'answered') return { ok: false };
      const current = loaded.kind === 'found' ? loaded.etag : null;
      if (evaluate(p, current, false) !== 'pass') {
        preconditionFailed(reply);
        return { ok: false };
      }
    }
    return { ok: true, condition: conditionOf(p, etagOf) };
  };
}
