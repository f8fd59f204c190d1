/**
 * The OpenAPI documents of an API with OAuth 2.0 (the shop example): an `oauth2` security scheme with every
 * declared flow, its URLs and the described scopes, and per-operation requirements naming the scopes each
 * operation needs (public operations need none).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateExample, type GeneratedExample } from '../openapi/generate-openapi.ts';

let shop: GeneratedExample;
beforeAll(async () => {
  shop = await generateExample('oauth-openapi');
}, 120_000);
afterAll(() => shop.cleanup());

type Operation = { security: Record<string, string[]>[]; responses: Record<string, unknown> };
const operation = (version: string, path: string, method: string): Operation =>
  (shop.doc(version).paths as Record<string, Record<string, Operation>>)[path]![method]!;

describe('OpenAPI with OAuth 2.0', () => {
  it('describes the oauth2 scheme: both flows with their URLs, each listing every scope with what it grants', () => {
    const scopes = {
      'customers:read': 'Read customers',
      'customers:write': 'Create, change and delete customers',
      'orders:read': 'Read orders',
      'orders:write': 'Place and change orders; pay for and ship them',
      'orders:cancel': 'Cancel orders',
      'webhooks:read': 'List and read webhook endpoints',
      'webhooks:write': 'Create, change, disable and delete webhook endpoints; rotate their secrets',
    };
    for (const version of shop.versions)
      expect((shop.doc(version).components['securitySchemes'] as Record<string, unknown>)['oauth2']).toEqual({
        type: 'oauth2',
        description: 'OAuth 2.0 access tokens, sent as `Authorization: Bearer <token>`.',
        flows: {
          authorizationCode: { authorizationUrl: 'https://id.shop.example.com/oauth/authorize', tokenUrl: 'https://id.shop.example.com/oauth/token', scopes },
          clientCredentials: { tokenUrl: 'https://id.shop.example.com/oauth/token', scopes },
        },
      });
  });

  it('asks each operation for its scopes under oauth2, or for an API key; public operations for nothing', () => {
    expect(operation('v3', '/v3/coupons', 'post').security).toEqual([{ oauth2: [] }, { apiKeyAuth: [] }]);
    expect(operation('v2', '/v2/customers/{id}', 'delete').security).toEqual([{ oauth2: ['customers:write'] }, { apiKeyAuth: [] }]);
    expect(operation('v2', '/v2/orders', 'get').security).toEqual([]);
    expect(operation('v2', '/v2/orders', 'get').responses['401']).toBeDefined();
  });

  it('asks each transition for its own scopes under oauth2 (an API key for none), in every version it exists in', () => {
    for (const version of shop.versions) {
      const post = (name: string) =>
        (shop.doc(version).paths as Record<string, Record<string, Operation & { operationId: string }>>)[`/${version}/orders/{id}:${name}`]?.['post'];
      expect(post('cancel')).toMatchObject({ operationId: 'cancelOrder', security: [{ oauth2: ['orders:cancel'] }, { apiKeyAuth: [] }] });
      expect(Object.keys(post('cancel')!.responses)).toEqual(expect.arrayContaining(['401', '403']));
      for (const name of ['pay', 'ship']) expect(post(name)!.security).toEqual([{ oauth2: ['orders:write'] }, { apiKeyAuth: [] }]);
      if (version === 'v3') expect(post('refund')!.security).toEqual([{ oauth2: ['orders:write'] }, { apiKeyAuth: [] }]);
      else expect(post('refund')).toBeUndefined();
    }
  });
});
