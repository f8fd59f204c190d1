/**
 * The documents and what the generated server answers beyond the declared operations. HEAD beside every GET and
 * OPTIONS on every path are answered by the server either way, and declared in the documents only with
 * `openapi: { implicitMethods: true }` (checked against the running server: the statuses it answers are the
 * documented ones, and `Allow` is the documented list); `GET /<version>/openapi.json` answers the document itself.
 * `Problem.type` is a URI reference. And examples: a generator that builds an example from the schemas finds a value
 * for every field of a list's items and an event's data (Scalar did not follow a `$ref` nested under another one
 * there, and showed null for `id`, `email` and `createdAt`).
 */
import { allowOf } from '@restgen/runtime/contract';
import { sample } from 'openapi-sampler';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInto, importServer, registerOf, SHOP_MIGRATIONS, start, testAuthenticate, type Running } from '../server/helpers.ts';
import { generateExample, type GeneratedExample, type OpenApiDoc } from './generate-openapi.ts';

type Operation = Record<string, unknown> & { responses: Record<string, Record<string, unknown>> };

const IMPLICIT_API = fileURLToPath(new URL('./fixtures/shop-implicit.ts', import.meta.url));
const DECLARABLE = ['get', 'put', 'post', 'delete', 'patch'];

let example: GeneratedExample;
let implicit: GeneratedExample;
let server: Running;
let doc: OpenApiDoc;

beforeAll(async () => {
  example = await generateExample('openapi-lean');
  implicit = await generateExample('openapi-implicit', IMPLICIT_API);
  doc = example.doc('v3');
  const mod = await importServer(await generateInto('openapi-lean'));
  server = await start((app) =>
    registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS, rateLimit: false }),
  );
});
afterAll(async () => {
  await server?.close();
  example?.cleanup();
  implicit?.cleanup();
});

const operations = (item: Record<string, unknown>, method: string): Operation | undefined => item[method] as Operation | undefined;

/** A path of the document with a resource of the running server in place of `{id}`. */
async function urlOf(path: string): Promise<string> {
  const created = await server.call('POST', '/v3/customers', { body: { email: `options-${Math.random()}@example.com`, name: 'Ann' } });
  return path.replace('{id}', String(created.body['id']));
}

describe('the methods the server answers without an operation declaring them', () => {
  it('are left out of the documents by default: no head, no options, on any path of any version', () => {
    for (const v of example.versions)
      for (const [path, item] of Object.entries(example.doc(v).paths)) {
        expect(Object.keys(item), `${v} ${path}`).not.toContain('head');
        expect(Object.keys(item), `${v} ${path}`).not.toContain('options');
      }
  });

  it('are answered all the same: OPTIONS 204 with Allow on every path, public, and HEAD wherever GET is', async () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      const url = await urlOf(path);
      const declared = DECLARABLE.filter((m) => m in item).map((m) => m.toUpperCase());
      const answer = await server.call('OPTIONS', url, { token: null });
      expect(answer.status, url).toBe(204);
      expect(answer.headers.get('allow'), url).toBe(allowOf(new Set(declared)));
      const get = operations(item, 'get');
      if (get) expect(Object.keys(get.responses), `HEAD ${url}`).toContain(String((await server.call('HEAD', url)).status));
    }
  });

  it('with implicitMethods: HEAD beside every GET, the same parameters, security and statuses, without bodies', () => {
    const declared = implicit.doc('v3');
    for (const [path, item] of Object.entries(declared.paths)) {
      const get = operations(item, 'get');
      const head = operations(item, 'head');
      expect(Boolean(head), path).toBe(Boolean(get));
      if (!get || !head) continue;
      expect(head['operationId']).toBe(`${String(get['operationId'])}Head`);
      expect(Object.keys(head.responses)).toEqual(Object.keys(get.responses));
      expect(head['security']).toEqual(get['security']);
      for (const response of Object.values(head.responses)) expect(response).not.toHaveProperty('content');
    }
  });

  it('with implicitMethods: OPTIONS on every path, 204 with Allow, public, as the running server answers', async () => {
    const declared = implicit.doc('v3');
    // The same paths and declared operations as the lean document: only HEAD and OPTIONS are added.
    expect(Object.keys(declared.paths)).toEqual(Object.keys(doc.paths));
    for (const [path, item] of Object.entries(declared.paths)) {
      const { head: _head, options, ...rest } = item;
      expect(rest, path).toEqual(doc.paths[path]);
      expect(options, path).toBeDefined();
      expect(options!['security']).toEqual([]);
      const responses = (options as Operation).responses;
      const allow = (responses['204']!['headers'] as Record<string, { schema: { example: string } }>)['Allow']!.schema.example;
      const url = await urlOf(path);
      const answer = await server.call('OPTIONS', url, { token: null });
      expect(answer.status, url).toBe(204);
      expect(answer.headers.get('allow'), url).toBe(allow);
    }
  });

  it('GET /v3/openapi.json is documented, public, and answers this very document', async () => {
    const item = doc.paths['/v3/openapi.json']!;
    expect(operations(item, 'get')!['security']).toEqual([]);
    expect(Object.keys(operations(item, 'get')!.responses)).toEqual(['200']);
    const answer = await server.call('GET', '/v3/openapi.json', { token: null });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(doc);
  });

  it('Problem.type is a URI reference', () => {
    const problem = doc.components.schemas['Problem'] as { properties: { type: Record<string, unknown> } };
    expect(problem.properties.type).toMatchObject({ type: 'string', format: 'uri-reference' });
  });
});

describe('examples an example generator builds from the schemas', () => {
  /** Every `$ref` in `node`, with the object that holds it. */
  function refs(node: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
    if (Array.isArray(node)) for (const n of node) refs(n, out);
    else if (typeof node === 'object' && node !== null) {
      if ('$ref' in node) out.push(node as Record<string, unknown>);
      for (const value of Object.values(node)) refs(value, out);
    }
    return out;
  }

  it("carry each format's example beside every reference to the format's schema", () => {
    const formats = ['Uuid', 'Email', 'DateTime', 'Date'];
    const toFormats = refs(doc).filter((r) => formats.some((f) => r['$ref'] === `#/components/schemas/${f}`));
    expect(toFormats.length).toBeGreaterThan(20);
    for (const r of toFormats) {
      const target = doc.components.schemas[String(r['$ref']).split('/').pop()!] as { examples: unknown[] };
      expect(r['examples'], String(r['$ref'])).toEqual(target.examples);
    }
  });

  it('give every field of a list page and of an event a value, not null', () => {
    const listed = sample({ $ref: '#/components/schemas/CustomerList' }, { skipReadOnly: false }, doc) as { data: Record<string, unknown>[] };
    expect(listed.data[0]).toMatchObject({ id: '0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e', email: 'someone@example.com', createdAt: '2026-01-15T09:30:00Z' });
    const webhooks = doc['webhooks'] as Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }>;
    const event = sample(webhooks['order.created']!.post.requestBody.content['application/json']!.schema, {}, doc) as { data: Record<string, unknown> };
    for (const field of ['id', 'customer_id', 'createdAt']) expect(event.data[field], field).toEqual(expect.any(String));
  });
});
