/**
 * A webhook endpoint's `events`, three ways, for every version of the shop: the OpenAPI document declares
 * the items as the version's event types (an enum), the generated zod request schema accepts exactly those,
 * and the server accepts exactly those (201; anything else 400). Candidates are every version's event types,
 * a type no version has and text that is no event type. The request limits the generator declares are the
 * ones the runtime enforces.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running } from '../server/helpers.ts';

const VERSIONS = ['v1', 'v2', 'v3'];
const SCOPES = ['webhooks:read', 'webhooks:write'];

let outDir = '';
let server: Running;

beforeAll(async () => {
  outDir = await generateInto('webhook-event-types');
  const mod = await importServer(outDir);
  server = await start((app) =>
    registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), {
      authenticate: () => ({ id: 'admin', scopes: SCOPES }),
      migrations: SHOP_MIGRATIONS,
      rateLimit: false,
      webhooks: { allowPrivateUrls: true, dispatch: false },
    }),
  );
});
afterAll(() => server?.close());

type Doc = { components: { schemas: Record<string, { properties: Record<string, { items?: { enum?: string[]; pattern?: string } }> }> } };
const documented = (version: string): string[] => {
  const doc = JSON.parse(readFileSync(path.join(outDir, 'openapi', `${version}.json`), 'utf8')) as Doc;
  return doc.components.schemas['WebhookEndpointCreate']!.properties['events']!.items?.enum ?? [];
};

describe('webhook endpoint events', () => {
  it("the document, the zod schema and the server accept exactly the version's event types", async () => {
    const byVersion = Object.fromEntries(VERSIONS.map((v) => [v, documented(v)]));
    for (const v of VERSIONS) expect(byVersion[v]!.length, v).toBeGreaterThan(0);
    const candidates = [...new Set([...Object.values(byVersion).flat(), 'a.b', 'order.shipped', 'ORDER.CREATED', ''])];
    for (const v of VERSIONS) {
      const zod = (await import(path.join(outDir, v, 'schemas.ts'))) as Record<string, z.ZodType>;
      for (const type of candidates) {
        const expected = byVersion[v]!.includes(type);
        const body = { url: 'http://127.0.0.1:9/hook', events: [type] };
        expect(zod['WebhookEndpointCreate']!.safeParse(body).success, `${v} zod ${type}`).toBe(expected);
        const answer = await server.call('POST', `/${v}/webhook_endpoints`, { body });
        expect(answer.status, `${v} server ${type}`).toBe(expected ? 201 : 400);
      }
    }
  });

  it('the responses keep the plain pattern: an endpoint pinned to one version is listed through every other', () => {
    const doc = JSON.parse(readFileSync(path.join(outDir, 'openapi', 'v1.json'), 'utf8')) as Doc;
    const items = doc.components.schemas['WebhookEndpoint']!.properties['events']!.items!;
    expect(items.enum).toBeUndefined();
    // The pattern admits the event types of every version, so a v1 listing shows an endpoint made through v3.
    const pattern = new RegExp(items.pattern!, 'u');
    for (const v of VERSIONS) for (const type of documented(v)) expect(pattern.test(type), `${v} ${type}`).toBe(true);
    expect(pattern.test('')).toBe(false);
  });
});
