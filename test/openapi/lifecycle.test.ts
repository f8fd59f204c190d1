/**
 * The lifecycle and conditional requests in the OpenAPI documents: one operation per transition of each
 * version (operationId, security with its own scopes, input schema, statuses 409/412/428), the state
 * field's description table and `x-restgen-lifecycle` per version, ETag, If-Match, If-None-Match and 304 on
 * the single-resource operations, and a transition's own rate limit in its headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import { buildOpenApiDocument } from '../../generator/emit/openapi/build-document.ts';
import { project } from '../../generator/model/project.ts';
import { irOf } from '../diff/helpers.ts';
import { generateExample, type GeneratedExample, type OpenApiDoc } from './generate-openapi.ts';

let example: GeneratedExample;
beforeAll(async () => {
  example = await generateExample('openapi-lifecycle');
});
afterAll(() => example?.cleanup());

type Operation = Record<string, unknown> & { responses: Record<string, Record<string, unknown>> };
const post = (doc: OpenApiDoc, path: string) => doc.paths[path]!['post'] as Operation;
const statuses = (o: Operation) => Object.keys(o.responses);

describe('transitions are operations', () => {
  it('each version lists the transitions it offers, at /{id}:<name>', () => {
    const paths = (v: string) => Object.keys(example.doc(v).paths).filter((p) => p.includes('}:') && p.includes('/orders/'));
    expect(paths('v1')).toEqual(['/v1/orders/{id}:pay', '/v1/orders/{id}:ship', '/v1/orders/{id}:cancel']);
    expect(paths('v3')).toEqual(['/v3/orders/{id}:pay', '/v3/orders/{id}:ship', '/v3/orders/{id}:cancel', '/v3/orders/{id}:refund']);
  });

  it('cancelOrder: its scope, its input, 409 invalid_transition, 412 and the Idempotency-Key', () => {
    const doc = example.doc('v2');
    const cancel = post(doc, '/v2/orders/{id}:cancel');
    expect(cancel).toMatchObject({ operationId: 'cancelOrder', summary: 'Cancel an order (open, paid → cancelled)', tags: ['orders'] });
    // OAuth 2.0 lists the scopes once, under oauth2; an API key stands for a principal that needs them too.
    expect(cancel['security']).toEqual([{ oauth2: ['orders:cancel'] }, { apiKeyAuth: [] }]);
    expect(post(doc, '/v2/orders/{id}:pay')['security']).toEqual([{ oauth2: ['orders:write'] }, { apiKeyAuth: [] }]);
    expect(cancel['requestBody']).toEqual({ required: false, content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderCancelInput' } } } });
    expect(post(doc, '/v2/orders/{id}:ship')['requestBody']).toMatchObject({ required: true });
    expect(cancel['parameters']).toEqual([
      expect.objectContaining({ name: 'expand', in: 'query', style: 'form', explode: false }),
      { $ref: '#/components/parameters/IdempotencyKey' },
      { $ref: '#/components/parameters/IfMatch' },
    ]);
    expect(statuses(cancel)).toEqual(['200', '400', '401', '403', '404', '406', '409', '412', '413', '415', '422', '429', '500', '503']);
    expect(cancel.responses['409']).toEqual({ $ref: '#/components/responses/InvalidTransitionRateLimited' });
    expect(cancel.responses['200']!['headers']).toMatchObject({ ETag: { $ref: '#/components/headers/ETag' } });
    expect(doc.components.schemas['OrderCancelInput']).toEqual({
      type: 'object',
      properties: { reason: { type: 'string', maxLength: 200 } },
      additionalProperties: false,
      description: 'The body of orders:cancel. Unknown fields are rejected.',
    });
    expect(doc.components.schemas['OrderPayInput']).toMatchObject({ type: 'object', properties: {}, additionalProperties: false });
    const problem = doc.components.schemas['Problem'] as { properties: Record<string, unknown> };
    expect(Object.keys(problem.properties)).toEqual(expect.arrayContaining(['state', 'allowed']));
  });
});

describe("the state field describes the version's lifecycle", () => {
  it('a table in its description and x-restgen-lifecycle, per version', () => {
    const status = (v: string) => (example.doc(v).components.schemas['Order'] as { properties: Record<string, Record<string, unknown>> }).properties['status']!;
    const v1 = status('v1');
    expect(v1['enum']).toEqual(['open', 'paid', 'shipped', 'cancelled']);
    expect(v1['description']).toContain("The order's lifecycle state: a new order starts as `open`");
    expect(v1['description']).toContain('| `cancel` (`POST /v1/orders/{id}:cancel`) | `open`, `paid` | `cancelled` |');
    expect(v1['description']).not.toContain('refund');
    expect(v1['x-restgen-lifecycle']).toEqual({
      field: 'status',
      initial: 'open',
      states: ['open', 'paid', 'shipped', 'cancelled'],
      transitions: [
        { name: 'pay', from: ['open'], to: 'paid', operationId: 'payOrder' },
        { name: 'ship', from: ['paid'], to: 'shipped', operationId: 'shipOrder' },
        { name: 'cancel', from: ['open', 'paid'], to: 'cancelled', operationId: 'cancelOrder' },
      ],
    });
    const v3 = status('v3')['x-restgen-lifecycle'] as { states: string[]; transitions: { name: string }[] };
    expect(v3.states).toContain('refunded');
    expect(v3.transitions.map((t) => t.name)).toEqual(['pay', 'ship', 'cancel', 'refund']);
  });
});

describe('conditional requests', () => {
  it('get: If-Match and If-None-Match, 304 with the ETag, 412', () => {
    const get = example.doc('v3').paths['/v3/orders/{id}']!['get'] as Operation;
    expect(get['parameters']).toEqual([
      expect.objectContaining({ name: 'fields', in: 'query' }),
      expect.objectContaining({ name: 'expand', in: 'query' }),
      { $ref: '#/components/parameters/IfMatch' },
      { $ref: '#/components/parameters/IfNoneMatch' },
    ]);
    expect(statuses(get)).toEqual(expect.arrayContaining(['200', '304', '412']));
    expect(get.responses['304']).not.toHaveProperty('content');
    expect(get.responses['304']!['headers']).toMatchObject({ ETag: { $ref: '#/components/headers/ETag' } });
  });
  it('coupons require If-Match on their writes: a required parameter and 428; orders do not', () => {
    const doc = example.doc('v3');
    for (const method of ['put', 'patch', 'delete']) {
      const o = doc.paths['/v3/coupons/{id}']![method] as Operation;
      expect(o['parameters'], method).toEqual([{ $ref: '#/components/parameters/IfMatchRequired' }]);
      expect(statuses(o), method).toEqual(expect.arrayContaining(['412', '428']));
    }
    expect(statuses(doc.paths['/v3/orders/{id}']!['patch'] as Operation)).not.toContain('428');
    expect((doc.components['parameters'] as Record<string, unknown>)['IfMatchRequired']).toMatchObject({ name: 'If-Match', in: 'header', required: true });
    expect(statuses(doc.paths['/v3/coupons']!['post'] as Operation)).not.toContain('428');
  });
});

it("a transition's own rate limit gives its answers the RateLimit headers, in an API without other limits", () => {
  const api = irOf(
    defineApi({
      name: 'desk',
      versions: { v1: {} },
      collections: {
        tickets: collection({
          fields: { id: f.id(), state: f.enum(['new', 'done']).readOnly() },
          lifecycle: {
            field: 'state',
            initial: 'new',
            transitions: { finish: { from: ['new'], to: 'done', rateLimit: { limit: 3, window: '1m' } }, reopen: { from: ['done'], to: 'new' } },
          },
        }),
      },
    }),
  );
  const doc = buildOpenApiDocument(project(api, 'v1')) as unknown as OpenApiDoc;
  const finish = post(doc, '/v1/tickets/{id}:finish');
  const reopen = post(doc, '/v1/tickets/{id}:reopen');
  expect(statuses(finish)).toContain('429');
  expect(Object.keys(finish.responses['200']!['headers'] as object)).toEqual([
    'ETag',
    'Idempotent-Replayed',
    'RateLimit-Limit',
    'RateLimit-Remaining',
    'RateLimit-Reset',
    'RateLimit-Policy',
  ]);
  expect(statuses(reopen)).not.toContain('429');
  // No auth: transitions are public.
  expect(finish['security']).toEqual([]);
  expect(finish['description']).toContain('Its own rate limit: 3 requests per 1m');
});
