/**
 * The HTML report (issue #12, item 6) opened in a real browser: Debian's headless chromium, driven with
 * playwright-core (`scripts/ensure-chromium.sh` installs it; CI runs that script). The shop example's
 * findings are all there, the level and collection filters work, each finding links to its routes and
 * client methods, and the page makes no network request. With CI=true a missing chromium fails the test.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable, chromiumRequired } from '../helpers/chromium.ts';
import { SHOP_API } from '../helpers/load-ir.ts';
import { runDiffCli } from './helpers.ts';

const available = chromiumAvailable;
const inCi = chromiumRequired;

interface JsonFinding {
  readonly id: string;
  readonly level: string;
  readonly location: string;
  readonly fingerprint: string;
  readonly affects: { readonly routes: readonly string[]; readonly client: readonly string[] };
}

if (!available)
  describe('HTML report in chromium', () => {
    // In CI a missing browser is a failure, never a silent skip; on a developer's machine it says how to get one.
    if (inCi) it('needs /usr/bin/chromium (scripts/ensure-chromium.sh installs it)', () => expect.fail(`${CHROMIUM} is missing`));
    else it.skip(`SKIPPED: ${CHROMIUM} is missing; run bash scripts/ensure-chromium.sh`, () => {});
  });

describe.runIf(available)('HTML report in chromium', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'restgen-html-'));
  let context: BrowserContext;
  let page: Page;
  let findings: readonly JsonFinding[];
  const requests: string[] = [];
  const problems: string[] = [];
  const visible = () => page.locator('tr.finding:not([hidden])');

  beforeAll(async () => {
    const html = await runDiffCli([SHOP_API, '--format', 'html', '--today', '2026-11-22']);
    expect(html.code).toBe(0);
    findings = (JSON.parse((await runDiffCli([SHOP_API, '--format', 'json', '--today', '2026-11-22'])).out) as { findings: JsonFinding[] }).findings;
    const file = path.join(dir, 'report.html');
    writeFileSync(file, html.out);
    context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    });
    page = await context.newPage();
    page.on('request', (r) => void (r.url().startsWith('file://') || requests.push(r.url())));
    page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    page.on('pageerror', (e) => void problems.push(e.message));
    await page.goto(`file://${file}`);
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows every finding of the shop example, with no network request and no script error', async () => {
    expect(findings.length).toBeGreaterThan(5);
    expect(await page.locator('tr.finding').count()).toBe(findings.length);
    for (const f of findings) {
      const row = page.locator(`tr#f-${f.fingerprint}`);
      expect(await row.getAttribute('data-id')).toBe(f.id);
      expect(await row.getAttribute('data-level')).toBe(f.level);
      expect(await row.locator('code').first().textContent()).toBe(f.location);
    }
    expect(await page.locator('#shown').textContent()).toBe(`${findings.length} of ${findings.length} findings shown`);
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('shows the version timeline: released, deprecated and sunset dates', async () => {
    const states = await page.locator('ol.timeline li').evaluateAll((items) => items.map((li) => [li.getAttribute('data-version'), li.className]));
    expect(states).toEqual([
      ['v1', 'status-deprecated'],
      ['v2', 'status-released'],
      ['v3', 'status-unreleased'],
    ]);
    expect(await page.locator('li[data-version="v1"] .dates').textContent()).toBe('released 2026-01-15 · deprecated 2026-09-01 · sunset 2027-03-01');
    expect(await page.locator('section.comparison h2').allTextContents()).toEqual([expect.stringMatching(/^v1 → v2 /), expect.stringMatching(/^v2 → v3 /)]);
  });

  it('filters by level', async () => {
    await page.locator('input[name=level][value=safe]').uncheck();
    const notSafe = findings.filter((f) => f.level !== 'safe');
    expect(await visible().count()).toBe(notSafe.length);
    expect(await visible().evaluateAll((rows) => rows.map((r) => r.getAttribute('data-level')))).not.toContain('safe');
    expect(await page.locator('#shown').textContent()).toBe(`${notSafe.length} of ${findings.length} findings shown`);
    await page.locator('input[name=level][value=breaking]').uncheck();
    await page.locator('input[name=level][value=warning]').uncheck();
    expect(await visible().count()).toBe(0);
    expect(await page.locator('section.comparison p.none:not([hidden])').count()).toBe(2);
    for (const level of ['breaking', 'warning', 'safe']) await page.locator(`input[name=level][value=${level}]`).check();
    expect(await visible().count()).toBe(findings.length);
  });

  it('filters by collection, together with the level filter', async () => {
    // `orders.status` and the transition `orders:refund` both belong to orders.
    const inCollection = (f: JsonFinding, c: string) => f.location.split(/[.:]/)[0] === c;
    await page.locator('#collection').selectOption('orders');
    expect(await visible().count()).toBe(findings.filter((f) => inCollection(f, 'orders')).length);
    expect(new Set(await visible().evaluateAll((rows) => rows.map((r) => r.getAttribute('data-collection'))))).toEqual(new Set(['orders']));
    await page.locator('input[name=level][value=breaking]').uncheck();
    expect(await visible().count()).toBe(findings.filter((f) => inCollection(f, 'orders') && f.level !== 'breaking').length);
    await page.locator('input[name=level][value=breaking]').check();
    await page.locator('#collection').selectOption('');
    expect(await visible().count()).toBe(findings.length);
  });

  it('links each finding to its routes and client methods, and those back to the finding', async () => {
    const renamed = findings.find((f) => f.id === 'field-renamed')!;
    const row = page.locator(`tr#f-${renamed.fingerprint}`);
    expect(await row.locator('td').nth(3).locator('a').allTextContents()).toEqual(renamed.affects.routes);
    expect(await row.locator('td').nth(4).locator('a').allTextContents()).toEqual(renamed.affects.client);
    await row.locator('td').nth(3).getByText('POST /v2/orders', { exact: true }).click();
    const target = page.locator(':target');
    expect(await target.textContent()).toBe('POST /v2/orders');
    expect(await page.locator(`#routes dd a[href="#f-${renamed.fingerprint}"]`).count()).toBe(renamed.affects.routes.length);
    await row.locator('td').nth(4).getByText('v2.orders.create', { exact: true }).click();
    expect(await page.locator(':target').textContent()).toBe('v2.orders.create');
    await page.locator(`#client dd a[href="#f-${renamed.fingerprint}"]`).first().click();
    expect(await page.locator(':target').getAttribute('data-id')).toBe('field-renamed');
  });
});
