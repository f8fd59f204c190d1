/**
 * A lifecycle transition, `POST /vN/<collection>/{id}:<name>`: the input is parsed with the version's
 * schema (400; an empty body is `{}`) and migrated up; the resource is loaded with the get handler; the
 * preconditions are checked against its ETag (412) and its state against the transition's `from` states
 * (409 `invalid_transition`, with the state as the version shows it and the transitions open from it);
 * then the transition's handler moves it, and the answer is shaped, tagged and checked to be in the `to`
 * state. Sent with an Idempotency-Key, a transition runs once and a retry gets the same answer.
 */
import type { FastifyRequest } from 'fastify';
import { createPresenter, reject, type Broken } from './answer.js';
import { createRequestParser } from './checked-read.js';
import { conditionOf, evaluate, preconditionsOf } from './etag.js';
import { isInstance, isRecord } from './guards.js';
import type { Answer } from './idempotency.js';
import { answerFailure, invoke } from './invoke.js';
import { compileUp } from './migrate.js';
import { HttpProblem, InvalidTransition, PreconditionFailed, invalid, isProblem, send } from './problems.js';
import { answerOnce, idempotencyKeyOf, runForAnswer, sendAnswer } from './replay.js';
import type { RouteSpec, VersionSpec } from './spec.js';
import type { Handle, Mount } from './state.js';
import { contextOf, idOf, noSuchId } from './handle.js';

/** A problem as an answer. */
const answerOf = (p: HttpProblem): Answer => ({
  status: p.status,
  location: null,
  etag: null,
  body: p.toProblem(),
});

/** The state as `route`'s version shows it (a state added later shows as its fallback). */
export function stateShown(route: RouteSpec, state: string): string {
  const step = route.stateField === null ? undefined : route.down[route.stateField];
  const values = step !== undefined && 'key' in step ? step.values : undefined;
  return values !== undefined && Object.hasOwn(values, state) ? values[state]! : state;
}

/** The handler of transition `name` on `route` in `version`. */
export function createTransitionHandle(m: Mount, version: VersionSpec, route: RouteSpec, name: string): Handle {
  const key = route.collection.key;
  const lifecycle = route.collection.lifecycle!;
  const { field } = lifecycle;
  const transition = lifecycle.transitions[name]!;
  const spec = route.transitions[name]!;
  const source = `handlers.${key}.${name}`;
  const fn = m.handlers[key]![name]!;
  const get = m.handlers[key]!['get']!;
  const etagOf = m.etags.get(key)!;
  const present = createPresenter(m, version, route, source);
  const up = spec.up === null || spec.up === undefined ? null : compileUp(spec.up, m.hooks);
  const timeout = m.requestTimeout;
  const list = (states: readonly string[]) => [...new Set(states.map((s) => stateShown(route, s)))].join(' or ');

  /** 409: the transitions of this version open from `state`, which is shown as the version shows it. */
  const invalidTransition = (state: string): Answer => {
    const shown = stateShown(route, state);
    const allowed = Object.keys(route.transitions).filter((t) => lifecycle.transitions[t]!.from.includes(state));
    const open = allowed.length > 0 ? allowed.join(', ') : 'none';
    const detail = `The resource is ${shown}, and ${name} starts from ${list(transition.from)}; from ${shown} it can take: ${open}.`;
    return answerOf(
      new HttpProblem(409, 'invalid_transition', detail, {
        state: shown,
        allowed,
      }),
    );
  };

  /** Loads, checks and moves the resource; every outcome but a failure of user code is an answer. */
  const attempt = async (request: FastifyRequest, id: string, input: unknown): Promise<Answer | Broken> => {
    const p = preconditionsOf(request);
    const load = async (): Promise<unknown> => {
      try {
        return await get(id, contextOf(m, request, version.name));
      } catch (error) {
        if (isProblem(error)) return error;
        throw error;
      }
    };
    const current = await load();
    if (isProblem(current)) return answerOf(current.status === 404 && p?.ifMatch ? new PreconditionFailed() : current);
    if (!isRecord(current) || typeof current[field] !== 'string')
      return {
        ok: false,
        source: `handlers.${key}.get`,
        pointer: `#/${field}`,
        detail: 'the resource has no state',
      };
    if (p !== null && evaluate(p, etagOf(current), false) !== 'pass') return answerOf(new PreconditionFailed());
    const state = current[field];
    if (!transition.from.includes(state)) return invalidTransition(state);
    const ctx = contextOf(m, request, version.name, conditionOf(p, etagOf));
    let value: unknown;
    try {
      value = await fn(current, input, ctx);
    } catch (error) {
      if (!isProblem(error)) throw error;
      value = error;
    }
    if (isInstance(value, InvalidTransition)) {
      // The state moved after it was loaded: report the state it is in now.
      const now = value.state ?? (await load());
      if (typeof now === 'string') return invalidTransition(now);
      if (isRecord(now) && typeof now[field] === 'string') return invalidTransition(now[field]);
    }
    // Gone since it was loaded (a concurrent delete won): the If-Match it passed no longer holds.
    if (isProblem(value)) return answerOf(value.status === 404 && p?.ifMatch ? new PreconditionFailed() : value);
    return moved(request, value);
  };

  /** The answer of the resource a transition moved: shaped, tagged, and checked to be in the `to` state. */
  const moved = (request: FastifyRequest, value: unknown): Answer | Broken => {
    if (m.validateResponses && isRecord(value) && value[field] !== transition.to)
      return {
        ok: false,
        source,
        pointer: `#/${field}`,
        detail: `the transition leads to ${JSON.stringify(transition.to)}, the handler answered ${JSON.stringify(value[field])}`,
      };
    const shown = present(value, '#', request.log);
    if (!shown.ok) return shown;
    return {
      status: 200,
      location: null,
      etag: etagOf(value),
      body: shown.value,
    };
  };

  const parseInput = createRequestParser(spec.input);
  return async (request, reply) => {
    const id = idOf(request);
    if (id === null) return noSuchId(request, reply, route.path);
    // An empty body reads as `{}`; any JSON value sent (null too) is checked as sent.
    const body = request.body === undefined ? {} : request.body;
    const parsed = parseInput(body);
    if (!parsed.success) return invalid(reply, parsed.error, 'body');
    const input = up === null ? parsed.data : up(parsed.data, true);
    const idempotencyKey = idempotencyKeyOf(request, reply);
    if (idempotencyKey === null) {
      const outcome = await invoke(request, source, timeout, () => attempt(request, id, input));
      if (outcome.kind !== 'value') return answerFailure(request, reply, source, outcome, timeout);
      const answer = outcome.value;
      if (isProblem(answer)) return send(reply, answer.toProblem());
      if ('ok' in answer) return reject(request, reply, version.name, answer);
      return sendAnswer(reply, answer);
    }
    if (typeof idempotencyKey !== 'string') return idempotencyKey;
    const make = () =>
      runForAnswer(
        request,
        version.name,
        source,
        () => attempt(request, id, input),
        (answer) => answer as Answer | Broken,
      );
    return answerOnce(m, request, reply, idempotencyKey, `${version.name}:${key}:${id}:${name}`, make, (value) => moved(request, value));
  };
}
