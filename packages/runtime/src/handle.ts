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
import { logSafely } from './contain.js';
import { etagOfText, evaluate, preconditionsOf, type Preconditions } from './etag.js';
import { isRecord } from './guards.js';
import type { Answer } from './idempotency.js';
import { createExpander, type ExpandFailure } from './expand.js';
import { answerFailure, invoke, whenSettled, type Outcome } from './invoke.js';
import { createListHandle } from './list-route.js';
import { createWriteGuard, preconditionFailed, writeProblem } from './load.js';
import { BODY_RULES, INTERNAL, invalidBody, isProblem, issuesOf, problem, send, type BodyRules, type ProblemIssue } from './problems.js';
import { answerOnce, idempotencyKeyOf, runForAnswer } from './replay.js';
import { createFileWrites } from './file-writes.js';
import { deleteFiles, isMultipart, readUpload } from './file-upload.js';
import type { StoredFile } from './file-values.js';
import { acceptable, sendJsonText } from './representation.js';
import { isXmlBody, valueOfXml } from './xml-value.js';
import { preload } from './preloaded.js';
import { isPlain } from './shape.js';
import { answerUnshown, createAskedReader, expandedText, type Asked } from './shown.js';
import type { RouteSpec, VersionSpec } from './spec.js';
import { contextOf, type Handle, type Mount } from './state.js';
import type { Condition, HandlerEvents, OperationName } from './types.js';
import { createViews, type View } from './view.js';

/** Characters `encodeURIComponent` never escapes (a subset of them). */
const UNRESERVED = /^[\w.~-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A create's answer before it is sent: the body's JSON text, its ETag and Location. */
interface Created {
  readonly text: string;
  readonly location: string;
  readonly etag: string;
}

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
  // A file is shown with its download path, which the ETag (the same in every version) leaves out.
  const shownAsTagged =
    m.newest.get(key) === route &&
    Object.keys(route.down).length === 0 &&
    (!m.validateResponses || isPlain(route.schemas.response)) &&
    route.files === undefined;
  /**
   * Sends an answer's JSON text as it was written from the response schema (Fastify does not serialize it
   * again), or its XML when the request negotiated XML.
   */
  const sendText = (reply: FastifyReply, text: string, root = route.xml?.resource): FastifyReply => sendJsonText(reply, text, root);
  const files = createFileWrites(m, route, m.files);
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

  /** The body as the schema reads it: an XML document's value by the schema, anything else as parsed. */
  const inputOf = (request: FastifyRequest): unknown => (isXmlBody(request.body) && schema !== undefined ? valueOfXml(request.body, schema) : request.body);

  /**
   * A multipart body read (files stored) and checked: the body, the files it stored and what an
   * Idempotency-Key compares, or null once it answered (and deleted what it stored).
   */
  const upload = async (
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ readonly body: Record<string, unknown>; readonly stored: readonly StoredFile[]; readonly fingerprint: unknown } | null> => {
    if (route.files === undefined || m.files === null || schema === undefined) {
      send(
        reply,
        problem(415, 'unsupported_media_type', `${op === 'create' ? 'A create' : 'This write'} of ${route.path} takes no files: send the body as JSON.`),
      );
      return null;
    }
    const read = await readUpload(request, route, schema, m.files, m.bodyLimit);
    if (!read.ok) {
      const failed = read.problem.status === 500;
      if (failed) logSafely(request.log, 'error', { err: read.error, source: 'options.files' }, 'an upload failed');
      // The rest of the body is not read: the connection closes after the answer.
      reply.header('connection', 'close');
      send(reply, failed ? INTERNAL : read.problem);
      return null;
    }
    const parsed = parse(read.body);
    const issues: ProblemIssue[] = [...read.issues, ...(parsed.success ? [] : issuesOf(parsed.error, 'body'))];
    if (issues.length > 0 || !parsed.success) {
      await deleteFiles(
        m.files,
        read.stored.map((f) => f.key),
        request,
      );
      send(
        reply,
        problem(400, 'validation_failed', `The request body is invalid (${issues.length} issue${issues.length === 1 ? '' : 's'}).`, { errors: issues }),
      );
      return null;
    }
    return { body: parsed.data, stored: read.stored, fingerprint: read.fingerprint };
  };

  switch (op) {
    case 'get':
      return (request, reply) => {
        if (!acceptable(m, request, reply)) return undefined;
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
        if (!acceptable(m, request, reply)) return reply;
        const id = idOf(request);
        if (id === null) return noSuchId(request, reply, route.path);
        const guarded = await guard(request, reply, id, context(request));
        if (!guarded.ok) return reply;
        const read = files === null ? null : await files.before(request, id, context(request));
        // The resource read for its files is the one the delete's event carries: the get handler runs once.
        const ctx = context(request, guarded.condition);
        if (read?.resource !== undefined) preload(ctx, read.resource.value);
        const outcome = await invoke(request, source, timeout, () => {
          const result = fn(id, ctx);
          files?.settle(request, result, [], read?.keys ?? []);
          return result;
        });
        if (outcome.kind !== 'value') return answerFailure(request, reply, source, outcome, timeout);
        if (isProblem(outcome.value)) return send(reply, writeProblem(request, outcome.value).toProblem());
        return reply.code(204).send();
      };
    case 'replace':
    case 'update':
      return async (request, reply) => {
        if (!acceptable(m, request, reply)) return reply;
        const id = idOf(request);
        if (id === null) return noSuchId(request, reply, route.path);
        let data: Record<string, unknown>;
        let stored: readonly StoredFile[] = [];
        if (isMultipart(request)) {
          const read = await upload(request, reply);
          if (read === null) return reply;
          ({ body: data, stored } = read);
        } else {
          const input = inputOf(request);
          const parsed = parse(input);
          if (!parsed.success) return badBody(reply, parsed.error, input);
          data = parsed.data;
        }
        // Uploaded files are deleted again when the write does not go ahead.
        const drop = () =>
          m.files === null
            ? undefined
            : deleteFiles(
                m.files,
                stored.map((f) => f.key),
                request,
              );
        const view = asked(request, reply);
        if (!('names' in view)) return (await drop(), view);
        const body = migrateUp(data, op === 'replace');
        if (!body.ok) return (await drop(), reject(request, reply, version.name, body));
        const guarded = await guard(request, reply, id, context(request));
        if (!guarded.ok) return (await drop(), reply);
        const old = files === null ? [] : (await files.before(request, id, context(request))).keys;
        return answerWith(request, reply, 200, view, () => {
          const result = fn(id, body.value, context(request, guarded.condition));
          files?.settle(request, result, stored, old);
          return result;
        });
      };
    case 'create': {
      /** Creates from a checked body; `stored`: the files its request uploaded, deleted again unless the resource takes them. */
      const createFrom = (request: FastifyRequest, reply: FastifyReply, data: Record<string, unknown>, stored: readonly StoredFile[], fingerprint: unknown) => {
        const drop = () =>
          m.files === null || stored.length === 0
            ? undefined
            : deleteFiles(
                m.files,
                stored.map((f) => f.key),
                request,
              );
        const view = asked(request, reply);
        if (!('names' in view)) return (void drop(), handled(view));
        const body = migrateUp(data, true);
        if (!body.ok) return (void drop(), handled(reject(request, reply, version.name, body)));
        const run = () => {
          const result = fn(body.value, context(request));
          if (stored.length > 0) files?.settle(request, result, stored, []);
          return result;
        };
        const key = idempotencyKeyOf(request, reply);
        if (key === null) return handled(answerWith(request, reply, 201, view, run));
        if (typeof key !== 'string') return (void drop(), undefined);
        let ran = false;
        const make = () => ((ran = true), runForAnswer(request, version.name, source, run, (value) => created(value, request, view)));
        // A replayed answer created nothing this time: the files this request uploaded are not kept.
        const scope = `${version.name}:${route.collection.key}`;
        return answerOnce(m, request, reply, key, scope, make, (value) => created(value, request, view), {
          body: fingerprint,
          root: route.xml?.resource,
        }).then(async (sent) => {
          if (!ran) await drop();
          return sent;
        });
      };
      return (request, reply) => {
        if (!acceptable(m, request, reply)) return undefined;
        if (isMultipart(request))
          return upload(request, reply).then((read) => (read === null ? reply : createFrom(request, reply, read.body, read.stored, read.fingerprint)));
        const input = inputOf(request);
        const parsed = parse(input);
        if (!parsed.success) return handled(badBody(reply, parsed.error, input));
        return createFrom(request, reply, parsed.data, [], input);
      };
    }
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
