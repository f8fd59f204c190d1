/**
 * The generated client in a browser page that is not a secure context (plain `http://` on a host other
 * than localhost, as intranet apps are served): there `crypto.randomUUID` (and `crypto.subtle`) do not
 * exist. Creates and transitions still send an `Idempotency-Key` (a UUID v4 from
 * `crypto.getRandomValues`, which every context has) instead of failing with a TypeError. Debian's
 * chromium maps the host `shop.test` to a loopback server that serves the page and answers the API.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { rolldown } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable, chromiumRequired } from '../helpers/chromium.ts';

const ORDER = { id: 'o1', customer_id: 'c1', product_id: 7, quantity: 2, currency: 'EUR', status: 'open', createdAt: '2026-10-01T00:00:00Z' };
const CLIENT = new URL('../../examples/shop/generated/client/index.ts', import.meta.url).pathname;

if (!chromiumAvailable)
  describe('the client in an insecure browser context', () => {
    if (chromiumRequired) it('needs /usr/bin/chromium (scripts/ensure-chromium.sh installs it)', () => expect.fail(`${CHROMIUM} is missing`));
    else it.skip(`SKIPPED: ${CHROMIUM} is missing; run bash scripts/ensure-chromium.sh`, () => {});
  });

describe.runIf(chromiumAvailable)('the client in an insecure browser context', () => {
  const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
  let server: Server;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const bundle = await rolldown({ input: CLIENT, platform: 'browser', logLevel: 'silent', resolve: { extensionAlias: { '.js': ['.ts', '.js'] } } });
    const { output } = await bundle.generate({ format: 'iife', name: 'ShopClient' });
    await bundle.close();
    const script = output[0].code;
    server = createServer((req, res) => {
      if (req.url === '/')
        return void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><meta charset="utf-8"><title>shop</title><link rel="icon" href="data:,"><script src="/client.js"></script>');
      if (req.url === '/client.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      // The page declares no icon to fetch, but a browser may still ask for one; it is not the client's request.
      if (req.url === '/favicon.ico') return void res.writeHead(404).end();
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      req.resume();
      req.on('end', () => res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(ORDER)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP shop.test 127.0.0.1'] });
    page = await browser.newPage();
    await page.goto(`http://shop.test:${port}/`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('is not a secure context: no crypto.randomUUID there', async () => {
    expect(
      await page.evaluate(() => [
        (globalThis as unknown as { isSecureContext: boolean }).isSecureContext,
        typeof (crypto as { randomUUID?: unknown }).randomUUID,
      ]),
    ).toEqual([false, 'undefined']);
  });

  it('a create and a transition send a UUID v4 Idempotency-Key, each its own', async () => {
    seen.length = 0;
    const results = await page.evaluate(async () => {
      type Shop = { v2: { orders: { create(b: object): Promise<unknown>; pay(id: string): Promise<unknown> } } };
      const { createShopClient } = (globalThis as unknown as { ShopClient: { createShopClient(o: object): Shop } }).ShopClient;
      const shop = createShopClient({ baseUrl: (globalThis as unknown as { location: { origin: string } }).location.origin, maxRetries: 0 });
      const run = (p: () => Promise<unknown>) =>
        p().then(
          (v) => ({ ok: v }),
          (e: Error) => ({ error: `${e.name}: ${e.message}` }),
        );
      return [await run(() => shop.v2.orders.create({ customer_id: 'c1', product_id: 7, quantity: 2 })), await run(() => shop.v2.orders.pay('o1'))];
    });
    expect(results).toEqual([{ ok: ORDER }, { ok: ORDER }]);
    const keys = seen.map((s) => s.headers['idempotency-key']);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /v2/orders', 'POST /v2/orders/o1:pay']);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[0]).not.toBe(keys[1]);
  });
});
