/**
 * The event stream in the shop example's OpenAPI documents (the committed ones, which the golden test keeps
 * current): `GET /vN/events` with the `text/event-stream` media type, one item schema per event type the version
 * has, each event's data in that version's schema; the query and `Last-Event-ID`; security as the server applies
 * it (optional where the orders are public, a credential from v3); 410 `stream_expired` and 429. Spectral and
 * Redocly lint these documents in test/oauth/spectral.test.ts and test/openapi/document.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Doc = { paths: Record<string, { get: Record<string, unknown> }> };
const doc = (v: string): Doc => JSON.parse(readFileSync(new URL(`../../examples/shop/generated/openapi/${v}.json`, import.meta.url), 'utf8')) as Doc;

describe('the event stream in the documents', () => {
  it('documents each event of the version as an item of text/event-stream, its data in the version schema', () => {
    for (const v of ['v1', 'v3']) {
      const stream = doc(v).paths[`/${v}/events`]!.get as {
        operationId: string;
        responses: Record<
          string,
          { content?: Record<string, { schema: { oneOf: { title: string; properties: Record<string, { properties?: Record<string, unknown> }> }[] } }> }
        >;
      };
      expect(stream.operationId).toBe('streamEvents');
      const items = stream.responses['200']!.content!['text/event-stream']!.schema.oneOf;
      expect(items.map((i) => i.title)).toEqual(['order.created', 'order.updated', 'order.deleted', 'order.cancelled']);
      expect(items[0]!.properties['data']!.properties!['data']).toEqual({ $ref: '#/components/schemas/Order' });
      expect(items[0]!.properties['event']).toEqual({ const: 'order.created' });
      for (const status of ['400', '410', '429']) expect(Object.keys(stream.responses)).toContain(status);
      expect(JSON.stringify(stream.responses['410'])).toContain('stream_expired');
      expect(JSON.stringify(stream.responses['429'])).toContain('too_many_streams');
    }
  });

  it('takes types, after and Last-Event-ID, and asks for a credential where the server does', () => {
    const v1 = doc('v1').paths['/v1/events']!.get as { parameters: { name: string }[]; security: object[] };
    const v3 = doc('v3').paths['/v3/events']!.get as { security: object[]; description: string };
    expect(v1.parameters.map((p) => p.name)).toEqual(['types', 'after', 'Last-Event-ID']);
    // v1 orders are public: a credential is optional. v3 orders need orders:read.
    expect(v1.security[0]).toEqual({});
    expect(v3.security).not.toContainEqual({});
    expect(v3.description).toContain('`order.created` needs orders:read');
  });
});
