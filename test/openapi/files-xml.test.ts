/**
 * What the OpenAPI documents say of files and XML, as the server behaves: the shop's v3 orders (an invoice PDF)
 * take multipart bodies beside JSON, with each file's content type in `encoding` and its limit in its
 * description, answer the file as its metadata, and have a download with its ranges; v2, which has no invoice,
 * has none of it. The ledger's documents (`formats: ['json', 'xml']`) declare XML beside JSON for every body
 * and answer, problem+xml beside problem+json, and `xml` objects that say how the server writes XML.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEDGER_API } from '../versions/ledger.ts';
import { generateExample, type GeneratedExample, type OpenApiDoc } from './generate-openapi.ts';

let shop: GeneratedExample;
let ledger: GeneratedExample;
beforeAll(async () => {
  shop = await generateExample('files-xml-shop');
  ledger = await generateExample('files-xml-ledger', LEDGER_API);
}, 120_000);
afterAll(() => {
  shop?.cleanup();
  ledger?.cleanup();
});

type Json = Record<string, unknown>;
const at = (value: unknown, ...path: string[]): Json => path.reduce((v, key) => (v as Json)[key], value) as Json;
/** The schema a `$ref` names, or the schema itself. */
const resolve = (doc: OpenApiDoc, value: Json): Json =>
  typeof value['$ref'] === 'string' ? resolve(doc, at(doc, ...value['$ref'].slice(2).split('/'))) : value;

describe('files in the shop', () => {
  it('creates and updates take multipart bodies: the file by content type and limit, objects as JSON; JSON bodies still', () => {
    const doc = shop.doc('v3');
    for (const [method, path, form] of [
      ['post', '/v3/orders', 'OrderCreateForm'],
      ['patch', '/v3/orders/{id}', 'OrderPatchForm'],
    ] as const) {
      const content = at(doc.paths[path]!, method, 'requestBody', 'content');
      expect(Object.keys(content).sort()).toEqual(['application/json', 'multipart/form-data']);
      expect(at(content, 'multipart/form-data')).toEqual({
        schema: { $ref: `#/components/schemas/${form}` },
        encoding: { invoice: { contentType: 'application/pdf' } },
      });
      expect(at(doc.components.schemas, form, 'properties', 'invoice')).toEqual({
        type: 'string',
        contentMediaType: 'application/pdf',
        description: "The invoice, once issued. The file's content: application/pdf, at most 10000000 bytes.",
      });
      // A JSON body cannot carry a file: it may only remove the (nullable) invoice with null.
      const json = resolve(doc, at(content, 'application/json', 'schema'));
      expect(at(json, 'properties', 'invoice')).toEqual({
        type: 'null',
        description: 'The invoice, once issued. null removes the file; a file is sent as a part of a multipart/form-data body.',
      });
    }
  });

  it('answers the file as its metadata', () => {
    const invoice = at(shop.doc('v3').components.schemas, 'Order', 'properties', 'invoice');
    expect(invoice['type']).toEqual(['object', 'null']);
    expect(invoice['required']).toEqual(['name', 'type', 'size', 'sha256', 'href']);
  });

  it('downloads the file: binary answers of its type, a range (206), 304 and 416, with Range and If-Range', () => {
    const doc = shop.doc('v3');
    const download = at(doc.paths['/v3/orders/{id}/invoice']!, 'get');
    expect(download['operationId']).toBe('downloadOrderInvoice');
    const responses = at(download, 'responses');
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(['200', '206', '304', '404', '416']));
    for (const status of ['200', '206'])
      expect(at(responses, status, 'content')).toEqual({ 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } });
    expect(Object.keys(at(responses, '206', 'headers'))).toEqual(expect.arrayContaining(['ETag', 'Content-Disposition', 'Content-Range']));
    expect((download['parameters'] as Json[]).map((p) => p['$ref'])).toEqual(
      expect.arrayContaining(['#/components/parameters/Range', '#/components/parameters/IfRange']),
    );
    // Only GET (and HEAD, answered as GET): nothing writes to the download's path.
    expect(Object.keys(doc.paths['/v3/orders/{id}/invoice']!).filter((k) => !['parameters', 'get', 'head'].includes(k))).toEqual([]);
  });

  it('says nothing of files in a version without them, and no XML in an API without it', () => {
    const doc = shop.doc('v2');
    expect(Object.keys(doc.paths).filter((p) => p.includes('invoice'))).toEqual([]);
    expect(Object.keys(at(doc.paths['/v2/orders']!, 'post', 'requestBody', 'content'))).toEqual(['application/json']);
    expect(JSON.stringify(shop.doc('v3'))).not.toMatch(/application\/(problem\+)?xml/);
  });
});

describe('XML in the ledger', () => {
  it('declares XML beside JSON for every body and answer, and problem+xml beside problem+json, with the same schema', () => {
    for (const version of ledger.versions) {
      const doc = ledger.doc(version);
      let checked = 0;
      const visit = (content: Json, status: string) => {
        // A 406 is problem+json alone: the request's Accept allowed no XML (nor JSON), and JSON is what it gets.
        if (status === '406') {
          expect(Object.keys(content), `${version} 406`).toEqual(['application/problem+json']);
          checked++;
          return;
        }
        for (const [json, xml] of [
          ['application/json', 'application/xml'],
          ['application/problem+json', 'application/problem+xml'],
        ] as const)
          if (json in content) {
            expect(content[xml], `${version} ${xml}`).toEqual(content[json]);
            checked++;
          }
      };
      for (const item of Object.values(doc.paths))
        for (const [method, operation] of Object.entries(item)) {
          if (method === 'parameters' || (operation['operationId'] as string | undefined)?.startsWith('getOpenApi')) continue;
          const body = operation['requestBody'] as Json | undefined;
          if (body) visit(at(body, 'content'), 'body');
          for (const [status, response] of Object.entries(at(operation, 'responses'))) {
            const content = resolve(doc, response as Json)['content'] as Json | undefined;
            if (content) visit(content, status);
          }
        }
      expect(checked).toBeGreaterThan(30);
    }
  });

  it('names each root element, wraps arrays with <i> items, and puts problems in the RFC 9457 namespace', () => {
    const schemas = ledger.doc('2026-03-01').components.schemas;
    expect(at(schemas, 'Account', 'xml')).toEqual({ name: 'account' });
    expect(at(schemas, 'AccountList', 'xml')).toEqual({ name: 'accountList' });
    expect(at(schemas, 'AccountList', 'properties', 'data', 'xml')).toEqual({ wrapped: true });
    expect(at(schemas, 'AccountList', 'properties', 'data', 'items', 'xml')).toEqual({ name: 'i' });
    // What create answers of a webhook endpoint (its secret shown) is written as the endpoint is.
    expect(at(schemas, 'WebhookEndpointWithSecret', 'xml')).toEqual({ name: 'webhookEndpoint' });
    expect(at(schemas, 'Problem', 'xml')).toEqual({ name: 'problem', namespace: 'urn:ietf:rfc:7807' });
    expect(at(schemas, 'Problem', 'properties', 'errors', 'items', 'xml')).toEqual({ name: 'i' });
  });
});
