/**
 * @module The collection restgen adds to an API that declares events: `webhook_endpoints`, where clients
 * subscribe URLs to event types. It is written here as plain DSL data (what `collection({...})` would
 * produce) so that it is built, checked, projected and emitted like any collection: zod schemas, routes,
 * client methods, OpenAPI paths, lock and diff. Its handlers are built into the server runtime.
 */
import type { CollectionDef, FieldDef, FieldKind } from '../dsl/defs.ts';
import { EVENT_TYPE } from './build-events.ts';
import type { ApiAt, CollectionAt, FieldAt, TransitionAt, TypeIR } from './ir.ts';
// The limits the runtime's built-in handlers enforce: the schemas declare the same numbers.
import { DEFAULT_GRACE_SECONDS, ENDPOINT_LIMITS, MAX_ACTIVE_SECRETS, MAX_GRACE_SECONDS } from '@restgen/runtime/contract';

/** The key and path segment of the webhook endpoints collection. */
export const WEBHOOK_ENDPOINTS = 'webhook_endpoints';

/**
 * The answers of the webhook endpoints that show the signing secret, which no other answer shows: create, and the
 * rotateSecret transition. Their type is the resource with `secret` required ({@link withSecretName}).
 */
export const SECRET_ANSWERS = { field: 'secret', operation: 'create', transition: 'rotateSecret' } as const;

/** The type of an answer that shows the signing secret (`WebhookEndpointWithSecret`); null for any other collection. */
export function withSecretName(c: Pick<CollectionAt, 'builtin' | 'typeName'>): string | null {
  return c.builtin === 'webhook-endpoints' ? `${c.typeName}WithSecret` : null;
}

/** The doc of the type {@link withSecretName} names. */
export const WITH_SECRET_DOC = 'The endpoint with its signing secret: what create and rotateSecret answer (no other answer shows the secret).';

/** The scopes that guard the endpoints when the API has auth and `webhooks.scopes` says nothing. */
export const DEFAULT_WEBHOOK_SCOPES = { read: 'webhooks:read', write: 'webhooks:write' } as const;

const field = (kind: FieldKind, more: Partial<FieldDef> = {}): { readonly def: FieldDef } => ({ def: { kind, markers: [], calls: {}, ...more } });

/** The example of an endpoint's `url`: a subscriber's address, which is nobody's API in particular. */
export const ENDPOINT_URL_EXAMPLE = 'https://receiver.example.com/webhooks';

/**
 * The `webhook_endpoints` collection as DSL data. `example` is an event type of the API (the example of
 * the `events` field), `version` the API's first version (the example of `version`); `scopes` are the API's
 * `webhooks.scopes`, or undefined without auth.
 */
export function webhookEndpointsDef(example: string, version: string, scopes: CollectionDef['options']['scopes']): CollectionDef {
  return {
    kind: 'collection',
    markers: [],
    calls: {},
    options: {
      description:
        "Webhook endpoints: URLs that receive events, signed per Standard Webhooks. An endpoint is pinned to the version it was created through and receives payloads in that version's shape.",
      fields: {
        id: field('id', { readOnly: true }),
        // A string, not f.url(): the server parses it and answers which rule a refused URL breaks.
        url: field('string', {
          example: { value: ENDPOINT_URL_EXAMPLE },
          description: 'Where events are POSTed: https and a public address (unless the server allows private URLs).',
        }),
        events: field('array', {
          of: field('string', { pattern: EVENT_TYPE.source }).def,
          example: { value: [example] },
          description: 'The event types delivered to the endpoint (each must exist in the version the endpoint is pinned to).',
        }),
        description: field('string', { optional: true }),
        status: field('enum', { values: ['enabled', 'disabled'], readOnly: true, description: 'disabled: nothing is delivered; see disabledReason.' }),
        disabledReason: field('string', {
          nullable: true,
          readOnly: true,
          description: 'Why the endpoint was disabled (by a caller, or after failed deliveries); null when enabled.',
        }),
        version: field('string', {
          readOnly: true,
          example: { value: version },
          description: 'The API version the endpoint was created through: payloads have its shape.',
        }),
        secret: field('string', {
          readOnly: true,
          optional: true,
          example: { value: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
          description: 'The signing secret (whsec_ + base64); answered only by create and rotateSecret.',
        }),
        createdAt: field('datetime', { readOnly: true }),
      },
      operations: ['list', 'get', 'create', 'update', 'delete'],
      ...(scopes ? { scopes } : {}),
      lifecycle: {
        field: 'status',
        initial: 'enabled',
        transitions: {
          disable: {
            from: ['enabled'],
            to: 'disabled',
            input: { reason: field('string', { optional: true }) },
            description: 'Stops deliveries to the endpoint; events meanwhile are not delivered later.',
          },
          enable: { from: ['disabled'], to: 'enabled', description: 'Resumes deliveries and forgets past failures.' },
          rotateSecret: {
            from: ['enabled'],
            to: 'enabled',
            input: {
              graceSeconds: field('int', {
                optional: true,
                description: `How long the old secret keeps signing too (default ${DEFAULT_GRACE_SECONDS}, at most ${MAX_GRACE_SECONDS}: ${MAX_GRACE_SECONDS / 86_400} days). An endpoint holds at most ${MAX_ACTIVE_SECRETS} secrets: a rotation beyond that ends the oldest grace period at once.`,
              }),
            },
            description: 'Answers a new signing secret; deliveries carry signatures with both secrets until the grace period ends.',
          },
        },
      },
    },
  };
}

/** Request-side types of the endpoint fields and transition inputs, by name (the version's event types given). */
function requestTypes(types: readonly string[], events: TypeIR<FieldAt>): Readonly<Record<string, TypeIR<FieldAt>>> {
  return {
    url: { kind: 'string', min: 1, max: ENDPOINT_LIMITS.url },
    description: { kind: 'string', max: ENDPOINT_LIMITS.description },
    events: { kind: 'array', of: types.length > 0 ? { kind: 'enum', values: [...types] } : events, min: 1, max: ENDPOINT_LIMITS.events },
    reason: { kind: 'string', max: ENDPOINT_LIMITS.reason },
    graceSeconds: { kind: 'int', min: 0, max: MAX_GRACE_SECONDS },
  };
}

/**
 * The webhook endpoints collection as requests to version `at` see it (any other collection as it is): the
 * text fields bounded, `events` items the version's event types (an enum; the server accepts exactly
 * these), `graceSeconds` from 0 to 7 days. Emitted into the zod request schemas and the document of every
 * version, never into the IR: the lock and the diff judge the collection as it was first released, and the
 * built-in handlers enforce the same bounds in every version anyway. Responses keep the unbounded types:
 * an endpoint pinned to another version shows that version's event types.
 */
export function endpointRequestView(at: ApiAt, c: CollectionAt): CollectionAt {
  if (c.builtin !== 'webhook-endpoints') return c;
  const types = (at.events ?? []).map((e) => e.type);
  const events = c.fields.find((f) => f.name === 'events')?.type;
  const bounded = requestTypes(types, events?.kind === 'array' ? events.of : { kind: 'string' });
  const bound = (f: FieldAt): FieldAt => {
    const type = bounded[f.name];
    if (type === undefined) return f;
    return { ...f, type, ...(f.name === 'events' && types.length > 0 ? { example: { value: [types[0]] } } : {}) };
  };
  const transitions = (c.lifecycle?.transitions ?? []).map((t): TransitionAt => ({ ...t, input: t.input.map(bound) }));
  return { ...c, fields: c.fields.map(bound), ...(c.lifecycle ? { lifecycle: { ...c.lifecycle, transitions } } : {}) };
}
