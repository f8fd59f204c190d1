/**
 * Answering a request sent with an `Idempotency-Key` once: creates and transitions run once per key (per
 * principal, version, collection and target), and a retry with the same key and body gets the stored
 * answer again (a success with `Idempotent-Replayed: true`); the same key with another body answers 422.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Broken } from './answer.js';
import { logSafely } from './contain.js';
import { isInstance } from './guards.js';
import { answerKeyOf, fingerprintOf, type Answer, type RecordAnswer, type Remembered } from './idempotency.js';
import { isIdempotencyConflict } from './idempotency-store.js';
import { timedOut } from './invoke.js';
import { INTERNAL, isProblem, problem, send } from './problems.js';
import { RedisUnavailable } from './redis-guard.js';
import { stateOf, type Mount } from './state.js';

/** The scopes (per mounted API) whose handler was found not to write its answer in its transaction: warned once each. */
const unrecorded = new WeakMap<Mount, Set<string>>();

/** The key sent, null when there is none, or a reply already sent (400: a key over 255 characters). */
export function idempotencyKeyOf(request: FastifyRequest, reply: FastifyReply): string | null | FastifyReply {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || key.length === 0) return null;
  if (key.length <= 255) return key;
  return send(reply, problem(400, 'invalid_idempotency_key', 'Idempotency-Key must be at most 255 characters.'));
}

/**
 * Runs `make` once for `key` and answers with what it made, or with the answer stored for the key.
 * `scope` names what the key is for (`v2:orders`, `v2:orders:<id>:cancel`); `make` resolves to null when
 * it failed (logged; nothing is stored, the request answers 500). `answerOf` makes the answer of a resource,
 * for a store that records it when the handler passes its transaction to `ctx.events.write`.
 */
export async function answerOnce(
  m: Mount,
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  scope: string,
  make: () => Promise<Answer | null>,
  answerOf: (resource: unknown) => Answer | Broken,
): Promise<FastifyReply> {
  const timeout = m.requestTimeout;
  // The answer is kept with the fingerprint of the body it answered (key order does not matter), so a
  // key reused for another body is refused.
  const fingerprint = fingerprintOf(request.body);
  const principal = stateOf(request).principal;
  const storeKey = answerKeyOf(principal ? { principal: principal.id } : { address: request.ip }, scope, key);
  let recorded = false;
  const run = (record: RecordAnswer | null) => {
    if (record !== null)
      stateOf(request).recordAnswer = async (tx, resource) => {
        const answer = answerOf(resource);
        // An answer that breaks the response schema is not kept: the request answers 500, as without a key.
        if ('ok' in answer) return;
        await record(tx, answer);
        recorded = true;
      };
    return make();
  };
  let remembered: Remembered | 'timeout';
  try {
    remembered = await withTimeout(m.answers.remember(storeKey, fingerprint, run, performance.now() + timeout), timeout);
  } catch (error) {
    if (!isInstance(error, RedisUnavailable)) throw error;
    logSafely(request.log, 'error', { err: error, source: 'idempotency store' }, 'Redis unavailable for an idempotent request');
    reply.header('retry-after', 1);
    return send(reply, problem(503, 'unavailable', 'Idempotent requests are unavailable for a moment; retry with the same Idempotency-Key.'));
  }
  if (remembered === 'timeout' || remembered.kind === 'busy') return timedOut(reply, timeout);
  if (remembered.kind === 'reused')
    return send(reply, problem(422, 'idempotency_key_reused', 'This Idempotency-Key was used with a different body; use a new key.'));
  const { answer } = remembered;
  if (answer === null) return send(reply, INTERNAL);
  if (!recorded && !remembered.replayed && answer.status < 400 && stateOf(request).recordAnswer !== null) warnUnrecorded(m, request, scope);
  // A replayed success says so: the client learns that its earlier attempt made the resource (or moved it). An error is
  // answered again as it was, without the header, which the documents declare on successes only: the same problem
  // means the same thing to a client, replayed or not.
  if (remembered.replayed && answer.status < 400) reply.header('idempotent-replayed', 'true');
  return sendAnswer(reply, answer);
}

/** Sends an answer: its status, Location and ETag, and its body (problem+json from 400 on). */
export function sendAnswer(reply: FastifyReply, answer: Answer): FastifyReply {
  if (answer.location !== null) reply.header('location', answer.location);
  // Answers stored before ETags existed have none.
  if (typeof answer.etag === 'string') reply.header('etag', answer.etag);
  if (answer.status >= 400) return reply.code(answer.status).type('application/problem+json').send(answer.body);
  // A create's text goes out as written, as the route without an Idempotency-Key sends it.
  if (answer.text !== undefined) return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.text);
  return reply.code(answer.status).send(answer.body);
}

/**
 * Runs a handler for {@link answerOnce}: a problem it returns or throws is an answer too; its value
 * becomes one through `shape`. Null (logged) when it failed or its value breaks the response schema.
 */
export async function runForAnswer(
  request: FastifyRequest,
  version: string,
  source: string,
  run: () => unknown,
  shape: (value: unknown) => Answer | Broken,
): Promise<Answer | null> {
  let value: unknown;
  try {
    value = await run();
  } catch (error) {
    // Another request with the key committed first: not a failure, the store answers with its answer.
    if (isIdempotencyConflict(error)) return null;
    if (!isProblem(error)) {
      logSafely(request.log, 'error', { err: error, source }, 'handler failed');
      return null;
    }
    value = error;
  }
  if (isProblem(value))
    return {
      status: value.status,
      location: null,
      etag: null,
      body: value.toProblem(),
    };
  const answer = shape(value);
  if (!('ok' in answer)) return answer;
  request.log.error(
    {
      source: answer.source,
      version,
      pointer: answer.pointer,
      detail: answer.detail,
    },
    'answer breaks the response schema',
  );
  return null;
}

/** `promise`, or "timeout" after `ms` (the promise goes on; its result is dropped). */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Warns once per scope that a handler answered without writing its idempotent answer in its transaction. */
function warnUnrecorded(m: Mount, request: FastifyRequest, scope: string): void {
  const seen = unrecorded.get(m) ?? new Set<string>();
  unrecorded.set(m, seen);
  if (seen.has(scope)) return;
  seen.add(scope);
  request.log.warn(
    { scope },
    `${scope}: the handler answered without passing its transaction to ctx.events.write, so the answer to its Idempotency-Key was stored after its commit; a crash in between lets a retry run it again`,
  );
}
