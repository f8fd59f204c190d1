/**
 * @module The `GET /vN/events` path of a version that has events: a `text/event-stream` of the version's event
 * types. OpenAPI 3.1 has no item schema for a stream (`itemSchema` is 3.2), so the media type's schema is the union
 * of the events one item carries (`id`, `event`, and `data`: the same body a webhook delivery of that type has),
 * with a description of the framing; Spectral and Redocly accept it. Who may read which type follows the runtime's
 * rule (`stream-access.ts` of @restgen/runtime): a collection's events as its `list`, a custom event with the scopes
 * that manage webhook endpoints.
 */
import { takesCredentials } from '../../model/ir-auth.ts';
import type { ApiAt, EventAt } from '../../model/ir.ts';
import type { FormatNames } from './field-schema.ts';
import { compact, ref, type Json, type JsonObject } from './json.ts';
import { lifecycleHeaders, retiredKinds, securityWith, sortKinds, variantOf, type OperationContext } from './operations.ts';
import { ERRORS, RATE_LIMIT_HEADERS, errorResponseName, type ErrorKind } from './shared-components.ts';
import { eventBodyOf } from './webhooks.ts';
import { answersXml, withXmlMedia } from './xml.ts';

/** The path of the stream, relative to a version's prefix. */
export const EVENTS_PATH = '/events';

/** What reading one event type takes: nothing (public), or every one of `scopes`. */
interface Access {
  readonly event: EventAt;
  readonly scopes: readonly string[] | null;
}

/** The read rule of each of the version's event types (a collection the version lacks streams nothing). */
function accessOf(api: ApiAt): Access[] {
  const open = !takesCredentials(api.auth);
  const manage = api.collections.find((c) => c.builtin === 'webhook-endpoints')?.scopes.write ?? [];
  const out: Access[] = [];
  for (const event of api.events ?? []) {
    if (open) out.push({ event, scopes: null });
    else if (event.source.kind === 'custom') out.push({ event, scopes: manage });
    else {
      const key = event.source.collection;
      const c = api.collections.find((x) => x.key === key);
      if (c !== undefined) out.push({ event, scopes: c.public.includes('list') ? null : c.scopes.read });
    }
  }
  return out;
}

/** One item of the stream as a schema: its id, its type, and the event's body. */
function itemSchema(api: ApiAt, e: EventAt, formats: FormatNames): JsonObject {
  return {
    type: 'object',
    title: e.type,
    required: ['id', 'event', 'data'],
    properties: {
      id: {
        type: 'string',
        pattern: '^[0-9]+$',
        examples: ['42'],
        description: 'The position in the event log: resume after it with `Last-Event-ID` or `?after=`.',
      },
      event: { const: e.type },
      data: { ...eventBodyOf(api, e, formats), description: 'One `data:` line: this JSON object.' },
    },
  };
}

/** Who reads what, in words. */
function accessSentence(access: readonly Access[]): string {
  const open = access.filter((a) => a.scopes === null).map((a) => `\`${a.event.type}\``);
  const closed = access.filter((a) => a.scopes !== null && a.scopes.length > 0).map((a) => `\`${a.event.type}\` needs ${a.scopes!.join(' and ')}`);
  const parts = [open.length > 0 ? `readable without a credential: ${open.join(', ')}` : '', closed.length > 0 ? closed.join('; ') : ''].filter(Boolean);
  return parts.length > 0 ? ` Who reads what: ${parts.join('; ')}.` : '';
}

/** The RateLimit-* headers of an answer the API's rate limit counted. */
const rateLimitHeaders = (): Record<string, Json> =>
  Object.fromEntries(RATE_LIMIT_HEADERS.filter(([wire]) => wire !== 'Retry-After').map(([wire, component]) => [wire, ref('headers', component)]));

/** The error responses of the stream, recorded in `ctx` (by reference), and its own 410 and 429. */
function errors(ctx: OperationContext, access: readonly Access[], problem: string): Record<string, Json> {
  const { api } = ctx;
  const limited = api.rateLimit !== undefined;
  const variant = { ...variantOf(api), limited };
  const kinds: ErrorKind[] = ['BadRequest', 'InternalServerError', 'ServiceUnavailable'];
  if (takesCredentials(api.auth)) kinds.push('Unauthorized');
  if (access.some((a) => a.scopes !== null && a.scopes.length > 0)) kinds.push('Forbidden');
  const out: Record<string, Json> = {};
  for (const kind of sortKinds(kinds)) {
    const name = errorResponseName(kind, variant);
    ctx.usedErrors.set(name, { kind, limited });
    out[String(ERRORS[kind].status)] = ref('responses', name);
  }
  const json = { 'application/problem+json': { schema: ref('schemas', problem) } };
  // An API that answers XML answers these problems in XML too, as every other route.
  const content = answersXml(api) ? withXmlMedia(json) : json;
  const lifecycle = lifecycleHeaders(api);
  const retired = retiredKinds(api).length > 0 ? ' Also once the version is past its sunset (or inside a brownout window).' : '';
  out['410'] = {
    description: `\`stream_expired\`: the position to resume after (\`Last-Event-ID\` or \`?after=\`) is older than the event log keeps, or was never sent. Read the current state, then open the stream without it.${retired}`,
    ...(Object.keys(lifecycle).length > 0 ? { headers: lifecycle } : {}),
    content,
  };
  out['429'] = {
    description: `\`too_many_streams\`: this caller (or, without a credential, this client address) holds the most open streams the server allows${limited ? ', or the rate limit is exceeded' : ''}; retry after \`Retry-After\` seconds.`,
    headers: { 'Retry-After': ref('headers', 'RetryAfter'), ...(limited ? rateLimitHeaders() : {}), ...lifecycle },
    content,
  };
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(a) - Number(b)));
}

/** The security of the stream: optional when some type is public, else a credential (the scopes per type are in the description). */
function securityOf(api: ApiAt, access: readonly Access[]): Json {
  if (!takesCredentials(api.auth)) return [];
  const withCredential = securityWith(api, []) as JsonObject[];
  return access.some((a) => a.scopes === null) ? [{}, ...withCredential] : withCredential;
}

/**
 * The path item of the version's event stream, or undefined when the version has no event a caller could read.
 * `problem` is the name of the problem schema component.
 */
export function buildEventStreamPath(ctx: OperationContext, problem: string): JsonObject | undefined {
  const { api, formats } = ctx;
  const access = accessOf(api);
  if (access.length === 0) return undefined;
  const types = access.map((a) => a.event.type);
  const lifecycle = lifecycleHeaders(api);
  const parameters: Json[] = [
    {
      name: 'types',
      in: 'query',
      description: 'Only these event types, comma-separated; a type the version does not have answers 400.',
      schema: {
        type: 'string',
        pattern: `^(${types.map((t) => t.replace(/\./g, '\\.')).join('|')})(,(${types.map((t) => t.replace(/\./g, '\\.')).join('|')}))*$`,
        examples: [types.slice(0, 2).join(',')],
      },
    },
    {
      name: 'after',
      in: 'query',
      description:
        'Resume after this id (the `id` of the last event received); `Last-Event-ID` overrides it. Without either, the stream starts at the newest event.',
      schema: { type: 'string', pattern: '^[0-9]{1,16}$', examples: ['41'] },
    },
    {
      name: 'Last-Event-ID',
      in: 'header',
      description: 'The id of the last event received: the stream resumes after it (what a reconnecting EventSource sends).',
      schema: { type: 'string', pattern: '^[0-9]{1,16}$', examples: ['41'] },
    },
    ...(api.versioning.in === 'header' ? [ref('parameters', 'ApiVersion')] : []),
  ];
  const framing =
    "Server-sent events (the HTML standard's `text/event-stream`). The stream opens with `retry:` (how long a client waits before it reconnects) and `id:` (where it starts); each event is one block of `id:` (its position in the event log), `event:` (its type) and one `data:` line, the JSON body a webhook delivery of that type carries, in this version's shape; comment lines (`:`) are heartbeats, sent at a fixed interval, some with an `id:` that moves past events of types this reader does not take. A reader slower than the server's per-stream buffer, and every stream at shutdown, is ended with a comment: reconnect with `Last-Event-ID` to resume without a loss.";
  return {
    get: compact({
      operationId: 'streamEvents',
      summary: 'Stream events',
      description: `The version's events as they happen (${types.map((t) => `\`${t}\``).join(', ')}), each in this version's shape.${accessSentence(access)}`,
      tags: ['events'],
      deprecated: api.version.deprecated ? true : undefined,
      parameters,
      responses: {
        '200': compact({
          description: 'The event stream (held open; the server sends heartbeats).',
          headers: {
            'Cache-Control': { description: '`no-cache`.', schema: { type: 'string' } },
            'X-Accel-Buffering': { description: '`no`: proxies pass events on at once.', schema: { type: 'string' } },
            ...(api.rateLimit !== undefined ? rateLimitHeaders() : {}),
            ...lifecycle,
          },
          content: {
            'text/event-stream': {
              // One event type: its item schema itself (a oneOf of one is flagged by linters).
              schema:
                access.length === 1
                  ? { ...itemSchema(api, access[0]!.event, formats), description: framing }
                  : { description: framing, oneOf: access.map((a) => itemSchema(api, a.event, formats)) },
            },
          },
        }),
        ...errors(ctx, access, problem),
      },
      security: securityOf(api, access),
    }),
  };
}
