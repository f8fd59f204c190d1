/**
 * What the generated client costs in an app: the shop example's client (its golden copy) bundled with
 * rolldown, minified, for an app that calls `get`, `list` and `create` of one collection with a bearer
 * token and no OAuth, webhook verification or conditional requests. The size is deterministic (not a
 * timing), so a budget holds it: under the target (3.5 KiB min + gzip) for the app through the
 * per-version entry (`createShopV2Client`) that docs/guide/client-bundles.md recommends, and a little over it
 * through `createShopClient`.
 * Code that the transport starts to reference again (OAuth, ETag helpers, webhooks, other versions) or
 * that grows fails here. `npm run bench` (bench/client-size.ts) compares it with openapi-fetch and hey-api
 * under esbuild.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { rolldown } from 'rolldown';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * min + gzip -9, in bytes, per entry: the apps below bundle to 3,870 and 4,076. That is over the 3.5 KiB (3,584 B)
 * target for the per-version entry since a version's client carries `events.stream()` (its parser is a chunk loaded on
 * the first call), v3's upload and download methods (its orders have an invoice; the multipart encoder is a chunk too),
 * the scopes of a credential grant and list queries (filters, sort, fields, expansions: about 70 B); docs/guide/client-bundles.md has the figures. The budget holds it there.
 */
const BUDGET = { createShopV2Client: 3_880, createShopClient: 4_090 } as const;
const CLIENT = new URL('../../examples/shop/generated/client/index.js', import.meta.url).pathname;

const dir = mkdtempSync(path.join(os.tmpdir(), 'restgen-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles `app` (an ES module's source) for browsers, minified; the code it loads at start (chunks loaded by `import()` left out). */
async function bundle(app: string): Promise<string> {
  const entry = path.join(dir, `app-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(entry, app);
  const build = await rolldown({ input: entry, platform: 'browser', logLevel: 'silent', resolve: { extensionAlias: { '.js': ['.ts', '.js'] } } });
  const { output } = await build.generate({ format: 'esm', minify: true });
  await build.close();
  // The entry and the chunks it imports statically (loaded with it); a chunk only `import()` reaches loads on demand.
  const chunks = new Map(output.flatMap((o) => (o.type === 'chunk' ? [[o.fileName, o] as const] : [])));
  const loaded = new Set<string>();
  const visit = (name: string): void => {
    const chunk = chunks.get(name);
    if (!chunk || loaded.has(name)) return;
    loaded.add(name);
    for (const imported of chunk.imports) visit(imported);
  };
  visit(output[0].fileName);
  return [...loaded].map((name) => chunks.get(name)!.code).join('\n');
}

const gzipped = (code: string): number => gzipSync(code, { level: 9 }).length;
const BODY = "{ email: 'ada@example.com', name: 'Ada' }";

/** The app through the per-version entry, and through the client of every version. */
const APPS = {
  createShopV2Client: [
    `import { createShopV2Client } from ${JSON.stringify(CLIENT)};`,
    `const c = createShopV2Client({ baseUrl: 'https://api.example.com', bearer: 'TOKEN' });`,
    `await c.customers.get('1');`,
    `await c.customers.list();`,
    `await c.customers.create(${BODY});`,
  ].join('\n'),
  createShopClient: [
    `import { createShopClient } from ${JSON.stringify(CLIENT)};`,
    `const c = createShopClient({ baseUrl: 'https://api.example.com', bearer: 'TOKEN' });`,
    `await c.v2.customers.get('1');`,
    `await c.v2.customers.list();`,
    `await c.v2.customers.create(${BODY});`,
  ].join('\n'),
};

describe('the client in a bundle', () => {
  it.each(Object.keys(APPS) as (keyof typeof APPS)[])('costs at most its budget min + gzip for get, list and create of one collection (%s)', async (entry) => {
    expect(gzipped(await bundle(APPS[entry]))).toBeLessThanOrEqual(BUDGET[entry]);
  });

  it('carries no other version through the per-version entry', async () => {
    // v3 alone has coupons and the refund transition; every version module names its version.
    // (The minifier may quote a string with backticks.)
    const named = (version: string): RegExp => new RegExp(`["'\`]${version}["'\`]`);
    const absent = ['coupons', 'refund', named('v1'), named('v3')];
    const alone = await bundle(APPS.createShopV2Client);
    for (const name of absent) expect(alone).not.toMatch(name);
    expect(alone).toMatch(named('v2'));
    const every = await bundle(APPS.createShopClient);
    for (const name of absent) expect(every).toMatch(name);
  });

  it('carries no OAuth, webhook verification or ETag helper unless the app imports it', async () => {
    // The multipart encoder of uploads (v3's orders have an invoice) is a chunk of its own, loaded on the first upload.
    for (const code of await Promise.all(Object.values(APPS).map(bundle)))
      for (const absent of ['client_credentials', 'webhook-signature', 'etagOf:', 'did not return', 'form-data; name=']) expect(code).not.toContain(absent);
    // Imported, they come along.
    const opted = await bundle(
      [
        `import { clientCredentials, createShopClient, etagOf, verifyWebhook } from ${JSON.stringify(CLIENT)};`,
        `const c = createShopClient({ baseUrl: 'https://api.example.com', auth: clientCredentials({ clientId: 'a', clientSecret: 'b' }) });`,
        `const order = await c.v2.orders.get('1');`,
        `await c.v2.orders.update('1', { quantity: 2 }, { ifMatch: etagOf(order) });`,
        `console.log(await verifyWebhook('{}', {}, 'whsec_AAAA'));`,
      ].join('\n'),
    );
    for (const present of ['client_credentials', 'webhook-signature', 'did not return']) expect(opted).toContain(present);
  });
});
