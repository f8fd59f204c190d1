/**
 * @module The `webhooks` section of a version's document: one entry per event type the version delivers,
 * a POST the API makes to the subscriber's URL with the Standard Webhooks headers and the event as body
 * (`type`, `timestamp`, `data`: the collection's resource, or the custom event's payload).
 */
import type { ApiAt, EventAt } from '../../model/ir.ts';
import { capitalized, withArticle } from '../../model/names.ts';
import { formatRef, objectSchema, type FormatNames } from './field-schema.ts';
import { ref, type JsonObject } from './json.ts';

const HEADERS: readonly (readonly [string, string, JsonObject])[] = [
  [
    'webhook-id',
    'The message id (`msg_...`): the same on every retry of the message; use it to drop duplicates.',
    { type: 'string', pattern: '^msg_[0-9a-f]{32}$', examples: ['msg_2b7d9c0e4f1a4e6b8c3d5f7a9b1c2d3e'] },
  ],
  [
    'webhook-timestamp',
    'When this attempt was signed, in seconds since the epoch; refuse one far from now (default tolerance five minutes).',
    { type: 'string', pattern: '^[0-9]+$', examples: ['1767225600'] },
  ],
  [
    'webhook-signature',
    'Standard Webhooks signatures, space-separated: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` with each of the endpoint\'s secrets (up to three while rotated-out secrets are in their grace period).',
    { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$', examples: ['v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='] },
  ],
];

/** The body schema of one event: what a webhook delivery carries, and the `data` of an event stream's item. */
export function eventBodyOf(api: ApiAt, e: EventAt, formats: FormatNames): JsonObject {
  const data =
    e.source.kind === 'custom'
      ? objectSchema(e.source.payload, 'response', formats)
      : ref('schemas', api.collections.find((c) => c.key === (e.source as { collection: string }).collection)!.typeName);
  return {
    type: 'object',
    required: ['type', 'timestamp', 'data'],
    properties: { type: { const: e.type }, timestamp: formatRef('datetime', formats), data },
  };
}

/** What a derived event means, in a sentence. */
function meaning(api: ApiAt, e: EventAt): string {
  if (e.description !== undefined) return e.description;
  if (e.source.kind === 'custom') return `The custom event ${e.type}.`;
  const c = api.collections.find((x) => x.key === (e.source as { collection: string }).collection);
  const name = c?.typeName ?? 'resource';
  const s = e.source;
  const what = s.action === 'transition' ? `entered the ${s.state ?? ''} state` : s.action;
  return `${capitalized(withArticle(name))} ${what}; \`data\` is the resource as ${api.version.name} shows it${s.action === 'deleted' ? ', as it was before the delete' : ''}.`;
}

/** The `webhooks` section of `api`, or undefined when the version delivers no events. */
export function buildWebhooks(api: ApiAt, formats: FormatNames): Record<string, JsonObject> | undefined {
  const events = api.events ?? [];
  if (events.length === 0) return undefined;
  const out: Record<string, JsonObject> = {};
  for (const e of events)
    out[e.type] = {
      post: {
        operationId: `webhook_${e.type.replace(/\./g, '_')}`,
        summary: `Event ${e.type}`,
        description: `${meaning(api, e)} Sent to the webhook endpoints subscribed to ${e.type} that were created through ${api.version.name}. Answer 2xx within the timeout; a timeout, a connection error, 429 (Retry-After honoured) or 5xx is retried on a bounded schedule with the same webhook-id.`,
        tags: ['webhook_endpoints'],
        security: [],
        parameters: HEADERS.map(([name, description, schema]) => ({ name, in: 'header', required: true, description, schema })),
        requestBody: { required: true, content: { 'application/json': { schema: eventBodyOf(api, e, formats) } } },
        responses: {
          '200': { description: 'Received.' },
          '204': { description: 'Received.' },
        },
      },
    };
  return out;
}
