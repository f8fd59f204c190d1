/**
 * The handler side of an operation: parses the body or query with the version's schema (400), migrates it
 * up to the newest version, calls the user's handler, migrates the answer down and shapes it with the
 * version's response schema (unknown and write-only keys removed at every depth, values checked), tags
 * single resources with their ETag, evaluates preconditions (304, 412), and replays create answers sent
 * with an Idempotency-Key.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { createTextPresenter, createUpMigration, reject, type Broken } from './answer.js';
import { createRequestParser } from './checked-read.js';
import { etagOfText, evaluate, preconditionsOf, type Preconditions } from './etag.js';
import { isRecord } from './guards.js';
import type { Answer } from './idempotency.js';
import { answerFailure, invoke, whenSettled, type Outcome } from './invoke.js';
import { createWriteGuard, preconditionFailed, writeProblem } from './load.js';
import { BODY_RULES, invalid, invalidBody, isProblem, problem, send, type BodyRules } from './problems.js';
import { answerOnce, idempotencyKeyOf, runForAnswer } from './replay.js';
import { isPlain } from './shape.js';
import type { RouteSpec, VersionSpec } from './spec.js';
import { principalOf, recorderOf, type Handle, type Mount } from './state.js';
import type { Condition, HandlerContext, HandlerEvents, OperationName } from './types.js';

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

/** The JSON pointers of a page's items (`#/data/3`), written once each: a page is at most a few hundred. */
const ITEM_POINTERS: string[] = [];
const itemPointer = (i: number): string => (i < 1000 ? (ITEM_POINTERS[i] ??= `#/data/${i}`) : `#/data/${i}`);

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

/**
 * What a handler receives besides its input; `m.emit` and `m.events` send events, and `ctx.events.write` also
 * records the request's idempotent answer in the handler's transaction when the answer store takes it.
 */
export const contextOf = (m: Mount, request: FastifyRequest, version: string, condition: Condition | null = null): HandlerContext => {
  const record = recorderOf(request);
  return {
    principal: principalOf(request),
    version,
    request,
    condition,
    emit: m.emit,
    events:
      record === null
        ? m.events
        : {
            write: async (tx, resource) => {
              await m.events.write(tx, resource);
              await record(tx, resource);
            },
            emit: m.events.emit,
          },
  };
};

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
  const fn = m.handlers[key]![op]!;
  const rules = (m.handlers[key] as { [BODY_RULES]?: BodyRules })[BODY_RULES];
  const badBody = (reply: FastifyReply, error: z.ZodError, body: unknown) => invalidBody(reply, error, rules, body, version.name);
  const timeout = m.requestTimeout;
  const newestEtag = m.etags.get(key)!;
  // The newest version shows a resource as the ETag hashes it (unmigrated, the same keys in the same order;
  // checked output equal to the stripped one when the schema is plain): its answer is tagged as shown, and
  // the text hashed is the body sent.
  const shownAsTagged = m.newest.get(key) === route && Object.keys(route.down).length === 0 && (!m.validateResponses || isPlain(route.schemas.response));
  /** The ETag of a resource whose answer is the JSON text `shown`. */
  const tag = (resource: unknown, shown: string): string => (shownAsTagged ? etagOfText(shown) : newestEtag(resource));
  const present = createTextPresenter(m, version, route, source);
  const migrateUp = createUpMigration(m, version, route, op);
  const guard = createWriteGuard(m, version, route);
  const context = (request: FastifyRequest, condition: Condition | null = null) => contextOf(m, request, version.name, condition);
  const locationOf = (resource: unknown): string | null => {
    const id = isRecord(resource) ? resource[route.id] : undefined;
    if (typeof id !== 'string' || id === '') return null;
    // What encodeURIComponent leaves as is needs no call (ids are UUIDs).
    return `${base}/${UNRESERVED.test(id) ? id : encodeURIComponent(id)}`;
  };
  const schema =
    op === 'list'
      ? route.schemas.query
      : op === 'create'
        ? route.schemas.create
        : op === 'replace'
          ? route.schemas.replace
          : op === 'update'
            ? route.schemas.patch
            : undefined;
  const parse =
    schema === undefined
      ? () => {
          throw new Error(`internal error: ${op} takes no input`);
        }
      : createRequestParser(schema);

  /**
   * A new resource as a create answers it: its JSON text, tag and Location; or why it cannot be. The id
   * is read from the value the text was written from, which holds it as the text does (a uuid).
   */
  const createdAnswer = (value: unknown, request: FastifyRequest): Created | Broken => {
    const shown = present(value, '#', request.log);
    if (!shown.ok) return shown;
    const location = locationOf(shown.from);
    if (location === null)
      return {
        ok: false,
        source,
        pointer: `#/${route.id}`,
        detail: 'the new resource has no id',
      };
    return { text: shown.text, location, etag: tag(value, shown.text) };
  };
  /** The answer of a create sent with an Idempotency-Key (kept as its text, sent again on a retry). */
  const created = (value: unknown, request: FastifyRequest): Answer | Broken => {
    const made = createdAnswer(value, request);
    if ('ok' in made) return made;
    const { location, etag, text } = made;
    return { status: 201, location, etag, text };
  };

  /** Calls the handler and answers with its resource (or problem) at `status`, tagged with its ETag (and Location on a create). */
  const answerWith = (request: FastifyRequest, reply: FastifyReply, status: number, run: () => unknown) =>
    whenSettled(invoke(request, source, timeout, run), (outcome) => answerOutcome(request, reply, status, outcome));
  const answerOutcome = (request: FastifyRequest, reply: FastifyReply, status: number, outcome: Outcome<unknown>): FastifyReply => {
    if (outcome.kind !== 'value') return answerFailure(request, reply, source, outcome, timeout);
    const value = outcome.value;
    if (isProblem(value)) return send(reply, (status === 201 ? value : writeProblem(request, value)).toProblem());
    if (status === 201) {
      const made = createdAnswer(value, request);
      if ('ok' in made) return reject(request, reply, version.name, made);
      reply.code(201).header('location', made.location);
      return sendText(reply.header('etag', made.etag), made.text);
    }
    const shown = present(value, '#', request.log);
    if (!shown.ok) return reject(request, reply, version.name, shown);
    const etag = tag(value, shown.text);
    return sendText(reply.code(status).header('etag', etag), shown.text);
  };

  /**
   * Answers a list handler's outcome: each item shaped (and checked) as the version shows it; with checks
   * on, a page of more than the `limit` asked for (at most the `maxItems` the document declares) is refused.
   */
  const answerPage = (request: FastifyRequest, reply: FastifyReply, limit: number, outcome: Outcome<unknown>): FastifyReply => {
    if (outcome.kind !== 'value') return answerFailure(request, reply, source, outcome, timeout);
    const page = outcome.value;
    if (isProblem(page)) return send(reply, page.toProblem());
    const data = isRecord(page) ? page['data'] : undefined;
    const next = isRecord(page) ? page['next_cursor'] : undefined;
    if (!Array.isArray(data))
      return reject(request, reply, version.name, {
        ok: false,
        source,
        pointer: '#/data',
        detail: 'not an array',
      });
    if (m.validateResponses && data.length > limit)
      return reject(request, reply, version.name, {
        ok: false,
        source,
        pointer: '#/data',
        detail: `${data.length} items, but the request asked for at most ${limit}`,
      });
    if (next !== null && typeof next !== 'string')
      return reject(request, reply, version.name, {
        ok: false,
        source,
        pointer: '#/next_cursor',
        detail: 'neither a string nor null',
      });
    // `JSON.stringify({ data, next_cursor })`, written from each item's text.
    let items = '';
    for (let i = 0; i < data.length; i++) {
      const shown = present(data[i], itemPointer(i), request.log);
      if (!shown.ok) return reject(request, reply, version.name, shown);
      items += (i === 0 ? '' : ',') + shown.text;
    }
    const cursor = JSON.stringify(next);
    return sendText(reply, `{"data":[${items}],"next_cursor":${cursor}}`);
  };

  /** Answers a get handler's outcome: the resource shaped, tagged, and judged by the preconditions `p`. */
  const answerOne = (request: FastifyRequest, reply: FastifyReply, p: Preconditions | null, outcome: Outcome<unknown>): FastifyReply => {
    if (outcome.kind !== 'value') return answerFailure(request, reply, source, outcome, timeout);
    const value = outcome.value;
    if (isProblem(value)) return value.status === 404 && p?.ifMatch ? preconditionFailed(reply) : send(reply, value.toProblem());
    const shown = present(value, '#', request.log);
    if (!shown.ok) return reject(request, reply, version.name, shown);
    const etag = tag(value, shown.text);
    const verdict = p === null ? 'pass' : evaluate(p, etag, true);
    if (verdict === 'failed') return preconditionFailed(reply);
    reply.header('etag', etag);
    if (verdict === 'not-modified') return reply.code(304).send();
    return sendText(reply, shown.text);
  };

  switch (op) {
    case 'list':
      return (request, reply) => {
        const parsed = parse(request.query);
        if (!parsed.success) return handled(invalid(reply, parsed.error, 'query'));
        const query = migrateUp(parsed.data, false);
        if (!query.ok) return handled(reject(request, reply, version.name, query));
        // The query schema always gives `limit` (its default, a larger value lowered to the maximum).
        const limit = isRecord(query.value) && typeof query.value['limit'] === 'number' ? query.value['limit'] : Infinity;
        const outcome = invoke(request, source, timeout, () => fn(query.value, context(request)));
        return handled(whenSettled(outcome, (o) => answerPage(request, reply, limit, o)));
      };
    case 'get':
      return (request, reply) => {
        const id = idOf(request);
        const p = preconditionsOf(request);
        if (id === null) return handled(noSuchId(request, reply, route.path));
        const outcome = invoke(request, source, timeout, () => fn(id, context(request)));
        return handled(whenSettled(outcome, (o) => answerOne(request, reply, p, o)));
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
        const body = migrateUp(parsed.data, op === 'replace');
        if (!body.ok) return reject(request, reply, version.name, body);
        const guarded = await guard(request, reply, id, context(request));
        if (!guarded.ok) return reply;
        return answerWith(request, reply, 200, () => fn(id, body.value, context(request, guarded.condition)));
      };
    case 'create':
      return (request, reply) => {
        const parsed = parse(request.body);
        if (!parsed.success) return handled(badBody(reply, parsed.error, request.body));
        const body = migrateUp(parsed.data, true);
        if (!body.ok) return handled(reject(request, reply, version.name, body));
        const key = idempotencyKeyOf(request, reply);
        if (key === null) return handled(answerWith(request, reply, 201, () => fn(body.value, context(request))));
        if (typeof key !== 'string') return undefined;
        const make = () =>
          runForAnswer(
            request,
            version.name,
            source,
            () => fn(body.value, context(request)),
            (value) => created(value, request),
          );
        return answerOnce(m, request, reply, key, `${version.name}:${route.collection.key}`, make, (value) => created(value, request));
      };
  }
}
