/**
 * The built-in handlers of the webhook endpoints collection: list, get, create (answers the signing
 * secret once), update, delete, and the transitions disable, enable and rotateSecret (a new secret; the
 * old one keeps signing too for a grace period). An endpoint is pinned to the version it was created
 * through. URLs are checked when saved (400 naming the rule), and again when each delivery connects
 * (`webhook-url.ts`). Every change to a stored endpoint is one atomic `update` of the store.
 */
import { randomUUID } from "node:crypto";
import { BadRequest, NotFound } from "./problems.js";
import type { HandlerContext, ListQuery, Page } from "./types.js";
import { createSecret } from "./webhook-sign.js";
import type { EndpointRecord, EndpointStore } from "./webhook-store.js";
import { urlProblem, type Resolver } from "./webhook-url.js";

/** The default grace period of a rotated-out secret: 24 h. */
export const DEFAULT_GRACE_SECONDS = 86_400;

/** An endpoint as the API answers it (no secrets, unless just made). */
function shown(e: EndpointRecord, secret?: string): Record<string, unknown> {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    ...(e.description !== undefined ? { description: e.description } : {}),
    status: e.status,
    disabledReason: e.disabledReason,
    version: e.version,
    ...(secret !== undefined ? { secret } : {}),
    createdAt: e.createdAt,
  };
}

/** What the handlers need. */
export interface EndpointHandlerParts {
  readonly store: EndpointStore;
  /** The event types each version delivers. */
  readonly versions: Readonly<Record<string, readonly string[]>>;
  readonly allowPrivateUrls: boolean;
  readonly resolve?: Resolver;
  readonly now: () => number;
}

/** An updated endpoint as the API answers it, or 404 when it is gone. */
const answer = (e: EndpointRecord | null) =>
  e === null ? new NotFound() : shown(e);

/** The handlers of the webhook endpoints collection, by operation and transition name. */
export function createEndpointHandlers(parts: EndpointHandlerParts) {
  const { store } = parts;
  const check = async (
    body: { url?: unknown; events?: unknown },
    version: string,
  ): Promise<BadRequest | null> => {
    // Every problem at once: a client that fixes the URL should not learn of a wrong event type only on its next try.
    const sentences: string[] = [];
    const errors: { pointer: string; detail: string }[] = [];
    if (typeof body.url === "string") {
      const rule = await urlProblem(
        body.url,
        parts.allowPrivateUrls,
        parts.resolve,
      );
      if (rule !== null) {
        sentences.push(`url is refused: ${rule}.`);
        errors.push({ pointer: "#/url", detail: rule });
      }
    }
    if (Array.isArray(body.events)) {
      const known = parts.versions[version] ?? [];
      const unknown = body.events.filter(
        (t) => typeof t !== "string" || !known.includes(t),
      );
      if (unknown.length > 0) {
        sentences.push(
          `events: ${unknown.join(", ")} ${unknown.length === 1 ? "is not an event type" : "are not event types"} of ${version}; it has ${known.join(", ")}.`,
        );
        errors.push({
          pointer: "#/events",
          detail: `unknown event types: ${unknown.join(", ")}`,
        });
      }
    }
    return errors.length > 0 ? new BadRequest(sentences.join(" "), errors) : null;
  };
  const load = async (id: string): Promise<EndpointRecord | NotFound> =>
    (await store.get(id)) ?? new NotFound();
  return {
    async list(
      query: ListQuery & Record<string, unknown>,
    ): Promise<Page<Record<string, unknown>>> {
      const all = await store.list();
      const start =
        query.cursor === undefined
          ? 0
          : Math.max(0, all.findIndex((e) => e.id === query.cursor) + 1);
      if (query.cursor !== undefined && start === 0)
        throw new BadRequest("cursor names no endpoint.", [
          {
            pointer: "#/cursor",
            parameter: "cursor",
            detail: "unknown cursor",
          },
        ]);
      const page = all.slice(start, start + query.limit);
      const next =
        start + query.limit < all.length ? page[page.length - 1]!.id : null;
      return { data: page.map((e) => shown(e)), next_cursor: next };
    },
    async get(id: string) {
      const e = await load(id);
      return e instanceof NotFound ? e : shown(e);
    },
    async create(
      body: { url: string; events: string[]; description?: string },
      ctx: HandlerContext,
    ) {
      const bad = await check(body, ctx.version);
      if (bad) return bad;
      const secret = createSecret();
      const record: EndpointRecord = {
        id: randomUUID(),
        url: body.url,
        events: [...new Set(body.events)],
        ...(body.description !== undefined
          ? { description: body.description }
          : {}),
        status: "enabled",
        disabledReason: null,
        version: ctx.version,
        createdAt: new Date(parts.now()).toISOString(),
        secrets: [{ secret, expiresAt: null }],
        failedMessages: 0,
      };
      await store.put(record);
      return shown(record, secret);
    },
    async update(
      id: string,
      patch: { url?: string; events?: string[]; description?: string },
    ) {
      const e = await load(id);
      if (e instanceof NotFound) return e;
      // The version an endpoint is pinned to never changes: checked against it before the atomic update.
      const bad = await check(patch, e.version);
      if (bad) return bad;
      return answer(
        await store.update(id, (current) => ({
          ...current,
          ...(patch.url !== undefined ? { url: patch.url } : {}),
          ...(patch.events !== undefined
            ? { events: [...new Set(patch.events)] }
            : {}),
          ...(patch.description !== undefined
            ? { description: patch.description }
            : {}),
        })),
      );
    },
    async delete(id: string) {
      return (await store.delete(id)) ? undefined : new NotFound();
    },
    async disable(resource: { id: string }, input: { reason?: string }) {
      return answer(
        await store.update(resource.id, (current) => ({
          ...current,
          status: "disabled",
          disabledReason: input.reason ?? "disabled through the API",
        })),
      );
    },
    async enable(resource: { id: string }) {
      return answer(
        await store.update(resource.id, (current) => ({
          ...current,
          status: "enabled",
          disabledReason: null,
          failedMessages: 0,
        })),
      );
    },
    async rotateSecret(
      resource: { id: string },
      input: { graceSeconds?: number },
    ) {
      const grace = (input.graceSeconds ?? DEFAULT_GRACE_SECONDS) * 1000;
      // The secret of the round that was written (a round lost to another writer makes a new one).
      let secret = "";
      const next = await store.update(resource.id, (current) => {
        const now = parts.now();
        secret = createSecret();
        const kept = current.secrets
          .map((s) =>
            s.expiresAt === null ? { ...s, expiresAt: now + grace } : s,
          )
          .filter((s) => s.expiresAt === null || s.expiresAt > now);
        return { ...current, secrets: [{ secret, expiresAt: null }, ...kept] };
      });
      return next === null ? new NotFound() : shown(next, secret);
    },
  };
}
