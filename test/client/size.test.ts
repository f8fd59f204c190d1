/**
 * What the generated client costs in an app: the shop example's client (its golden copy) bundled with
 * rolldown, minified, for an app that calls `get`, `list` and `create` of one collection with a bearer
 * token and no OAuth, webhook verification or conditional requests. The size is deterministic (not a
 * timing), so a budget holds it: code that the transport starts to reference again (OAuth, ETag helpers,
 * webhooks) or that grows fails here. `npm run bench` (bench/client-size.ts) compares it with openapi-fetch
 * and hey-api under esbuild.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { rolldown } from 'rolldown';
import { afterAll, describe, expect, it } from 'vitest';

/** min + gzip -9, in bytes: the app below bundles to 3,539 (the target is 3,584, see docs/guide/client-bundles.md). */
const BUDGET = 3_560;
const CLIENT = new URL('../../examples/shop/generated/client/index.js', import.meta.url).pathname;

const dir = mkdtempSync(path.join(os.tmpdir(), 'restgen-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles `app` (an ES module's source) for browsers, minified; its code. */
async function bundle(app: string): Promise<string> {
  const entry = path.join(dir, `app-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(entry, app);
  const build = await rolldown({ input: entry, platform: 'browser', logLevel: 'silent', resolve: { extensionAlias: { '.js': ['.ts', '.js'] } } });
  const { output } = await build.generate({ format: 'esm', minify: true });
  await build.close();
  return output[0].code;
}

const APP = [
  `import { createShopClient } from ${JSON.stringify(CLIENT)};`,
  `const c = createShopClient({ baseUrl: 'https://api.example.com', bearer: 'TOKEN' });`,
  `await c.v2.customers.get('1');`,
  `await c.v2.customers.list();`,
  `await c.v2.customers.create({ email: 'ada@example.com', name: 'Ada' });`,
].join('\n');

describe('the client in a bundle', () => {
  it(`costs at most ${BUDGET} bytes min + gzip for get, list and create of one collection`, async () => {
    const code = await bundle(APP);
    expect(gzipSync(code, { level: 9 }).length).toBeLessThanOrEqual(BUDGET);
  });

  it('carries no OAuth, webhook verification or ETag helper unless the app imports it', async () => {
    const code = await bundle(APP);
    for (const absent of ['client_credentials', 'webhook-signature', 'etagOf:', 'did not return']) expect(code).not.toContain(absent);
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
