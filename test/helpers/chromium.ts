/**
 * Debian's chromium for the browser tests (scripts/ensure-chromium.sh installs it; CI runs that script): where
 * it is, the flags every run uses, and whether a missing browser fails (CI) or skips with a hint (elsewhere).
 */
import { existsSync } from 'node:fs';

/** Debian's chromium. */
export const CHROMIUM = '/usr/bin/chromium';
/** The flags every run uses: no GPU, no QUIC, no background traffic, nothing synced or updated. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Whether the browser is installed here. */
export const chromiumAvailable = existsSync(CHROMIUM);
/** In CI a missing browser is a failure, never a silent skip. */
export const chromiumRequired = process.env['CI'] === 'true';
