/**
 * The built-in handlers of the webhook endpoints collection: list, get, create (answers the signing
 * secret once), update, delete, and the transitions disable, enable and rotateSecret (a new secret; the
 * old one keeps signing too for a grace period). An endpoint is pinned to the version it was created
 * through. URLs are checked when saved (400 naming the rule), and again when each delivery connects
 * (`webhook-url.ts`). Text fields, event lists, secrets and grace periods are bounded (`webhook-limits.ts`):
 * beyond a bound the request answers 400 with the pointer. Every change to a stored endpoint is one atomic
 * `update` of the store.
 */
import { randomUUID } from 'node:crypto';
import { isRecord } from './guards.js';
import { BadRequest, BODY_RULES, NotFound, type BodyRules, type ProblemIssue } from './problems.js';
import type { HandlerContext, ListQuery, Page } from './types.js';
import { createSecret } from './webhook-sign.js';
import type { EndpointRecord, EndpointStore } from './webhook-store.js';
import { DEFAULT_GRACE_SECONDS, ENDPOINT_LIMITS, MAX_ACTIVE_SECRETS, MAX_GRACE_SECONDS } from './webhook-limits.js';
import { urlProblem, type Resolver } from './webhook-url.js';

export { DEFAULT_GRACE_SECONDS };

/** The issues of text longer than its limit: `[field, value, limit]` for each field sent. */
function tooLong(fields: readonly (readonly [string, unknown, number])[]): ProblemIssue[] {
  return fields.flatMap(([name, value, max]) =>
    typeof value === 'string' && value.length > max
      ? [
          {
            pointer: `#/${name}`,
            detail: `at most ${max} characters (got ${value.length})`,
          },
        ]
      : [],
  );
}

/** A value sent, as an answer quotes it: a string in quotes, anything else as JSON; at most 100 characters. */
function quoted(value: unknown): string {
  const text = typeof value === 'string' ? `'${value}'` : String(JSON.stringify(value));
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

/** A 400 listing `issues`, or null when there are none. */
function refused(issues: readonly ProblemIssue[]): BadRequest | null {
  if (issues.length === 0) return null;
  const detail = issues.map((i) => `${i.pointer.slice(2)}: ${i.detail}`);
  return new BadRequest(`${detail.join('; ')}.`, issues);
}

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
const answer = (e: EndpointRecord | null) => (e === null ? new NotFound() : shown(e));

/** The handlers of the webhook endpoints collection, by operation and transition name. */
export function createEndpointHandlers(parts: EndpointHandlerParts) {
  const { store } = parts;
  /** Every problem of an endpoint's fields at once, as sentences and as issues. */
  const problemsOf = async (
    body: { url?: unknown; events?: unknown; description?: unknown },
    version: string,
  ): Promise<{ sentences: string[]; errors: ProblemIssue[] }> => {
    // Every problem at once: a client that fixes the URL should not learn of a wrong event type only on its next try.
    const errors: ProblemIssue[] = tooLong([
      ['url', body.url, ENDPOINT_LIMITS.url],
      ['description', body.description, ENDPOINT_LIMITS.description],
    ]);
    if (typeof body.url === 'string' && body.url.length === 0) errors.push({ pointer: '#/url', detail: 'must not be empty' });
    if (Array.isArray(body.events) && body.events.length === 0) errors.push({ pointer: '#/events', detail: 'at least 1 event type' });
    if (Array.isArray(body.events) && body.events.length > ENDPOINT_LIMITS.events)
      errors.push({
        pointer: '#/events',
        detail: `at most ${ENDPOINT_LIMITS.events} event types (got ${body.events.length})`,
      });
    const sentences = errors.map((i) => `${i.pointer.slice(2)}: ${i.detail}.`);
    if (typeof body.url === 'string' && !errors.some((i) => i.pointer === '#/url')) {
      const rule = await urlProblem(body.url, parts.allowPrivateUrls, parts.resolve);
      if (rule !== null) {
        sentences.push(`url is refused: ${rule}.`);
        errors.push({ pointer: '#/url', detail: rule });
      }
    }
    // Each unknown event type by name, at its own pointer (a list longer than the limit is refused as such above).
    if (Array.isArray(body.events) && body.events.length <= ENDPOINT_LIMITS.events) {
      const known = parts.versions[version] ?? [];
      const unknown = body.events.flatMap((t: unknown, i) => (typeof t === 'string' && known.includes(t) ? [] : [{ i, shown: quoted(t) }]));
      if (unknown.length > 0)
        sentences.push(
          `events: ${unknown.map((u) => u.shown).join(', ')} ${unknown.length === 1 ? 'is not an event type' : 'are not event types'} of ${version}; it has ${known.join(', ')}.`,
        );
      for (const u of unknown)
        errors.push({
          pointer: `#/events/${u.i}`,
          detail: `${u.shown} is not an event type of ${version}; it has ${known.join(', ')}`,
        });
    }
    return { sentences, errors };
  };
  const check = async (body: { url?: unknown; events?: unknown; description?: unknown }, version: string): Promise<BadRequest | null> => {
    const { sentences, errors } = await problemsOf(body, version);
    return errors.length > 0 ? new BadRequest(sentences.join(' '), errors) : null;
  };
  // A body its schema refuses is judged by these rules too: the address policy no schema can state.
  const rules: BodyRules = async (body, version) => (isRecord(body) ? (await problemsOf(body, version)).errors : []);
  const load = async (id: string): Promise<EndpointRecord | NotFound> => (await store.get(id)) ?? new NotFound();
  return {
    [BODY_RULES]: rules,
    async list(query: ListQuery & Record<string, unknown>): Promise<Page<Record<string, unknown>>> {
      const all = await store.list();
      const start = query.cursor === undefined ? 0 : Math.max(0, all.findIndex((e) => e.id === query.cursor) + 1);
      if (query.cursor !== undefined && start === 0)
        throw new BadRequest('cursor names no endpoint.', [
          {
            pointer: '#/cursor',
            parameter: 'cursor',
            detail: 'unknown cursor',
          },
        ]);
      const page = all.slice(start, start + query.limit);
      const next = start + query.limit < all.length ? page[page.length - 1]!.id : null;
      return { data: page.map((e) => shown(e)), next_cursor: next };
    },
    async get(id: string) {
      const e = await load(id);
      return e instanceof NotFound ? e : shown(e);
    },
    async create(body: { url: string; events: string[]; description?: string }, ctx: HandlerContext) {
      const bad = await check(body, ctx.version);
      if (bad) return bad;
      const secret = createSecret();
      const record: EndpointRecord = {
        id: randomUUID(),
        url: body.url,
        events: [...new Set(body.events)],
        ...(body.description !== undefined ? { description: body.description } : {}),
        status: 'enabled',
        disabledReason: null,
        version: ctx.version,
        createdAt: new Date(parts.now()).toISOString(),
        secrets: [{ secret, expiresAt: null }],
        failedMessages: 0,
      };
      await store.put(record);
      return shown(record, secret);
    },
    async update(id: string, patch: { url?: string; events?: string[]; description?: string }) {
      const e = await load(id);
      if (e instanceof NotFound) return e;
      // The version an endpoint is pinned to never changes: checked against it before the atomic update.
      const bad = await check(patch, e.version);
      if (bad) return bad;
      return answer(
        await store.update(id, (current) => ({
          ...current,
          ...(patch.url !== undefined ? { url: patch.url } : {}),
          ...(patch.events !== undefined ? { events: [...new Set(patch.events)] } : {}),
          ...(patch.description !== undefined ? { description: patch.description } : {}),
        })),
      );
    },
    async delete(id: string) {
      return (await store.delete(id)) ? undefined : new NotFound();
    },
    async disable(resource: { id: string }, input: { reason?: string }) {
      const bad = refused(tooLong([['reason', input.reason, ENDPOINT_LIMITS.reason]]));
      if (bad !== null) return bad;
      return answer(
        await store.update(resource.id, (current) => ({
          ...current,
          status: 'disabled',
          disabledReason: input.reason ?? 'disabled through the API',
        })),
      );
    },
    async enable(resource: { id: string }) {
      return answer(
        await store.update(resource.id, (current) => ({
          ...current,
          status: 'enabled',
          disabledReason: null,
          failedMessages: 0,
        })),
      );
    },
    async rotateSecret(resource: { id: string }, input: { graceSeconds?: number }) {
      const seconds = input.graceSeconds ?? DEFAULT_GRACE_SECONDS;
      if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds > MAX_GRACE_SECONDS)
        return new BadRequest(`graceSeconds must be a whole number of seconds from 0 to ${MAX_GRACE_SECONDS} (7 days).`, [
          {
            pointer: '#/graceSeconds',
            detail: `an integer from 0 to ${MAX_GRACE_SECONDS}`,
          },
        ]);
      const grace = seconds * 1000;
      // The secret of the round that was written (a round lost to another writer makes a new one).
      let secret = '';
      const next = await store.update(resource.id, (current) => {
        const now = parts.now();
        secret = createSecret();
        // The secrets still signing, newest first; beyond the limit the oldest grace periods end now.
        const kept = current.secrets
          .map((s) => ({
            secret: s.secret,
            expiresAt: s.expiresAt ?? now + grace,
          }))
          .filter((s) => s.expiresAt > now)
          .sort((a, b) => b.expiresAt - a.expiresAt)
          .slice(0, MAX_ACTIVE_SECRETS - 1);
        return { ...current, secrets: [{ secret, expiresAt: null }, ...kept] };
      });
      return next === null ? new NotFound() : shown(next, secret);
    },
  };
}
