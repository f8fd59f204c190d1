/**
 * The handler side of an operation: parses the body or query with the version's schema (400), migrates it
 * up to the newest version, calls the user's handler, migrates the answer down and shapes it with the
 * version's response schema (unknown and write-only keys removed at every depth, values checked), and
 * replays create answers sent with an Idempotency-Key.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { createPresenter, createUpMigration, reject } from "./answer.js";
import { isRecord } from "./guards.js";
import {
  RedisUnavailable,
  fingerprintOf,
  type Answer,
  type Remembered,
} from "./idempotency.js";
import { answerFailure, invoke, timedOut } from "./invoke.js";
import { compileUp } from "./migrate.js";
import { HttpProblem, INTERNAL, invalid, problem, send } from "./problems.js";
import type { RouteSpec, VersionSpec } from "./spec.js";
import { principalOf, stateOf, type Handle, type Mount } from "./state.js";
import type { HandlerContext, OperationName } from "./types.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  const up = route.up === null ? null : compileUp(route.up, m.hooks);

  const present = createPresenter(m, version, route, source);
  const migrateUp = createUpMigration(m, version, route, op);

  // No state is allocated for requests no gate looked at (public routes without limits).
  const context = (request: FastifyRequest): HandlerContext => ({
    principal: principalOf(request),
    version: version.name,
    request,
  });
  const idOf = (request: FastifyRequest): string | null => {
    const id = (request.params as { id?: string }).id;
    return typeof id === "string" && UUID.test(id) ? id : null;
  };
  const notFound = (reply: FastifyReply) =>
    send(
      reply,
      problem(404, "not_found", `No ${route.path} resource has this id.`),
    );
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

  /** Calls the handler and answers with its resource (or problem) at `status`. */
  const answerWith = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    run: () => unknown,
  ) => {
    const outcome = await invoke(request, source, timeout, run);
    if (outcome.kind !== "value")
      return answerFailure(request, reply, source, outcome, timeout);
    const value = outcome.value;
    if (value instanceof HttpProblem) return send(reply, value.toProblem());
    const shown = present(value, "#");
    if (!shown.ok) return reject(request, reply, version.name, shown);
    return reply.code(status).send(shown.value);
  };

  switch (op) {
    case "list":
      return async (request, reply) => {
        const parsed = parse(request.query);
        if (!parsed.success) return invalid(reply, parsed.error, "query");
        const query = up ? up(parsed.data, false) : parsed.data;
        const outcome = await invoke(request, source, timeout, () =>
          fn(query, context(request)),
        );
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
    case "get":
      return async (request, reply) => {
        const id = idOf(request);
        if (id === null) return notFound(reply);
        return answerWith(request, reply, 200, () => fn(id, context(request)));
      };
    case "delete":
      return async (request, reply) => {
        const id = idOf(request);
        if (id === null) return notFound(reply);
        const outcome = await invoke(request, source, timeout, () =>
          fn(id, context(request)),
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
        if (id === null) return notFound(reply);
        const parsed = parse(request.body);
        if (!parsed.success) return invalid(reply, parsed.error, "body");
        const body = migrateUp(parsed.data, op === "replace");
        if (!body.ok) return reject(request, reply, version.name, body);
        return answerWith(request, reply, 200, () =>
          fn(id, body.value, context(request)),
        );
      };
    case "create":
      return async (request, reply) => {
        const parsed = parse(request.body);
        if (!parsed.success) return invalid(reply, parsed.error, "body");
        const body = migrateUp(parsed.data, true);
        if (!body.ok) return reject(request, reply, version.name, body);
        const key = request.headers["idempotency-key"];
        if (typeof key !== "string" || key.length === 0) {
          const outcome = await invoke(request, source, timeout, () =>
            fn(body.value, context(request)),
          );
          if (outcome.kind !== "value")
            return answerFailure(request, reply, source, outcome, timeout);
          const value = outcome.value;
          if (value instanceof HttpProblem)
            return send(reply, value.toProblem());
          const shown = present(value, "#");
          if (!shown.ok) return reject(request, reply, version.name, shown);
          const location = locationOf(shown.value);
          if (location === null)
            return reject(request, reply, version.name, {
              ok: false,
              source,
              pointer: `#/${route.id}`,
              detail: "the new resource has no id",
            });
          return reply.code(201).header("location", location).send(shown.value);
        }
        if (key.length > 255)
          return send(
            reply,
            problem(
              400,
              "invalid_idempotency_key",
              "Idempotency-Key must be at most 255 characters.",
            ),
          );
        return replayed(request, reply, key, body.value);
      };
  }

  /** A create with an Idempotency-Key: run once per key (across instances with Redis), replayed after. */
  async function replayed(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    body: unknown,
  ): Promise<FastifyReply> {
    // The answer is kept with the fingerprint of the body it answered (key order does not matter), so a
    // key reused for another body is refused.
    const fingerprint = fingerprintOf(request.body);
    const make = async (): Promise<Answer | null> => {
      let value: unknown;
      try {
        value = await fn(body, context(request));
      } catch (error) {
        if (!(error instanceof HttpProblem)) {
          request.log.error({ err: error, source }, "handler failed");
          return null;
        }
        value = error;
      }
      if (value instanceof HttpProblem)
        return {
          status: value.status,
          location: null,
          body: value.toProblem(),
        };
      const shown = present(value, "#");
      const location = shown.ok ? locationOf(shown.value) : null;
      if (!shown.ok || location === null) {
        const broken = shown.ok
          ? {
              ok: false as const,
              source,
              pointer: `#/${route.id}`,
              detail: "the new resource has no id",
            }
          : shown;
        request.log.error(
          {
            source: broken.source,
            version: version.name,
            pointer: broken.pointer,
            detail: broken.detail,
          },
          "answer breaks the response schema",
        );
        return null;
      }
      return { status: 201, location, body: shown.value };
    };
    const principal = stateOf(request).principal;
    const storeKey = `${principal ? "p:" + principal.id : "ip:" + request.ip}:${version.name}:${route.collection.key}:${key}`;
    let remembered: Remembered | "timeout";
    try {
      remembered = await withTimeout(
        m.answers.remember(
          storeKey,
          fingerprint,
          make,
          performance.now() + timeout,
        ),
        timeout,
      );
    } catch (error) {
      if (!(error instanceof RedisUnavailable)) throw error;
      request.log.error(
        { err: error, source: "idempotency store" },
        "Redis unavailable for an idempotent create",
      );
      reply.header("retry-after", 1);
      return send(
        reply,
        problem(
          503,
          "unavailable",
          "Idempotent creates are unavailable for a moment; retry with the same Idempotency-Key.",
        ),
      );
    }
    if (remembered === "timeout" || remembered.kind === "busy")
      return timedOut(reply, timeout);
    if (remembered.kind === "reused")
      return send(
        reply,
        problem(
          422,
          "idempotency_key_reused",
          "This Idempotency-Key was used with a different body; use a new key.",
        ),
      );
    const { answer } = remembered;
    if (answer === null) return send(reply, INTERNAL);
    if (remembered.replayed) reply.header("idempotent-replayed", "true");
    if (answer.location !== null) reply.header("location", answer.location);
    if (answer.status >= 400)
      return reply
        .code(answer.status)
        .type("application/problem+json")
        .send(answer.body);
    return reply.code(answer.status).send(answer.body);
  }
}

/** `promise`, or "timeout" after `ms` (the promise goes on; its result is dropped). */
function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
): Promise<T | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
