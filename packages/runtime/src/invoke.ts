/**
 * Calling user code (handlers, migration hooks) safely: a thrown error never reaches the client with its
 * message or status, a problem (`NotFound`, `Conflict`, ...) thrown or returned is an answer, and a handler
 * that does not settle within the request timeout lets the request answer 503.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { logSafely } from './contain.js';
import { isInstance } from './guards.js';
import { type HttpProblem, internal, isProblem, problem, send } from './problems.js';
import { RedisUnavailable } from './redis-guard.js';

/** What a call of user code came to. */
export type Outcome<T> =
  | { readonly kind: 'value'; readonly value: T | HttpProblem }
  | { readonly kind: 'error'; readonly error: unknown }
  | { readonly kind: 'timeout' };

/**
 * Runs `run`, settled within `timeout` ms; a late answer is dropped (and a late error logged). A handler
 * that answers synchronously gets its outcome at once (no promise, no timer), so its route can answer in
 * the same tick.
 */
export function invoke<T>(request: FastifyRequest, source: string, timeout: number, run: () => T | Promise<T>): Outcome<T> | Promise<Outcome<T>> {
  let returned: T | Promise<T>;
  try {
    returned = run();
    // Asking a returned Proxy for `then` may throw: a failure of the call, as a throw is.
    if (!isThenable(returned)) return { kind: 'value', value: returned };
  } catch (error) {
    return settled(error);
  }
  return settleWithin(request, source, timeout, returned);
}

/** Continues with an outcome of {@link invoke}: at once when it is there, else when it settles. */
export function whenSettled<T, R>(outcome: Outcome<T> | Promise<Outcome<T>>, next: (outcome: Outcome<T>) => R | Promise<R>): R | Promise<R> {
  return outcome instanceof Promise ? outcome.then(next) : next(outcome);
}

/** The outcome of a handler's promise, or a timeout after `timeout` ms. */
async function settleWithin<T>(request: FastifyRequest, source: string, timeout: number, returned: PromiseLike<T>): Promise<Outcome<T>> {
  const result = Promise.resolve(returned).then(
    (value): Outcome<T> => ({ kind: 'value', value }),
    (error: unknown): Outcome<T> => settled<T>(error),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Outcome<T>>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timeout' }), timeout);
  });
  const outcome = await Promise.race([result, late]);
  clearTimeout(timer);
  if (outcome.kind === 'timeout')
    void result.then((o) => {
      if (o.kind === 'error') logSafely(request.log, 'error', { err: o.error, source }, 'failed after the request timed out');
    });
  return outcome;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

function settled<T>(error: unknown): Outcome<T> {
  return isProblem(error) ? { kind: 'value', value: error } : { kind: 'error', error };
}

/**
 * Answers an outcome that is not a value: 500 (logged, nothing told), or 503 with `Retry-After` after the
 * timeout or when Redis did not answer within `redisTimeout` (the webhook stores, under a handler).
 */
export function answerFailure(
  request: FastifyRequest,
  reply: FastifyReply,
  source: string,
  outcome: Exclude<Outcome<unknown>, { kind: 'value' }>,
  timeout: number,
): FastifyReply {
  if (outcome.kind === 'error' && isInstance(outcome.error, RedisUnavailable)) {
    logSafely(request.log, 'error', { err: outcome.error, source }, 'Redis unavailable for a webhook store');
    reply.header('retry-after', 1);
    return send(reply, problem(503, 'unavailable', 'The server cannot reach its store for a moment; retry later.'));
  }
  if (outcome.kind === 'error') return internal(request, reply, { err: outcome.error, source }, 'handler failed');
  request.log.error({ source, timeoutMs: timeout }, 'handler did not answer in time');
  return timedOut(reply, timeout);
}

/** 503 after the request timeout, with `Retry-After`. */
export function timedOut(reply: FastifyReply, timeout: number): FastifyReply {
  reply.header('retry-after', 1);
  return send(reply, problem(503, 'timeout', `The server did not answer within ${timeout} ms; retry later.`));
}
