/**
 * The webhook endpoints as clients read them: create and rotateSecret answer a type of their own where the signing
 * secret is required (zod, OpenAPI; the client's types in test/client/types.test.ts), and the running server's answers
 * are that type; a create with several problems answers one 400 naming each, the unknown event type by name; and the
 * documents' examples of an endpoint name the API's own first version and a subscriber's URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { generateExample, type GeneratedExample, type OpenApiDoc } from '../openapi/generate-openapi.ts';
import { SHOP_MIGRATIONS, importServer, registerOf, start, testAuthenticate, type Running } from '../server/helpers.ts';
import { LEDGER_API } from '../versions/ledger.ts';

type Schema = { $ref?: string; required?: string[]; properties?: Record<string, { examples?: unknown[] }> };
type Operation = { responses: Record<string, { content?: Record<string, { schema: Schema }> }> };

const SCOPES = ['webhooks:read', 'webhooks:write'];

let shop: GeneratedExample;
let ledger: GeneratedExample;
let server: Running;

beforeAll(async () => {
  shop = await generateExample('endpoint-answers');
  ledger = await generateExample('endpoint-answers-ledger', LEDGER_API);
  const mod = await importServer(shop.dir);
  server = await start((app) =>
    registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
      authenticate: (c: { token: string }) => ({ ...testAuthenticate(c), scopes: SCOPES }),
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      // The address rules are checked (a refused URL is one of the problems below); names resolve to a public address.
      webhooks: { resolve: async () => ['93.184.215.14'] },
    }),
  );
});
afterAll(async () => {
  await server?.close();
  shop?.cleanup();
  ledger?.cleanup();
});

const answerOf = (doc: OpenApiDoc, path: string, method: string, status: string): string | undefined =>
  (doc.paths[path]?.[method] as Operation | undefined)?.responses[status]?.content?.['application/json']?.schema.$ref;

describe('create and rotateSecret answer the signing secret, typed as such', () => {
  it.each([
    ['shop', () => shop],
    ['ledger', () => ledger],
  ] as const)('%s: every document refers both answers to WebhookEndpointWithSecret, where secret is required', (_, example) => {
    for (const version of example().versions) {
      const doc = example().doc(version);
      const prefix = Object.keys(doc.paths).some((p) => p.startsWith(`/${version}/`)) ? `/${version}` : '';
      expect(answerOf(doc, `${prefix}/webhook_endpoints`, 'post', '201'), version).toBe('#/components/schemas/WebhookEndpointWithSecret');
      expect(answerOf(doc, `${prefix}/webhook_endpoints/{id}:rotateSecret`, 'post', '200')).toBe('#/components/schemas/WebhookEndpointWithSecret');
      // Every other answer is the endpoint without it.
      expect(answerOf(doc, `${prefix}/webhook_endpoints/{id}`, 'get', '200')).toBe('#/components/schemas/WebhookEndpoint');
      expect(answerOf(doc, `${prefix}/webhook_endpoints/{id}:disable`, 'post', '200')).toBe('#/components/schemas/WebhookEndpoint');
      const schemas = doc.components.schemas as Record<string, Schema>;
      expect(schemas['WebhookEndpointWithSecret']?.required).toContain('secret');
      expect(schemas['WebhookEndpoint']?.required).not.toContain('secret');
      expect(Object.keys(schemas['WebhookEndpointWithSecret']?.properties ?? {})).toEqual(Object.keys(schemas['WebhookEndpoint']?.properties ?? {}));
    }
  });

  it("the server's create and rotateSecret answers are WebhookEndpointWithSecret, its get a WebhookEndpoint without the secret", async () => {
    const schemas = (await shop.zod('v2')) as Record<string, z.ZodType>;
    const created = await server.call('POST', '/v2/webhook_endpoints', { body: { url: 'https://receiver.example.com/hooks', events: ['order.created'] } });
    expect(created.status).toBe(201);
    expect(schemas['WebhookEndpointWithSecret']!.safeParse(created.body).success).toBe(true);
    const id = created.body['id'] as string;
    const rotated = await server.call('POST', `/v2/webhook_endpoints/${id}:rotateSecret`, { body: {} });
    expect(rotated.status).toBe(200);
    expect(schemas['WebhookEndpointWithSecret']!.safeParse(rotated.body).success).toBe(true);
    const got = await server.call('GET', `/v2/webhook_endpoints/${id}`);
    expect(schemas['WebhookEndpoint']!.safeParse(got.body).success).toBe(true);
    expect(schemas['WebhookEndpointWithSecret']!.safeParse(got.body).success).toBe(false);
  });
});

describe('a create with several problems', () => {
  it.each([
    ['a URL that is no URL', 'not a url', /absolute URL/],
    ['an http URL', 'http://receiver.example.com/hooks', /https/],
    ['a URL with credentials', 'https://user:secret@receiver.example.com/hooks', /credentials/],
  ])('%s and an unknown event type answer one 400 naming both, the event type by name', async (_, url, urlRule) => {
    const bad = await server.call('POST', '/v1/webhook_endpoints', { body: { url, events: ['order.created', 'order.shredded'] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_failed', detail: 'The request body is invalid (2 issues).' });
    expect(bad.body.errors!.map((e) => e.pointer)).toEqual(['#/url', '#/events/1']);
    expect(bad.body.errors![0]!.detail).toMatch(urlRule);
    // The value sent, and what the version accepts instead.
    expect(bad.body.errors![1]!.detail).toMatch(/^'order\.shredded' is not an event type of v1; it has order\.created, /);
  });

  it('an update with an unknown event type names it too', async () => {
    const created = await server.call('POST', '/v1/webhook_endpoints', { body: { url: 'https://receiver.example.com/hooks', events: ['order.created'] } });
    const bad = await server.call('PATCH', `/v1/webhook_endpoints/${created.body['id'] as string}`, { body: { events: ['order.shredded'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ pointer: '#/events/0', detail: expect.stringMatching(/^'order\.shredded' is not an event type of v1/) }]);
  });
});

describe("the documents' examples of an endpoint", () => {
  it.each([
    ['shop', () => shop, 'v1'],
    ['ledger', () => ledger, '2025-01-15'],
  ] as const)("%s: the version is the API's first, the URL a subscriber's", (_, example, first) => {
    for (const version of example().versions) {
      const schemas = example().doc(version).components.schemas as Record<string, Schema>;
      for (const name of ['WebhookEndpoint', 'WebhookEndpointWithSecret', 'WebhookEndpointCreate']) {
        const properties = schemas[name]?.properties ?? {};
        if (properties['version']) expect(properties['version'].examples, `${version} ${name}`).toEqual([first]);
        expect(properties['url']?.examples, `${version} ${name}`).toEqual(['https://receiver.example.com/webhooks']);
      }
    }
  });
});
