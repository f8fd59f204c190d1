/**
 * `verifyWebhook` in a real browser (Debian's headless chromium): the generated client, bundled for the
 * browser with rolldown, verifies a message the `standardwebhooks` package signed in Node, and refuses a
 * changed body, a wrong secret and a stale timestamp with its typed errors. It needs WebCrypto only (no
 * Buffer, no node:crypto), which is what makes it work in browsers at all.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { rolldown } from 'rolldown';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable, chromiumRequired } from '../helpers/chromium.ts';
import { generateInto } from '../server/helpers.ts';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const EVENT = { type: 'order.created', timestamp: '2026-01-01T00:00:00.000Z', data: { id: 'o1', qty: 2 } };
const BODY = JSON.stringify(EVENT);

/** Headers of `body` signed by the standardwebhooks package at `at`. */
function signed(secret: string, at: Date, body = BODY): Record<string, string> {
  return {
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign('msg_1', at, body),
  };
}

if (!chromiumAvailable)
  describe('verifyWebhook in chromium', () => {
    if (chromiumRequired) it('needs /usr/bin/chromium (scripts/ensure-chromium.sh installs it)', () => expect.fail(`${CHROMIUM} is missing`));
    else it.skip(`SKIPPED: ${CHROMIUM} is missing; run bash scripts/ensure-chromium.sh`, () => {});
  });

describe.runIf(chromiumAvailable)('verifyWebhook in chromium', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'restgen-webhook-browser-'));
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  /** What the page's verifyWebhook answers: the event, or the error's name and whether it is a WebhookVerificationError. */
  const verify = (body: string, headers: Record<string, string>, secret: string | string[]) =>
    page.evaluate(
      async ([b, h, s]) => {
        const client = (
          globalThis as unknown as { ShopClient: { verifyWebhook: (...a: unknown[]) => Promise<unknown>; WebhookVerificationError: new () => Error } }
        ).ShopClient;
        try {
          return { event: await client.verifyWebhook(b, new Headers(h), s) };
        } catch (e) {
          return { error: (e as Error).name, typed: e instanceof client.WebhookVerificationError };
        }
      },
      [body, headers, secret] as const,
    );

  beforeAll(async () => {
    const out = await generateInto('webhook-browser');
    const bundle = await rolldown({
      input: path.join(out, 'client/index.ts'),
      platform: 'browser',
      logLevel: 'silent',
      // Generated imports name the emitted `.js`; the sources are `.ts`.
      resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    });
    const { output } = await bundle.generate({ format: 'iife', name: 'ShopClient' });
    await bundle.close();
    writeFileSync(path.join(dir, 'client.js'), output[0].code);
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>receiver</title><script src="client.js"></script>\n');
    context = await chromium.launchPersistentContext(path.join(dir, 'profile'), { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    page = await context.newPage();
    page.on('pageerror', (e) => void problems.push(e.message));
    await page.goto(pathToFileURL(path.join(dir, 'index.html')).href);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads the bundled client without errors, in a context with WebCrypto', async () => {
    expect(await page.evaluate(() => typeof crypto.subtle.importKey)).toBe('function');
    expect(await page.evaluate(() => typeof (globalThis as { ShopClient?: { verifyWebhook?: unknown } }).ShopClient?.verifyWebhook)).toBe('function');
    expect(problems).toEqual([]);
  });

  it('answers the event of a message the standardwebhooks package signed', async () => {
    expect(await verify(BODY, signed(SECRET, new Date()), SECRET)).toEqual({ event: EVENT });
    expect(await verify(BODY, signed(SECRET, new Date()), ['whsec_' + btoa('a rotated-out secret of length!!'), SECRET])).toEqual({ event: EVENT });
  });

  it('refuses a changed body, a wrong secret and a stale timestamp with typed errors', async () => {
    const now = new Date();
    expect(await verify(BODY.replace('"qty":2', '"qty":20'), signed(SECRET, now), SECRET)).toEqual({ error: 'WebhookSignatureError', typed: true });
    expect(await verify(BODY, signed(SECRET, now), 'whsec_' + btoa('not the secret that signed this!'))).toEqual({
      error: 'WebhookSignatureError',
      typed: true,
    });
    expect(await verify(BODY, signed(SECRET, new Date(now.getTime() - 3_600_000)), SECRET)).toEqual({ error: 'WebhookTimestampError', typed: true });
    const { 'webhook-signature': _dropped, ...unsigned } = signed(SECRET, now);
    expect(await verify(BODY, unsigned, SECRET)).toEqual({ error: 'WebhookHeaderError', typed: true });
  });
});
