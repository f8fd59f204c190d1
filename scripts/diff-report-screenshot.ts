// Renders the shop example's HTML diff report and saves a screenshot of it as docs/diff-report.png (for the
// README), quantised with pngquant. Uses Debian's chromium (scripts/ensure-chromium.sh) through playwright-core, with the
// browser tests' path and flags.
//
//   npx jiti scripts/diff-report-screenshot.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/helpers/chromium.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'restgen-shot-'));
try {
  const html = execFileSync(
    process.execPath,
    [path.join(root, 'bin/restgen.js'), 'diff', 'examples/shop/api.ts', '--format', 'html', '--today', '2026-11-22'],
    { cwd: root, encoding: 'utf8' },
  );
  writeFileSync(path.join(dir, 'report.html'), html);
  const context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 1000 },
  });
  const page = await context.newPage();
  await page.goto(`file://${path.join(dir, 'report.html')}`);
  await page.screenshot({ path: path.join(root, 'docs/diff-report.png') });
  await context.close();
  // The package ships this image: quantise it (Debian's pngquant) when available, about 3x smaller.
  try {
    execFileSync('pngquant', ['--quality', '60-85', '--speed', '1', '--force', '--ext', '.png', path.join(root, 'docs/diff-report.png')]);
  } catch (error) {
    console.warn(`pngquant did not run (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); the image is unquantised`);
  }
  console.log('wrote docs/diff-report.png');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
