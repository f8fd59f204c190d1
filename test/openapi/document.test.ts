/**
 * The generated OpenAPI documents of the example, checked by tools nobody here wrote: every document
 * validates against the OpenAPI 3.1 schema (@seriousme/openapi-schema-validator) and lints clean with
 * Redocly's recommended rules (redocly.yaml at the root says which rule is off, and why). Then the
 * contents a user relies on: operationIds, security, statuses, headers, lifecycle, determinism.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitOpenApi } from '../../generator/emit/openapi/emit-openapi.ts';
import { generateExample, type GeneratedExample, type OpenApiDoc } from './generate-openapi.ts';

const REDOCLY = new URL('../../node_modules/@redocly/cli/bin/cli.js', import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname;

let example: GeneratedExample;
beforeAll(async () => {
  example = await generateExample('openapi-doc');
});
afterAll(() => example?.cleanup());

type Operation = Record<string, unknown> & { responses: Record<string, Record<string, unknown>>; security: unknown };

function op(doc: OpenApiDoc, path: string, method: string): Operation {
  const found = doc.paths[path]?.[method];
  if (!found) throw new Error(`no ${method.toUpperCase()} ${path}`);
  return found as Operation;
}

describe('tools from the registry accept every document', () => {
  it('validates against the OpenAPI 3.1 schema', async () => {
    for (const v of example.versions) {
      const validator = new Validator();
      const result = await validator.validate(example.docPath(v));
      expect(result.errors, v).toBeUndefined();
      expect(result.valid, v).toBe(true);
      expect(validator.version).toBe('3.1');
    }
  });

  it('lints clean with redocly recommended rules (warnings included)', async () => {
    // One file per run: with several files, `--format=json` prints one report after another.
    const reports = await Promise.all(
      example.versions.map(async (v) => {
        const { stdout } = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', '--format=json', example.docPath(v)], { cwd: ROOT });
        return JSON.parse(stdout) as {
          totals: { errors: number; warnings: number };
          problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
        };
      }),
    );
    // OPTIONS (answered before credentials and limits) and the route of the document itself answer no 4xx: the
    // documents say so rather than list a status the server never sends, which the recommended rule asks for.
    const honest = (p: { ruleId: string; location: { pointer: string }[] }) =>
      p.ruleId === 'operation-4xx-response' && p.location.some((l) => /\/options\/responses$|openapi\.json\/(get|head)\/responses$/.test(l.pointer));
    for (const report of reports) {
      expect(report.problems.filter((p) => !honest(p)).map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals.errors).toBe(0);
    }
  });
});

describe('contents', () => {
  it('has one document per version, its info.version the version name, after the writer header', () => {
    for (const v of example.versions) {
      const doc = example.doc(v);
      expect(Object.keys(doc)[0]).toBe('x-restgen');
      expect(doc['openapi']).toMatch(/^3\.1\./);
      expect(doc.info['version']).toBe(v);
    }
  });

  it('names operations stably and prefixes paths with the version', () => {
    const doc = example.doc('v3');
    const all = Object.values(doc.paths).flatMap((item) =>
      Object.values(item)
        .map((o) => (o as Record<string, unknown>)['operationId'])
        .filter(Boolean),
    );
    // HEAD and OPTIONS, which the server answers on every path, are not declared (see what-the-server-answers).
    const ids = all.filter((id) => id !== 'getOpenApiDocument');
    expect(all).toContain('getOpenApiDocument');
    expect(all.filter((id) => /(Head|Options)$/.test(String(id)))).toEqual([]);
    expect(new Set(all).size).toBe(all.length);
    expect(ids).toEqual([
      'listCustomers',
      'createCustomer',
      'getCustomer',
      'replaceCustomer',
      'updateCustomer',
      'deleteCustomer',
      'listOrders',
      'createOrder',
      'getOrder',
      'updateOrder',
      'deleteOrder',
      'downloadOrderInvoice',
      'payOrder',
      'shipOrder',
      'cancelOrder',
      'refundOrder',
      'listCoupons',
      'createCoupon',
      'getCoupon',
      'replaceCoupon',
      'updateCoupon',
      'deleteCoupon',
      'listWebhookEndpoints',
      'createWebhookEndpoint',
      'getWebhookEndpoint',
      'updateWebhookEndpoint',
      'deleteWebhookEndpoint',
      'disableWebhookEndpoint',
      'enableWebhookEndpoint',
      'rotateSecretWebhookEndpoint',
      'streamEvents',
    ]);
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/v3/'))).toBe(true);
    expect(doc.paths['/v3/openapi.json']).toBeDefined();
    // orders offer no replace: no PUT and no OrderReplace schema.
    expect(doc.paths['/v3/orders/{id}']!['put']).toBeUndefined();
    expect(doc.components.schemas['OrderReplace']).toBeUndefined();
  });

  it('marks public operations and asks for the collection scopes elsewhere', () => {
    const doc = example.doc('v2');
    expect(op(doc, '/v2/orders', 'get').security).toEqual([]);
    // The scopes are listed once, under oauth2, where they are declared; the API key stands for a principal of its own.
    expect(op(doc, '/v2/orders', 'post').security).toEqual([{ oauth2: ['orders:write'] }, { apiKeyAuth: [] }]);
    expect(op(doc, '/v2/customers/{id}', 'get').security).toEqual([{ oauth2: ['customers:read'] }, { apiKeyAuth: [] }]);
    expect(doc.components['securitySchemes']).toEqual({
      apiKeyAuth: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
      oauth2: expect.objectContaining({ type: 'oauth2' }),
    });
    // A public operation asks for no scope, but a credential that is sent must still be valid, and expanding the
    // customer (which needs customers:read) answers 401 or 403 to a caller who may not read it.
    expect(Object.keys(op(doc, '/v2/orders', 'get').responses)).toEqual(['200', '400', '401', '403', '406', '429', '500', '503']);
    expect(Object.keys(op(doc, '/v2/customers', 'get').responses)).toEqual(['200', '400', '401', '403', '406', '429', '500', '503']);
  });

  it('lists every status an operation can answer, errors as problem+json', () => {
    const doc = example.doc('v2');
    expect(Object.keys(op(doc, '/v2/customers', 'post').responses)).toEqual([
      '201',
      '400',
      '401',
      '403',
      '406',
      '409',
      '413',
      '415',
      '422',
      '429',
      '500',
      '503',
    ]);
    // An id that is not a UUID answers 404, so delete never answers 400; If-Match may answer 412; an Accept the API
    // cannot answer is refused before anything is deleted.
    expect(Object.keys(op(doc, '/v2/orders/{id}', 'delete').responses)).toEqual(['204', '401', '403', '404', '406', '412', '429', '500', '503']);
    expect(Object.keys(op(doc, '/v2/orders/{id}', 'patch').responses)).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '406',
      '412',
      '413',
      '415',
      '429',
      '500',
      '503',
    ]);
    const responses = doc.components['responses'] as Record<string, Record<string, unknown>>;
    for (const response of Object.values(responses)) {
      expect(response['content']).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
    }
    // The shop's API-wide limit covers every operation: answers given after it is counted carry its headers.
    expect(Object.keys(responses['TooManyRequestsRateLimited']!['headers'] as object)).toEqual([
      'Retry-After',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'RateLimit-Policy',
    ]);
    expect(Object.keys(responses['Unauthorized']!['headers'] as object)).toEqual(['WWW-Authenticate']);
    const created = op(doc, '/v2/customers', 'post');
    expect(Object.keys(created.responses['201']!['headers'] as object)).toEqual([
      'ETag',
      'Location',
      'Idempotent-Replayed',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'RateLimit-Policy',
    ]);
    expect(created['parameters']).toEqual([{ $ref: '#/components/parameters/IdempotencyKey' }]);
    const problem = doc.components.schemas['Problem'] as { required: string[]; properties: Record<string, unknown> };
    expect(problem.required).toEqual(['type', 'title', 'status', 'detail', 'code']);
    expect(Object.keys(problem.properties)).toEqual(expect.arrayContaining(['type', 'title', 'status', 'detail', 'errors']));
  });

  it('declares the headers the server sends on every response: RateLimit-* on a limited route, Deprecation and Sunset in a deprecated version', () => {
    const rateLimit = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'];
    for (const version of ['v1', 'v2', 'v3']) {
      const doc = example.doc(version);
      const responses = doc.components['responses'] as Record<string, { headers?: Record<string, unknown> }>;
      const resolve = (r: Record<string, unknown>) =>
        (typeof r['$ref'] === 'string' ? responses[r['$ref'].split('/').pop()!]! : r) as { headers?: Record<string, unknown> };
      // OPTIONS is answered before limits and version checks; the document's own route is not rate limited.
      for (const [path, item] of Object.entries(doc.paths))
        for (const [method, o] of Object.entries(item).filter(([k]) => k !== 'parameters' && k !== 'options' && !path.endsWith('/openapi.json')))
          for (const [status, response] of Object.entries((o as Operation).responses)) {
            const headers = Object.keys(resolve(response).headers ?? {});
            const where = `${version} ${method} ${path} ${status}`;
            // 401, 403 and 410 are answered before the limit is counted.
            if (!['401', '403', '410'].includes(status)) expect(headers, where).toEqual(expect.arrayContaining(rateLimit));
            if (version === 'v1') expect(headers, where).toEqual(expect.arrayContaining(['Deprecation', 'Sunset']));
            else expect(headers, where).not.toContain('Deprecation');
          }
    }
  });

  it('bounds list pages: maxItems on data and maximum on limit are the collection maxLimit', () => {
    const doc = example.doc('v2');
    const params = op(doc, '/v2/orders', 'get')['parameters'] as Record<string, Record<string, unknown>>[];
    expect(params[0]!['schema']).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    const list = doc.components.schemas['OrderList'] as { properties: { data: Record<string, unknown> } };
    expect(list.properties.data['maxItems']).toBe(100);
  });

  it('marks a deprecated version: every operation deprecated, sunset date, Deprecation and Sunset headers, 410', () => {
    const v1 = example.doc('v1');
    expect(v1.info['x-sunset']).toBe('2027-03-01');
    expect(v1.info['description']).toContain('2027-03-01');
    const operations = Object.entries(v1.paths)
      .filter(([path]) => !path.endsWith('/openapi.json'))
      .flatMap(([, item]) =>
        Object.entries(item)
          .filter(([k]) => k !== 'parameters' && k !== 'options')
          .map(([, o]) => o as Operation),
      );
    // 11 operations and the 3 transitions of orders, 5 operations and 3 transitions of webhook_endpoints, the event stream.
    expect(operations.length).toBe(23);
    for (const o of operations) {
      expect(o['deprecated']).toBe(true);
      expect(Object.keys(o.responses)).toContain('410');
      const success = Object.entries(o.responses).find(([status]) => status.startsWith('2'))![1];
      expect(Object.keys(success['headers'] as object)).toEqual(expect.arrayContaining(['Deprecation', 'Sunset']));
    }
    const v2 = example.doc('v2');
    expect(JSON.stringify(v2.paths)).not.toContain('"deprecated"');
    expect(v2.info['x-sunset']).toBeUndefined();
  });

  it('describes list queries and the page envelope', () => {
    const doc = example.doc('v2');
    const params = op(doc, '/v2/orders', 'get')['parameters'] as Record<string, unknown>[];
    expect(params[0]).toMatchObject({ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, default: 20 } });
    expect(params[1]).toEqual({ $ref: '#/components/parameters/Cursor' });
    expect(params.slice(2).map((p) => p['name'])).toEqual(['customer_id', 'status', 'createdAt', 'sort', 'fields', 'expand']);
    // Equality alone stays a plain parameter; more operators make one deepObject parameter, each operator a property.
    expect(params[2]).toMatchObject({ name: 'customer_id', in: 'query', schema: { $ref: '#/components/schemas/Uuid' } });
    expect(params[2]).not.toHaveProperty('style');
    expect(params[3]).toMatchObject({ name: 'status', style: 'deepObject', explode: true, schema: { type: 'object', additionalProperties: false } });
    expect(Object.keys((params[3]!['schema'] as { properties: object }).properties)).toEqual(['eq', 'in']);
    expect(params[4]).toMatchObject({ name: 'createdAt', style: 'deepObject', schema: { properties: { gte: { $ref: '#/components/schemas/DateTime' } } } });
    // sort, fields and expand: arrays of enums, comma-separated.
    expect(params[5]).toMatchObject({ name: 'sort', style: 'form', explode: false, schema: { type: 'array', items: { enum: ['createdAt', '-createdAt'] } } });
    expect(params[6]).toMatchObject({ name: 'fields', style: 'form', explode: false, schema: { items: { enum: expect.arrayContaining(['id', 'quantity']) } } });
    expect(params[7]).toMatchObject({ name: 'expand', schema: { items: { enum: ['customer_id'] } } });
    const get = op(doc, '/v2/orders/{id}', 'get')['parameters'] as Record<string, unknown>[];
    expect(get.map((p) => p['name'] ?? p['$ref'])).toEqual(['fields', 'expand', '#/components/parameters/IfMatch', '#/components/parameters/IfNoneMatch']);
    expect(doc.components.schemas['OrderList']).toMatchObject({
      required: ['data', 'next_cursor'],
      properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Order' } }, next_cursor: { type: ['string', 'null'] } },
    });
  });

  it('keeps read-only fields out of bodies and write-only fields out of responses', () => {
    const schemas = example.doc('v2').components.schemas as Record<
      string,
      { properties: Record<string, Record<string, unknown>>; required?: string[]; additionalProperties?: boolean }
    >;
    expect(Object.keys(schemas['Customer']!.properties)).not.toContain('password');
    expect(schemas['Customer']!.properties['createdAt']).toMatchObject({ readOnly: true });
    expect(schemas['CustomerCreate']!.properties['password']).toMatchObject({ writeOnly: true });
    expect(Object.keys(schemas['CustomerCreate']!.properties)).not.toContain('createdAt');
    expect(schemas['CustomerCreate']!.additionalProperties).toBe(false);
    expect(schemas['CustomerCreate']!.properties['shipping']).toMatchObject({ additionalProperties: false });
    expect(schemas['Customer']!.properties['shipping']!['additionalProperties']).toBeUndefined();
    expect(schemas['CustomerCreate']!.properties['tier']).toMatchObject({ default: 'free' });
    expect(schemas['CustomerCreate']!.required).toEqual(['email', 'name']);
    expect(schemas['Customer']!.required).toEqual(['id', 'email', 'name', 'tier', 'tags', 'createdAt']);
    expect(schemas['CustomerPatch']!.required).toBeUndefined();
    expect(schemas['Order']!.properties['product_id']).toMatchObject({ examples: [7] });
  });

  it('uses the version header instead of a path prefix when the API is versioned by header', async () => {
    const { loadIr } = await import('../helpers/load-ir.ts');
    const ir = await loadIr();
    const byHeader = { ...ir, versioning: { in: 'header' as const, header: 'Api-Version' } };
    const [, v2] = emitOpenApi(byHeader).map((f) => JSON.parse(f.content) as OpenApiDoc);
    expect(Object.keys(v2!.paths)).toEqual([
      '/customers',
      '/customers/{id}',
      '/orders',
      '/orders/{id}',
      '/orders/{id}:pay',
      '/orders/{id}:ship',
      '/orders/{id}:cancel',
      '/webhook_endpoints',
      '/webhook_endpoints/{id}',
      '/webhook_endpoints/{id}:disable',
      '/webhook_endpoints/{id}:enable',
      '/webhook_endpoints/{id}:rotateSecret',
      '/events',
      '/openapi.json',
    ]);
    expect(v2!.paths['/orders']!['parameters']).toEqual([{ $ref: '#/components/parameters/ApiVersion' }]);
    // The document's route chooses the version by the header too.
    expect(v2!.paths['/openapi.json']!['parameters']).toEqual([{ $ref: '#/components/parameters/ApiVersion' }]);
    expect((v2!.components as Record<string, Record<string, unknown>>)['parameters']!['ApiVersion']).toMatchObject({
      name: 'Api-Version',
      in: 'header',
      required: true,
      schema: { type: 'string', enum: ['v2'] },
    });
  });

  it('is deterministic: emitting twice gives the same bytes', async () => {
    const text = (files: ReturnType<typeof emitOpenApi>) => files.map((f) => [f.path, f.content]);
    const once = emitOpenApi(example.ir);
    expect(text(emitOpenApi(example.ir))).toEqual(text(once));
    expect(once.map((f) => f.path)).toEqual(['openapi/v1.json', 'openapi/v2.json', 'openapi/v3.json']);
  });

  it('prints JSON exactly as prettier formats it, so formatting can be skipped', async () => {
    const prettier = await import('prettier');
    for (const file of emitOpenApi(example.ir)) {
      expect(await prettier.format(file.content, { parser: 'json' }), file.path).toBe(file.content);
    }
  });
});
