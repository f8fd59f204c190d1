/**
 * The handler side of an operation: parses the body or query with the version's schema (400), migrates it
 * up to the newest version, calls the user's handler, migrates the answer down and shapes it with the
 * version's response schema (unknown and write-only keys removed at every depth, values checked), tags
 * single resources with their ETag, evaluates preconditions (304, 412), and replays create answers sent
 * with an Idempotency-Key.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import {
  createPresenter,
  createUpMigration,
  reject,
  type Broken,
} from "./answer.js";
import {
  etagOfText,
  evaluate,
  preconditionsOf,
  type Preconditions,
} from "./etag.js";
import { isRecord } from "./guards.js";
import type { Answer } from "./idempotency.js";
import { answerFailure, invoke, whenSettled, type Outcome } from "./invoke.js";
import { createWriteGuard, preconditionFailed } from "./load.js";
import { HttpProblem, invalid, problem, send } from "./problems.js";
import { answerOnce, idempotencyKeyOf, runForAnswer } from "./replay.js";
import { isPlain } from "./shape.js";
import type { RouteSpec, VersionSpec } from "./spec.js";
import { principalOf, type Handle, type Mount } from "./state.js";
import type { Condition, HandlerContext, OperationName } from "./types.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What Fastify sends JSON as: a body sent as text keeps the content type an object would get. */
const JSON_TYPE = "application/json; charset=utf-8";

/** A shown resource's ETag, and the JSON text it was hashed from when that text is the body to send. */
interface Tagged {
  readonly etag: string;
  readonly text: string | null;
}

/**
 * Sends a shown resource: its JSON text as is when the ETag was hashed from it (serialized once), else the
 * object (Fastify serializes it).
 */
const sendShown = (
  reply: FastifyReply,
  shown: unknown,
  text: string | null,
): FastifyReply =>
  text === null ? reply.send(shown) : reply.type(JSON_TYPE).send(text);

/** The id of an item URL when it is a UUID (any other id names no resource), else null. */
export const idOf = (request: FastifyRequest): string | null => {
  const id = (request.params as { id?: string }).id;
  return typeof id === "string" && UUID.test(id) ? id : null;
};

/**
 * Answers a request whose id names no resource (not a UUID): 404, or 412 when it sends `If-Match`, which
 * no missing resource satisfies (RFC 9110 section 13.1.1).
 */
export function noSuchId(
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
): FastifyReply {
  if (preconditionsOf(request)?.ifMatch) return preconditionFailed(reply);
  return send(
    reply,
    problem(404, "not_found", `No ${path} resource has this id.`),
  );
}

/** What a handler receives besides its input; `m.emit` sends custom events. */
export const contextOf = (
  m: Mount,
  request: FastifyRequest,
  version: string,
  condition: Condition | null = null,
): HandlerContext => ({
  principal: principalOf(request),
  version,
  request,
  condition,
  emit: m.emit,
});

/** `ctx.emit` of an API without custom events (the webhooks runtime gives handlers a working one). */
export const noEvents = async (type: string): Promise<void> => {
  throw new TypeError(
    `ctx.emit('${type}'): the API declares no custom events; declare it in defineApi({ events }).`,
  );
};

/** The handler of `op` on `route` in `version`; `base` is the collection's URL, for `Location`. */
export function createHandle(
  m: Mount,
  version: VersionSpec,
  route: RouteSpec,
  op: OperationName,
  base: string,
): Handle {
  const key = route.collection.key;
  const source = `handlers.${key}.${op}`;
  const fn = m.handlers[key]![op]!;
  const timeout = m.requestTimeout;
  const newestEtag = m.etags.get(key)!;
  // The newest version shows a resource as the ETag hashes it (unmigrated, the same keys in the same order;
  // checked output equal to the stripped one when the schema is plain): its answer is tagged as shown, and
  // the text hashed is the body sent.
  const shownAsTagged =
    m.newest.get(key) === route &&
    Object.keys(route.down).length === 0 &&
    (!m.validateResponses || isPlain(route.schemas.response));
  const tag = (resource: unknown, shown: unknown): Tagged => {
    if (!shownAsTagged) return { etag: newestEtag(resource), text: null };
    const text = JSON.stringify(shown);
    return { etag: etagOfText(text), text };
  };
  const present = createPresenter(m, version, route, source);
  const migrateUp = createUpMigration(m, version, route, op);
  const guard = createWriteGuard(m, version, route);
  const context = (
    request: FastifyRequest,
    condition: Condition | null = null,
  ) => contextOf(m, request, version.name, condition);
  const locationOf = (resource: unknown): string | null => {
    const id = isRecord(resource) ? resource[route.id] : undefined;
    return typeof id === "string" && id !== ""
      ? `${base}/${encodeURIComponent(id)}`
      : null;
  };
  const schema =
    op === "list"
      ? route.schemas.query
      : op === "create"
        ? route.schemas.create
        : op === "replace"
          ? route.schemas.replace
          : op === "update"
            ? route.schemas.patch
            : undefined;
  const parse = (input: unknown) =>
    schema!.safeParse(input) as z.ZodSafeParseResult<Record<string, unknown>>;

  /**
   * A new resource as a create answers it: shaped, tagged, with its Location (and the body's JSON text when
   * the tag was hashed from it); or why it cannot be.
   */
  const createdAnswer = (
    value: unknown,
  ): { readonly answer: Answer; readonly text: string | null } | Broken => {
    const shown = present(value, "#");
    if (!shown.ok) return shown;
    const location = locationOf(shown.value);
    if (location === null)
      return {
        ok: false,
        source,
        pointer: `#/${route.id}`,
        detail: "the new resource has no id",
      };
    const { etag, text } = tag(value, shown.value);
    return {
      answer: { status: 201, location, etag, body: shown.value },
      text,
    };
  };
  /** The answer of a create sent with an Idempotency-Key (kept as an object, sent again on a retry). */
  const created = (value: unknown): Answer | Broken => {
    const made = createdAnswer(value);
    return "ok" in made ? made : made.answer;
  };

  /** Calls the handler and answers with its resource (or problem) at `status`, tagged with its ETag (and Location on a create). */
  const answerWith = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    run: () => unknown,
  ) =>
    whenSettled(invoke(request, source, timeout, run), (outcome) =>
      answerOutcome(request, reply, status, outcome),
    );
  const answerOutcome = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    outcome: Outcome<unknown>,
  ): FastifyReply => {
    if (outcome.kind !== "value")
      return answerFailure(request, reply, source, outcome, timeout);
    const value = outcome.value;
    if (value instanceof HttpProblem) return send(reply, value.toProblem());
    if (status === 201) {
      const made = createdAnswer(value);
      if ("ok" in made) return reject(request, reply, version.name, made);
      const { answer, text } = made;
      reply.code(201).header("location", answer.location);
      return sendShown(reply.header("etag", answer.etag), answer.body, text);
    }
    const shown = present(value, "#");
    if (!shown.ok) return reject(request, reply, version.name, shown);
    const { etag, text } = tag(value, shown.value);
    return sendShown(
      reply.code(status).header("etag", etag),
      shown.value,
      text,
    );
  };

  /** Answers a list handler's outcome: each item shaped (and checked) as the version shows it. */
  const answerPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    outcome: Outcome<unknown>,
  ): FastifyReply => {
    if (outcome.kind !== "value")
      return answerFailure(request, reply, source, outcome, timeout);
    const page = outcome.value;
    if (page instanceof HttpProblem) return send(reply, page.toProblem());
    const data = isRecord(page) ? page["data"] : undefined;
    const next = isRecord(page) ? page["next_cursor"] : undefined;
    if (!Array.isArray(data))
      return reject(request, reply, version.name, {
        ok: false,
        source,
        pointer: "#/data",
        detail: "not an array",
      });
    if (next !== null && typeof next !== "string")
      return reject(request, reply, version.name, {
        ok: false,
        source,
        pointer: "#/next_cursor",
        detail: "neither a string nor null",
      });
    const items: unknown[] = [];
    for (let i = 0; i < data.length; i++) {
      const shown = present(data[i], `#/data/${i}`);
      if (!shown.ok) return reject(request, reply, version.name, shown);
      items.push(shown.value);
    }
    return reply.send({ data: items, next_cursor: next });
  };

  /** Answers a get handler's outcome: the resource shaped, tagged, and judged by the preconditions `p`. */
  const answerOne = (
    request: FastifyRequest,
    reply: FastifyReply,
    p: Preconditions | null,
    outcome: Outcome<unknown>,
  ): FastifyReply => {
    if (outcome.kind !== "value")
      return answerFailure(request, reply, source, outcome, timeout);
    const value = outcome.value;
    if (value instanceof HttpProblem)
      return value.status === 404 && p?.ifMatch
        ? preconditionFailed(reply)
        : send(reply, value.toProblem());
    const shown = present(value, "#");
    if (!shown.ok) return reject(request, reply, version.name, shown);
    const { etag, text } = tag(value, shown.value);
    const verdict = p === null ? "pass" : evaluate(p, etag, true);
    if (verdict === "failed") return preconditionFailed(reply);
    reply.header("etag", etag);
    if (verdict === "not-modified") return reply.code(304).send();
    return sendShown(reply, shown.value, text);
  };

  switch (op) {
    case "list":
      return async (request, reply) => {
        const parsed = parse(request.query);
        if (!parsed.success) return invalid(reply, parsed.error, "query");
        const query = migrateUp(parsed.data, false);
        if (!query.ok) return reject(request, reply, version.name, query);
        const outcome = invoke(request, source, timeout, () =>
          fn(query.value, context(request)),
        );
        return whenSettled(outcome, (o) => answerPage(request, reply, o));
      };
    case "get":
      return async (request, reply) => {
        const id = idOf(request);
        const p = preconditionsOf(request);
        if (id === null) return noSuchId(request, reply, route.path);
        const outcome = invoke(request, source, timeout, () =>
          fn(id, context(request)),
        );
        return whenSettled(outcome, (o) => answerOne(request, reply, p, o));
      };
    case "delete":
      return async (request, reply) => {
        const id = idOf(request);
        if (id === null) return noSuchId(request, reply, route.path);
        const guarded = await guard(request, reply, id, context(request));
        if (!guarded.ok) return reply;
        const outcome = await invoke(request, source, timeout, () =>
          fn(id, context(request, guarded.condition)),
        );
        if (outcome.kind !== "value")
          return answerFailure(request, reply, source, outcome, timeout);
        if (outcome.value instanceof HttpProblem)
          return send(reply, outcome.value.toProblem());
        return reply.code(204).send();
      };
    case "replace":
    case "update":
      return async (request, reply) => {
        const id = idOf(request);
        if (id === null) return noSuchId(request, reply, route.path);
        const parsed = parse(request.body);
        if (!parsed.success) return invalid(reply, parsed.error, "body");
        const body = migrateUp(parsed.data, op === "replace");
        if (!body.ok) return reject(request, reply, version.name, body);
        const guarded = await guard(request, reply, id, context(request));
        if (!guarded.ok) return reply;
        return answerWith(request, reply, 200, () =>
          fn(id, body.value, context(request, guarded.condition)),
        );
      };
    case "create":
      return async (request, reply) => {
        const parsed = parse(request.body);
        if (!parsed.success) return invalid(reply, parsed.error, "body");
        const body = migrateUp(parsed.data, true);
        if (!body.ok) return reject(request, reply, version.name, body);
        const key = idempotencyKeyOf(request, reply);
        if (key === null)
          return answerWith(request, reply, 201, () =>
            fn(body.value, context(request)),
          );
        if (typeof key !== "string") return key;
        const make = () =>
          runForAnswer(
            request,
            version.name,
            source,
            () => fn(body.value, context(request)),
            created,
          );
        return answerOnce(
          m,
          request,
          reply,
          key,
          `${version.name}:${route.collection.key}`,
          make,
        );
      };
  }
}
