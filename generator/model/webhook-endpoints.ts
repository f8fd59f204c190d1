/**
 * @module The collection restgen adds to an API that declares events: `webhook_endpoints`, where clients
 * subscribe URLs to event types. It is written here as plain DSL data (what `collection({...})` would
 * produce) so that it is built, checked, projected and emitted like any collection: zod schemas, routes,
 * client methods, OpenAPI paths, lock and diff. Its handlers are built into the server runtime.
 */
import type { CollectionDef, FieldDef, FieldKind } from '../dsl/defs.ts';
import { EVENT_TYPE } from './build-events.ts';

/** The key and path segment of the webhook endpoints collection. */
export const WEBHOOK_ENDPOINTS = 'webhook_endpoints';

/** The scopes that guard the endpoints when the API has auth and `webhooks.scopes` says nothing. */
export const DEFAULT_WEBHOOK_SCOPES = { read: 'webhooks:read', write: 'webhooks:write' } as const;

/** Longest grace period of a rotated secret, in seconds (7 days). */
export const MAX_GRACE_SECONDS = 604_800;

const field = (kind: FieldKind, more: Partial<FieldDef> = {}): { readonly def: FieldDef } => ({ def: { kind, markers: [], calls: {}, ...more } });

/**
 * The `webhook_endpoints` collection as DSL data. `example` is an event type of the API (the example of
 * the `events` field); `scopes` are the API's `webhooks.scopes`, or undefined without auth.
 */
export function webhookEndpointsDef(example: string, scopes: CollectionDef['options']['scopes']): CollectionDef {
  return {
    kind: 'collection',
    markers: [],
    calls: {},
    options: {
      description:
        'Webhook endpoints: URLs that receive events, signed per Standard Webhooks. An endpoint is pinned to the version it was created through and receives payloads in that version\'s shape.',
      fields: {
        id: field('id', { readOnly: true }),
        // A string, not f.url(): the server parses it and answers which rule a refused URL breaks.
        url: field('string', { min: 1, max: 2048, example: { value: 'https://hooks.example.com/shop' }, description: 'Where events are POSTed: https and a public address (unless the server allows private URLs).' }),
        events: field('array', {
          of: field('string', { pattern: EVENT_TYPE.source }).def,
          min: 1,
          max: 100,
          example: { value: [example] },
          description: 'The event types delivered to the endpoint (each must exist in the version the endpoint is pinned to).',
        }),
        description: field('string', { max: 500, optional: true }),
        status: field('enum', { values: ['enabled', 'disabled'], readOnly: true, description: 'disabled: nothing is delivered; see disabledReason.' }),
        disabledReason: field('string', { nullable: true, readOnly: true, description: 'Why the endpoint was disabled (by a caller, or after failed deliveries); null when enabled.' }),
        version: field('string', { readOnly: true, example: { value: 'v1' }, description: 'The API version the endpoint was created through: payloads have its shape.' }),
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
            input: { reason: field('string', { max: 500, optional: true }) },
            description: 'Stops deliveries to the endpoint; events meanwhile are not delivered later.',
          },
          enable: { from: ['disabled'], to: 'enabled', description: 'Resumes deliveries and forgets past failures.' },
          rotateSecret: {
            from: ['enabled'],
            to: 'enabled',
            input: { graceSeconds: field('int', { min: 0, max: MAX_GRACE_SECONDS, optional: true, description: 'How long the old secret keeps signing too (default 86400).' }) },
            description: 'Answers a new signing secret; deliveries carry signatures with both secrets until the grace period ends.',
          },
        },
      },
    },
  };
}
