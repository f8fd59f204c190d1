/**
 * The docs site builds and works: `npm run docs:build` (once, into a temporary folder, with the reference only
 * checked, never rewritten) gives `index.html` at the root and a page per guide and reference page; every internal
 * link and anchor of every built page, and every link of README.md, resolves; `npm run docs:preview` serves the built
 * site, styled; and Debian's headless chromium (scripts/ensure-chromium.sh installs it) renders a page of each section
 * through it with its content and sidebar, the local search finds a diagnostic code, and no page loads anything from
 * another host. With CI=true a missing chromium fails.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPendingGuide } from '../../docs/.vitepress/sidebar.ts';
import { CHROMIUM, CHROMIUM_ARGS, chromiumAvailable, chromiumRequired } from '../helpers/chromium.ts';
import { DOCS, markdownFiles, read, ROOT } from './pages.ts';

const OUT = mkdtempSync(path.join(os.tmpdir(), 'restgen-docs-'));
const SITE = path.join(OUT, 'site');

/** Every file of the built site, relative to its root, `/`-separated. */
function builtFiles(dir = SITE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? builtFiles(full) : [path.relative(SITE, full).split(path.sep).join('/')];
  });
}

/** The ids an HTML page declares (anchors a link may name). */
const idsOf = (html: string): Set<string> => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));

/**
 * The built file a site path names (`/guide/server.html`, `/guide/server`, `/`), or undefined. VitePress writes
 * `<page>.html`; its sidebar and nav may link without the extension.
 */
function builtFileOf(sitePath: string): string | undefined {
  const clean = decodeURIComponent(sitePath).replace(/^\/+/, '');
  for (const candidate of [clean, `${clean}.html`, `${clean}index.html`, `${clean}/index.html`])
    if (candidate !== '' && existsSync(path.join(SITE, candidate)) && statSync(path.join(SITE, candidate)).isFile()) return candidate;
  return clean === '' ? 'index.html' : undefined;
}

/** A link to a guide that has not arrived yet (tolerated while its page is missing, as the build does). */
const pending = (target: string): boolean => /(?:^|\/)guide\//.test(target) && isPendingGuide(DOCS, target);

/** The site's own folder, for docs:build and docs:preview: docs/dist is the reader's. */
const SITE_ENV = { ...process.env, RESTGEN_DOCS_DIST: SITE };

/** A port nothing listens on now (the preview server takes a port number, not 0). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `npm run docs:preview` on `port`, once it says where it serves the site. */
function preview(port: number): Promise<ChildProcess> {
  const child = spawn('npm', ['run', 'docs:preview', '--silent', '--', '--port', String(port)], { cwd: ROOT, env: SITE_ENV, stdio: 'pipe', detached: true });
  let said = '';
  return new Promise((resolve, reject) => {
    const listen = (d: Buffer) => {
      said += d.toString();
      if (/Built site served at http:\/\/localhost:\d+/.test(said)) resolve(child);
    };
    child.stdout!.on('data', listen);
    child.stderr!.on('data', listen);
    child.on('exit', (code) => reject(new Error(`npm run docs:preview exited with ${code}: ${said}`)));
  });
}

/** Stops the preview (npm and the server it started: their process group). */
function stop(child: ChildProcess | undefined): Promise<void> {
  if (child?.pid === undefined || child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(-child.pid, 'SIGTERM');
  return exited;
}

let server: ChildProcess | undefined;
let origin = '';

beforeAll(async () => {
  // The reference is checked (a stale page fails the build) but never rewritten here: other tests read it.
  execFileSync('npm', ['run', 'docs:build', '--silent'], {
    cwd: ROOT,
    env: { ...SITE_ENV, RESTGEN_DOCS_REFERENCE: 'check' },
    stdio: 'pipe',
    timeout: 280_000,
  });
  const port = await freePort();
  server = await preview(port);
  origin = `http://127.0.0.1:${port}`;
}, 300_000);
afterAll(async () => {
  await stop(server);
  rmSync(OUT, { recursive: true, force: true });
});

describe('the built site', () => {
  it('has index.html at its root and a page for every Markdown page of docs/', () => {
    expect(existsSync(path.join(SITE, 'index.html'))).toBe(true);
    const pages = markdownFiles()
      .filter((f) => f.startsWith('docs/'))
      .map((f) => f.slice('docs/'.length).replace(/\.md$/, '.html'));
    const built = new Set(builtFiles());
    expect(pages.filter((p) => !built.has(p))).toEqual([]);
  });

  it('resolves every internal link and anchor of every page', () => {
    const problems: string[] = [];
    const pages = builtFiles().filter((f) => f.endsWith('.html'));
    const ids = new Map(pages.map((p) => [p, idsOf(readFileSync(path.join(SITE, p), 'utf8'))]));
    for (const page of pages) {
      const html = readFileSync(path.join(SITE, page), 'utf8');
      for (const [, href] of html.matchAll(/\s(?:href|src)="([^"]+)"/g)) {
        if (/^(?:[a-z]+:|\/\/)/i.test(href!)) continue; // another host, mailto:, data:
        const url = new URL(href!, `http://site/${page}`);
        const target = url.pathname === `/${page}` ? page : builtFileOf(url.pathname);
        if (!target) {
          if (!pending(url.pathname)) problems.push(`${page}: ${href} names no page`);
          continue;
        }
        const anchor = decodeURIComponent(url.hash.slice(1));
        if (anchor && target.endsWith('.html') && !ids.get(target)?.has(anchor)) problems.push(`${page}: ${href} names no anchor of ${target}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("resolves every link of README.md (into the site's pages and files the repository has)", () => {
    const problems: string[] = [];
    for (const [, target] of read('README.md').matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      const [file, anchor] = target!.split('#') as [string, string | undefined];
      if (!file.startsWith('docs/')) problems.push(`${target}: README.md links only into docs/ (the package ships nothing else)`);
      if (!existsSync(path.join(ROOT, file))) {
        if (!pending(file.replace(/^docs\//, ''))) problems.push(`${target}: no such file`);
        continue;
      }
      if (anchor) {
        const built = file.replace(/^docs\//, '').replace(/\.md$/, '.html');
        if (!idsOf(readFileSync(path.join(SITE, built), 'utf8')).has(anchor)) problems.push(`${target}: no such anchor`);
      }
    }
    expect(problems).toEqual([]);
  });
});

if (!chromiumAvailable)
  describe('the docs site in chromium', () => {
    if (chromiumRequired) it('needs /usr/bin/chromium (scripts/ensure-chromium.sh installs it)', () => expect.fail(`${CHROMIUM} is missing`));
    else it.skip(`SKIPPED: ${CHROMIUM} is missing; run bash scripts/ensure-chromium.sh`, () => {});
  });

describe('npm run docs:preview', () => {
  it('serves the built site with its styles and scripts, the way a reader views it', async () => {
    const page = await fetch(`${origin}/guide/first-api.html`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Your first API');
    const assets = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:css|js))"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const answer = await fetch(`${origin}${asset}`);
      expect(answer.status, asset).toBe(200);
      expect(answer.headers.get('content-type'), asset).toMatch(asset.endsWith('.css') ? /^text\/css/ : /javascript/);
    }
  });
});

describe.runIf(chromiumAvailable)('the docs site in chromium', () => {
  let context: BrowserContext;
  const foreign: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    context = await chromium.launchPersistentContext(path.join(OUT, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    });
    context.on('request', (r) => void (r.url().startsWith(origin) || r.url().startsWith('data:') || foreign.push(r.url())));
    // The browser asks for a favicon by itself; the site declares none (the preview answers 404).
    context.on('response', (r) => void (r.status() >= 400 && !r.url().endsWith('/favicon.ico') && errors.push(`${r.url()}: ${r.status()}`)));
  }, 60_000);
  afterAll(async () => {
    await context?.close();
  });

  /** Opens `sitePath`, waits for the app to hydrate, and returns the page. */
  async function open(sitePath: string) {
    const page = await context.newPage();
    page.on('pageerror', (e) => void errors.push(`${sitePath}: ${e.message}`));
    page.on('console', (m) => void (m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(`${sitePath}: ${m.text()}`)));
    await page.goto(`${origin}${sitePath}`, { waitUntil: 'networkidle' });
    return page;
  }

  it.each([
    ['home', '/', 'restgen', 'Where to start'],
    ['guide', '/guide/server.html', 'The generated server', 'Handlers'],
    ['reference', '/reference/diagnostics.html', 'Diagnostic codes', 'RG131'],
    ['performance', '/performance.html', 'Performance', 'npm run bench'],
  ])('renders the %s page with its content', async (section, sitePath, title, content) => {
    const page = await open(sitePath);
    const heading = section === 'home' ? page.locator('.VPHero .name') : page.locator('.vp-doc h1').first();
    expect((await heading.textContent())?.trim()).toContain(title);
    // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator; innerText is the text a reader sees
    expect(await page.locator('.VPContent').innerText()).toContain(content);
    if (section !== 'home') expect(await page.locator('.VPSidebar a').count()).toBeGreaterThan(5);
    const shot = await page.screenshot({ path: path.join(OUT, `${section}.png`), fullPage: false });
    expect(shot.byteLength).toBeGreaterThan(10_000);
    await page.close();
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
  });

  it('finds a diagnostic code with the local search', async () => {
    const page = await open('/guide/server.html');
    await page.locator('.DocSearch-Button').click();
    await page.locator('input.search-input').fill('RG131');
    const first = page.locator('#localsearch-list a.result').first();
    await first.waitFor({ timeout: 15_000 });
    expect(await first.getAttribute('href')).toMatch(/reference\/diagnostics\.html#rg131$/);
    await first.click();
    await page.waitForURL(/diagnostics\.html#rg131$/);
    // The router swaps the page in after the URL changes: wait for the heading to be shown (fails if it never is).
    await page.locator('#rg131').waitFor({ state: 'visible', timeout: 15_000 });
    expect(await page.locator('#rg131').isVisible()).toBe(true);
    await page.close();
    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
