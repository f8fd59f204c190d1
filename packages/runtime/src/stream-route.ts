/**
 * `GET /vN/events` (with header versioning, `GET /events` and the version header): the event stream of a
 * version. The gate checks the credential and the API's rate limit like any route's; then the query is read
 * (`types`: a comma-separated filter of the version's event types; `after`: the id to resume after, which a
 * `Last-Event-ID` header overrides), what the caller may read is settled (403 for a type it asked for and may
 * not read), the caller's open streams are counted (429 past the limit), and a resumed position is checked
 * against the log's retention (410 `stream_expired`) before the stream opens.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCredential } from './auth.js';
import { limitKeyOf } from './client-address.js';
import { createGate } from './gate.js';
import type { Placed } from './paths.js';
import { problem, send, type ProblemIssue } from './problems.js';
import type { MountedVersion, WebhooksSpec } from './spec.js';
import { accessOf, mayRead, type TypeAccess } from './stream-access.js';
import { openConnection, type ConnectionLimits, type StreamConnection } from './stream-connection.js';
import type { LogPage } from './event-log.js';
import type { FrameOf } from './stream-frames.js';
import type { StreamHub } from './stream-hub.js';
import { principalOf, type Handle, type Mount } from './state.js';
import type { Principal } from './types.js';

/** Everything the stream routes of one mounted API share. */
export interface StreamRuntime {
  readonly hub: StreamHub;
  readonly frames: FrameOf;
  readonly limits: ConnectionLimits;
  /** The most streams one principal (or, anonymous, one client address) holds open on this instance. */
  readonly perPrincipal: number;
  /** Every open connection: closed when the server stops. */
  readonly open: Set<StreamConnection>;
  readonly log: { warn(obj: object, msg: string): void };
}

/** The URL of the stream, relative to a version. */
export const STREAM_URL = '/events';

/** The largest position a client may name: what a JavaScript number holds exactly. */
const MAX_POSITION = Number.MAX_SAFE_INTEGER;

/** A position as sent (`Last-Event-ID` or `?after=`): digits only, or null when it is none. */
const positionOf = (text: string): number | null => (/^\d{1,16}$/.test(text) && Number(text) <= MAX_POSITION ? Number(text) : null);

/** A retention as words: `24 hours`, `90 minutes`, `30 seconds`. */
function durationOf(ms: number): string {
  const [n, unit] = ms % 3_600_000 === 0 ? [ms / 3_600_000, 'hour'] : ms % 60_000 === 0 ? [ms / 60_000, 'minute'] : [Math.round(ms / 1000), 'second'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** The stream route of every version that streams events. */
export function placeStreamRoutes(m: Mount, webhooks: WebhooksSpec, runtime: StreamRuntime): Placed[] {
  const counts = new Map<string, number>();
  const takesCredentials = m.spec.bearer || m.apiKeyHeader !== null;
  const placed: Placed[] = [];
  for (const version of m.spec.versions) {
    const access = accessOf(webhooks, version, takesCredentials);
    if (access.length === 0) continue;
    placed.push({
      version: version.name,
      url: STREAM_URL,
      method: 'GET',
      entry: {
        gate: createGate(m, version, {
          isPublic: access.some((a) => a.isPublic),
          scopes: [],
          limiters: m.apiLimiter === null ? [] : [m.apiLimiter],
          requireIfMatch: false,
          collection: 'events',
          operation: 'stream',
        }),
        handle: createStreamHandle(m, version, access, runtime, counts),
      },
    });
  }
  return placed;
}

/** Answers 400 `validation_failed` with the issues of the query. */
const invalidQuery = (reply: FastifyReply, errors: readonly ProblemIssue[]): FastifyReply =>
  send(reply, problem(400, 'validation_failed', `The query string is invalid (${errors.length} issue${errors.length === 1 ? '' : 's'}).`, { errors }));

/** What a stream request asks for: the types (null: every one) and the position (null: from now). */
interface Asked {
  readonly types: readonly string[] | null;
  readonly position: number | null;
}

/** Reads the query and `Last-Event-ID`: what is asked, or the issues (400). */
function readAsk(request: FastifyRequest, access: readonly TypeAccess[]): Asked | { readonly issues: ProblemIssue[]; readonly header?: string } {
  const issues: ProblemIssue[] = [];
  const query = (request.query ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(query))
    if (key !== 'types' && key !== 'after')
      issues.push({
        pointer: `#/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        parameter: key,
        detail: 'unknown parameter: the stream takes types and after',
      });
  let types: string[] | null = null;
  const rawTypes = query['types'];
  if (rawTypes !== undefined) {
    const names = [rawTypes]
      .flat()
      .flatMap((t) => String(t).split(','))
      .map((t) => t.trim());
    const known = new Set(access.map((a) => a.type));
    const unknown = names.filter((t) => !known.has(t));
    if (names.length === 0 || unknown.length > 0)
      issues.push({
        pointer: '#/types',
        parameter: 'types',
        detail: `${unknown.length > 0 ? `not an event type of this version: ${unknown.map((t) => JSON.stringify(t.slice(0, 100))).join(', ')}` : 'names no event type'}; the types are ${[...known].join(', ')}`,
      });
    types = [...new Set(names)];
  }
  const rawAfter = query['after'];
  let position: number | null = null;
  if (rawAfter !== undefined) {
    position = typeof rawAfter === 'string' ? positionOf(rawAfter) : null;
    if (position === null)
      issues.push({ pointer: '#/after', parameter: 'after', detail: 'must be an id the stream sent (a whole number of at most 16 digits)' });
  }
  if (issues.length > 0) return { issues };
  const header = request.headers['last-event-id'];
  if (typeof header === 'string' && header.trim() !== '') {
    const resumed = positionOf(header.trim());
    if (resumed === null) return { issues: [], header: header.slice(0, 100) };
    position = resumed;
  }
  return { types, position };
}

/** The handle of one version's stream route. */
function createStreamHandle(m: Mount, version: MountedVersion, access: readonly TypeAccess[], runtime: StreamRuntime, counts: Map<string, number>): Handle {
  return async (request, reply) => {
    const asked = readAsk(request, access);
    if ('issues' in asked) {
      if (asked.header !== undefined)
        return send(
          reply,
          problem(
            400,
            'invalid_last_event_id',
            `Last-Event-ID ${JSON.stringify(asked.header)} is not an id this stream sent; reconnect without it, or with the last id received.`,
          ),
        );
      return invalidQuery(reply, asked.issues);
    }
    const principal = principalOf(request);
    const refused = refusal(m, request, reply, access, asked.types, principal);
    if (refused !== null) return refused;
    const readable = new Set(access.filter((a) => mayRead(a, principal) && (asked.types === null || asked.types.includes(a.type))).map((a) => a.type));
    if (request.method === 'HEAD') return reply.code(200).header('content-type', 'text/event-stream').header('cache-control', 'no-cache').send();
    const who = principal === null ? `address ${limitKeyOf(request.ip)}` : `principal ${principal.id}`;
    const held = counts.get(who) ?? 0;
    if (held >= runtime.perPrincipal) {
      reply.header('retry-after', Math.max(1, Math.ceil(runtime.limits.heartbeat / 1000)));
      return send(
        reply,
        problem(429, 'too_many_streams', `This caller holds ${held} open event streams, the most this server allows; close one before opening another.`),
      );
    }
    const log = runtime.hub.log;
    let first: LogPage | null;
    let head: number;
    try {
      first = asked.position === null ? null : await log.read(asked.position, runtime.limits.batch);
      head = first?.head ?? (await log.read(0, 0)).head;
    } catch (error) {
      // The log's store is away (Redis, PostgreSQL): the client retries after a moment, as for the webhook stores.
      request.log.error({ err: error }, 'the event stream could not read the event log');
      reply.header('retry-after', 1);
      return send(reply, problem(503, 'unavailable', 'The server cannot reach its event log for a moment; retry later.'));
    }
    if (first?.expired)
      return send(
        reply,
        problem(
          410,
          'stream_expired',
          `Events after id ${asked.position} are no longer kept (the log keeps them ${durationOf(log.retention.ms)}, and at most the newest ${log.retention.events}), or the id was never sent; read the current state, then open the stream without Last-Event-ID.`,
        ),
      );
    const position = asked.position ?? head;
    counts.set(who, held + 1);
    let released = false;
    const connection = openConnection(
      reply,
      {
        hub: runtime.hub,
        frames: runtime.frames,
        version: version.name,
        wants: (type) => readable.has(type),
        limits: runtime.limits,
        log: runtime.log,
        done: () => {
          if (released) return;
          released = true;
          const left = (counts.get(who) ?? 1) - 1;
          if (left > 0) counts.set(who, left);
          else counts.delete(who);
          runtime.open.delete(connection);
        },
      },
      position,
      first,
    );
    runtime.open.add(connection);
    return reply;
  };
}

/**
 * 401 or 403 when the caller may read none of what it asked for: every type it named in `types` must be
 * readable; without `types`, at least one type of the version.
 */
function refusal(
  m: Mount,
  request: FastifyRequest,
  reply: FastifyReply,
  access: readonly TypeAccess[],
  types: readonly string[] | null,
  principal: Principal | null,
): FastifyReply | null {
  const asked = types === null ? access : access.filter((a) => types.includes(a.type));
  const denied = asked.filter((a) => !mayRead(a, principal));
  if (types === null ? denied.length < asked.length : denied.length === 0) return null;
  if (principal === null) {
    reply.header('www-authenticate', m.challenge(null));
    return send(reply, problem(401, 'unauthenticated', 'Reading these events needs a credential.'));
  }
  const lacking = [...new Set(denied.flatMap((a) => a.scopes.filter((s) => !principal.scopes.includes(s))))];
  const scheme = readCredential(request, m.spec, m.apiKeyHeader)?.scheme ?? null;
  reply.header('www-authenticate', m.challenge(scheme, `error="insufficient_scope", scope="${lacking.join(' ')}"`));
  const named = types === null ? 'any event of this stream' : denied.map((a) => a.type).join(', ');
  return send(reply, problem(403, 'insufficient_scope', `Reading ${named} needs the scope ${lacking.join(' and ')}.`, { scopes: lacking }));
}
