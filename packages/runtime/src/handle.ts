/**
 * The handler side of an operation: parses the body with the version's schema (400), migrates it up to the
 * newest version, calls the user's handler, migrates the answer down and shapes it with the version's response
 * schema (unknown and write-only keys removed at every depth, values checked), masked to the fields the query
 * asks for and with the refs it expands, tags single resources with their ETag, evaluates preconditions (304,
 * 412), and replays create answers sent with an Idempotency-Key. The list operation is in `list-route.ts`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { createUpMigration, reject, type Broken } from './answer.js';
import { createRequestParser } from './checked-read.js';
import { etagOfText, evaluate, preconditionsOf, type Preconditions } from './etag.js';
import { isRecord } from './guards.js';
import type { Answer } from './idempotency.js';
import { createExpander, type ExpandFailure } from './expand.js';
import { answerFailure, invoke, whenSettled, type Outcome } from './invoke.js';
import { createListHandle } from './list-route.js';
import { createWriteGuard, preconditionFailed, writeProblem } from './load.js';
import { BODY_RULES, invalidBody, isProblem, problem, send, type BodyRules } from './problems.js';
import { answerOnce, idempotencyKeyOf, runForAnswer } from './replay.js';
import { isPlain } from './shape.js';
import { answerUnshown, createAskedReader, expandedText, type Asked } from './shown.js';
import type { RouteSpec, VersionSpec } from './spec.js';
import { contextOf, type Handle, type Mount } from './state.js';
import type { Condition, HandlerEvents, OperationName } from './types.js';
import { createViews, type View } from './view.js';

/** Characters `encodeURIComponent` never escapes (a subset of them). */
const UNRESERVED = /^[\w.~-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What Fastify sends JSON as: a body sent as text keeps the content type an object would get. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** A create's answer before it is sent: the body's JSON text, its ETag and Location. */
interface Created {
  readonly text: string;
  readonly location: string;
  readonly etag: string;
}

/**
 * Sends an answer's JSON text as it was written from the response schema (Fastify does not serialize it
 * again), with the content type Fastify gives an object.
 */
const sendText = (reply: FastifyReply, text: string): FastifyReply => reply.type(JSON_TYPE).send(text);

/**
 * What a route's handler gives Fastify: nothing when it has answered already, so Fastify waits on no
 * promise (an async handler's answer would cost a promise and the microtasks that settle it), else the
 * promise of its answer.
 */
const handled = (answer: unknown): Promise<unknown> | undefined => (answer instanceof Promise ? answer : undefined);

/** The id of an item URL when it is a UUID (any other id names no resource), else null. */
export const idOf = (request: FastifyRequest): string | null => {
  const id = (request.params as { id?: string }).id;
  return typeof id === 'string' && UUID.test(id) ? id : null;
};

/**
 * Answers a request whose id names no resource (not a UUID): 404, or 412 when it sends `If-Match`, which
 * no missing resource satisfies (RFC 9110 section 13.1.1).
 */
export function noSuchId(request: FastifyRequest, reply: FastifyReply, path: string): FastifyReply {
  if (preconditionsOf(request)?.ifMatch) return preconditionFailed(reply);
  return send(reply, problem(404, 'not_found', `No ${path} resource has this id.`));
}

export { contextOf } from './state.js';

/** `ctx.emit` of an API without custom events (the webhooks runtime gives handlers a working one). */
export const noEvents = async (type: string): Promise<void> => {
  throw new TypeError(`ctx.emit('${type}'): the API declares no custom events; declare it in defineApi({ events }).`);
};

/** `ctx.events` of an API without events: no derived event to write, no custom event to emit. */
export const NO_HANDLER_EVENTS: HandlerEvents = {
  write: async () => undefined,
  emit: (_tx, type) => noEvents(type),
};

/** The handler of `op` on `route` in `version`; `base` is the collection's URL, for `Location`. */
export function createHandle(m: Mount, version: VersionSpec, route: RouteSpec, op: OperationName, base: string): Handle {
  const key = route.collection.key;
  const source = `handlers.${key}.${op}`;
  const views = createViews(m, version, route, source);
  const expander = createExpander(m, version);
  if (op === 'list') return createListHandle(m, version, route, views, expander);
  const fn = m.handlers[key]![op]!;
  const rules = (m.handlers[key] as { [BODY_RULES]?: BodyRules })[BODY_RULES];
  const badBody = (reply: FastifyReply, error: z.ZodError, body: unknown) => invalidBody(reply, error, rules, body, version.name);
  const timeout = m.requestTimeout;
  const newestEtag = m.etags.get(key)!;
  // The newest version shows a resource as the ETag hashes it (unmigrated, the same keys in the same order;
  // checked output equal to the stripped one when the schema is plain): its answer is tagged as shown, and
  // the text hashed is the body sent.
  const shownAsTagged = m.newest.get(key) === route && Object.keys(route.down).length === 0 && (!m.validateResponses || isPlain(route.schemas.response));
  /** The ETag of a resource whose whole answer is the JSON text `shown` (a masked or expanded one is not). */
  const tag = (resource: unknown, shown: string | null): string => (shownAsTagged && shown !== null ? etagOfText(shown) : newestEtag(resource));
  const migrateUp = createUpMigration(m, version, route, op);
  const guard = createWriteGuard(m, version, route);
  const context = (request: FastifyRequest, condition: Condition | null = null) => contextOf(m, request, version.name, condition);
  // What a get (`?fields=`, `?expand=`) and a write (`?expand=`) ask to see.
  const asked = createAskedReader(
    route,
    op === 'get' ? route.schemas.read : op === 'delete' ? undefined : route.schemas.write,
    expander,
    op === 'get' ? 'a get' : 'a write',
  );
  const locationOf = (resource: unknown): string | null => {
    const id = isRecord(resource) ? resource[route.id] : undefined;
    if (typeof id !== 'string' || id === '') return null;
    // What encodeURIComponent leaves as is needs no call (ids are UUIDs).
    return `${base}/${UNRESERVED.test(id) ? id : encodeURIComponent(id)}`;
  };
  const schema = op === 'create' ? route.schemas.create : op === 'replace' ? route.schemas.replace : op === 'update' ? route.schemas.patch : undefined;
  const parse =
    schema === undefined
      ? () => {
          throw new Error(`internal error: ${op} takes no input`);
        }
      : createRequestParser(schema);

  /**
   * A resource as the request asked to see it (masked, expanded): its JSON text and the value it was written from;
   * or why it cannot be shown. Synchronous unless something is expanded.
   */
  const show = (
    value: unknown,
    request: FastifyRequest,
    view: Asked,
  ): { ok: true; text: string; from: unknown } | Broken | Promise<{ ok: true; text: string; from: unknown } | Broken | ExpandFailure> => {
    const presented: View = views(view.names);
    if (view.expansions.length > 0) return expandedText(request, expander, presented, value, view.expansions);
    return presented.text(value, '#', request.log);
  };
  /** The ETag of `value` shown as `text` with `view`. */
  const tagOf = (value: unknown, text: string, view: Asked) => tag(value, view.names === null && view.expansions.length === 0 ? text : null);

  /**
   * A new resource as a create answers it: its JSON text, tag and Location; or why it cannot be. The id
   * is read from the value the text was written from, which holds it as the text does (a uuid).
   */
  const createdAnswer = (
    shown: { ok: true; text: string; from: unknown } | Broken | ExpandFailure,
    value: unknown,
    view: Asked,
  ): Created | Broken | ExpandFailure => {
    if (!('ok' in shown) || !shown.ok) return shown;
    const location = locationOf(value);
    if (location === null) return { ok: false, source, pointer: `#/${route.id}`, detail: 'the new resource has no id' };
    return { text: shown.text, location, etag: tagOf(value, shown.text, view) };
  };
  /** The answer of a create sent with an Idempotency-Key (kept as its text, sent again on a retry). */
  const created = async (value: unknown, request: FastifyRequest, view: Asked): Promise<Answer | Broken> => {
    const made = createdAnswer(await show(value, request, view), value, view);
    if ('kind' in made)
      return made.kind === 'problem' ? { status: made.problem.status, location: null, etag: null, body: made.problem.toProblem() } : failedShow(made);
    if ('ok' in made) return made;
    const { location, etag, text } = made;
    return { status: 201, location, etag, text };
  };

  /** Calls the handler and answers with its resource (or problem) at `status`, tagged with its ETag (and Location on a create). */
  const answerWith = (request: FastifyRequest, reply: FastifyReply, status: number, view: Asked, run: () => unknown) =>
    whenSettled(invoke(request, source, timeout, run), (outcome) => answerOutcome(request, reply, status, view, outcome));
  const answerOutcome = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    view: Asked,
    outcome: Outcome<unknown>,
  ): FastifyReply | Promise<FastifyReply> => {
    if (outcome.kind !== 'value') return answerFailure(request, reply, source, outcome, timeout);
    const value = outcome.value;
    if (isProblem(value)) return send(reply, (status === 201 ? value : writeProblem(request, value)).toProblem());
    return whenShown(show(value, request, view), (shown) => {
      if (status === 201) {
        const made = createdAnswer(shown, value, view);
        if ('kind' in made || 'ok' in made) return answerUnshown(request, reply, version.name, timeout, made);
        reply.code(201).header('location', made.location);
        return sendText(reply.header('etag', made.etag), made.text);
      }
      if (!('ok' in shown) || !shown.ok) return answerUnshown(request, reply, version.name, timeout, shown);
      return sendText(reply.code(status).header('etag', tagOf(value, shown.text, view)), shown.text);
    });
  };

  /**
   * Answers a get handler's outcome: the resource shaped, tagged, and judged by the preconditions `p`. An
   * expanded answer shows other resources too, which its ETag does not cover: it is never a 304.
   */
  const answerOne = (request: FastifyRequest, reply: FastifyReply, p: Preconditions | null, view: Asked, outcome: Outcome<unknown>) => {
    if (outcome.kind !== 'value') return answerFailure(request, reply, source, outcome, timeout);
    const value = outcome.value;
    if (isProblem(value)) return value.status === 404 && p?.ifMatch ? preconditionFailed(reply) : send(reply, value.toProblem());
    return whenShown(show(value, request, view), (shown) => {
      if (!('ok' in shown) || !shown.ok) return answerUnshown(request, reply, version.name, timeout, shown);
      const etag = tagOf(value, shown.text, view);
      const verdict = p === null ? 'pass' : evaluate(p, etag, true);
      if (verdict === 'failed') return preconditionFailed(reply);
      reply.header('etag', etag);
      if (verdict === 'not-modified' && view.expansions.length === 0) return reply.code(304).send();
      return sendText(reply, shown.text);
    });
  };

  switch (op) {
    case 'get':
      return (request, reply) => {
        const id = idOf(request);
        const p = preconditionsOf(request);
        if (id === null) return handled(noSuchId(request, reply, route.path));
        const view = asked(request, reply);
        if (!('names' in view)) return handled(view);
        const outcome = invoke(request, source, timeout, () => fn(id, context(request)));
        return handled(whenSettled(outcome, (o) => answerOne(request, reply, p, view, o)));
      };
    case 'delete':
      return async (request, reply) => {
        const id = idOf(request);
        if (id === null) return noSuchId(request, reply, route.path);
        const guarded = await guard(request, reply, id, context(request));
        if (!guarded.ok) return reply;
        const outcome = await invoke(request, source, timeout, () => fn(id, context(request, guarded.condition)));
        if (outcome.kind !== 'value') return answerFailure(request, reply, source, outcome, timeout);
        if (isProblem(outcome.value)) return send(reply, writeProblem(request, outcome.value).toProblem());
        return reply.code(204).send();
      };
    case 'replace':
    case 'update':
      return async (request, reply) => {
        const id = idOf(request);
        if (id === null) return noSuchId(request, reply, route.path);
        const parsed = parse(request.body);
        if (!parsed.success) return badBody(reply, parsed.error, request.body);
        const view = asked(request, reply);
        if (!('names' in view)) return view;
        const body = migrateUp(parsed.data, op === 'replace');
        if (!body.ok) return reject(request, reply, version.name, body);
        const guarded = await guard(request, reply, id, context(request));
        if (!guarded.ok) return reply;
        return answerWith(request, reply, 200, view, () => fn(id, body.value, context(request, guarded.condition)));
      };
    case 'create':
      return (request, reply) => {
        const parsed = parse(request.body);
        if (!parsed.success) return handled(badBody(reply, parsed.error, request.body));
        const view = asked(request, reply);
        if (!('names' in view)) return handled(view);
        const body = migrateUp(parsed.data, true);
        if (!body.ok) return handled(reject(request, reply, version.name, body));
        const key = idempotencyKeyOf(request, reply);
        if (key === null) return handled(answerWith(request, reply, 201, view, () => fn(body.value, context(request))));
        if (typeof key !== 'string') return undefined;
        const make = () =>
          runForAnswer(
            request,
            version.name,
            source,
            () => fn(body.value, context(request)),
            (value) => created(value, request, view),
          );
        return answerOnce(m, request, reply, key, `${version.name}:${route.collection.key}`, make);
      };
  }
}

/** Continues with a shown value: at once when it is there, else when its expansion settles. */
function whenShown<T, R>(shown: T | Promise<T>, next: (shown: T) => R): R | Promise<R> {
  return shown instanceof Promise ? shown.then(next) : next(shown);
}

/** An expansion that failed as a broken answer of the create (logged, then 500; a replay stores nothing). */
function failedShow(failure: Exclude<ExpandFailure, { kind: 'problem' }>): Broken {
  if (failure.kind === 'broken') return failure.broken;
  return {
    ok: false,
    source: failure.source,
    pointer: '#',
    detail: failure.outcome.kind === 'timeout' ? 'did not answer in time' : 'threw',
    ...(failure.outcome.kind === 'error' ? { error: failure.outcome.error } : {}),
  };
}
