/**
 * The documents declare 406 exactly where the server answers it: every operation of the shop (JSON only) and of
 * the ledger (JSON and XML, versions by header) is called with an `Accept` the API cannot answer (`text/html`), and
 * answers 406 with the declared problem media type if and only if its document lists 406. A download answers its
 * file's own type whatever `Accept` says, and the event stream checks none: neither declares 406.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, type Running } from './helpers.ts';

const LEDGER_API = new URL('../../examples/ledger/api.ts', import.meta.url).pathname;
const ID = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d99';
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const SCOPES = ['customers:read', 'customers:write', 'orders:read', 'orders:write', 'orders:cancel', 'webhooks:read', 'webhooks:write'];
/** Every token holds every scope of the shop: nothing is refused before Accept is read. */
const everyScope = ({ token }: { token: string }) => ({ id: token, scopes: SCOPES });

interface Doc {
  readonly paths: Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>;
  readonly components: { responses: Record<string, { content?: Record<string, unknown> }> };
}

interface Case {
  readonly server: Running;
  readonly doc: Doc;
  readonly headers: Record<string, string>;
}

const cases: Record<string, Case> = {};
const servers: Running[] = [];

beforeAll(async () => {
  const shopDir = await generateInto('accept-shop');
  const shopMod = await importServer(shopDir);
  const shop = await start((app) =>
    registerOf(shopMod, 'Shop')(app, shopMod.createMemoryHandlers(), { authenticate: everyScope, migrations: SHOP_MIGRATIONS, rateLimit: false }),
  );
  const ledgerDir = await generateInto('accept-ledger', LEDGER_API);
  const ledgerMod = await importServer(ledgerDir);
  const ledger = await start((app) =>
    registerOf(ledgerMod, 'Ledger')(app, ledgerMod.createMemoryHandlers(), {
      apiKeys: { k: { id: 'acct', scopes: ['ledger:read', 'ledger:write', 'webhooks:read', 'webhooks:write'] } },
      rateLimit: false,
    }),
  );
  servers.push(shop, ledger);
  const doc = (dir: string, version: string) => JSON.parse(readFileSync(path.join(dir, 'openapi', `${version}.json`), 'utf8')) as Doc;
  cases['shop v3'] = { server: shop, doc: doc(shopDir, 'v3'), headers: { authorization: 'Bearer admin' } };
  cases['ledger 2026-03-01'] = { server: ledger, doc: doc(ledgerDir, '2026-03-01'), headers: { 'x-api-key': 'k', 'ledger-version': '2026-03-01' } };
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe.each(['shop v3', 'ledger 2026-03-01'])('%s', (name) => {
  it('answers 406 to an Accept it cannot answer exactly where the document declares it, as declared', async () => {
    const { server, doc, headers } = cases[name]!;
    const seen: string[] = [];
    for (const [route, operations] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(operations)) {
        if (!METHODS.has(method) || route.endsWith('/openapi.json') || route.endsWith('/events')) continue;
        const url = server.url + route.replace(/\{[^}]+\}/g, ID);
        const body = method === 'post' || method === 'put' || method === 'patch';
        const response = await fetch(url, {
          method: method.toUpperCase(),
          // If-Match too: a collection that requires it answers 428 before its route reads Accept.
          headers: { ...headers, accept: 'text/html', 'if-match': '"x"', ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: '{}' } : {}),
        });
        await response.arrayBuffer();
        const declared = operation.responses['406'];
        const what = `${method.toUpperCase()} ${route}`;
        expect(response.status === 406, `${what} answered ${response.status}`).toBe(declared !== undefined);
        if (declared === undefined) continue;
        seen.push(what);
        const component = doc.components.responses[declared.$ref!.split('/').pop()!]!;
        expect(Object.keys(component.content ?? {})).toEqual(['application/problem+json']);
        expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      }
    // Reads, writes and transitions alike: every collection's operations.
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.some((s) => s.startsWith('POST') && s.includes(':'))).toBe(true);
    expect(seen.some((s) => s.startsWith('DELETE'))).toBe(true);
  });
});
