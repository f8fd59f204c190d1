/**
 * @module `npm run docs:reference` (and the first step of `npm run docs:build`): writes the reference pages
 * `docs/reference/*.md` from the code's own tables, only those whose text changed. The pages are committed, so
 * the repository and its reviews show them, and a test fails when one is stale. With
 * `RESTGEN_DOCS_REFERENCE=check` nothing is written: a stale page is an error that names the command to run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliPage } from './cli-page.ts';
import { conformancePage } from './conformance-page.ts';
import { diagnosticsPage } from './diagnostics-page.ts';
import { dslPage } from './dsl-page.ts';
import { findingsPage } from './findings-page.ts';
import { clientOptionsPage, serverOptionsPage } from './options-pages.ts';

/** Where the reference pages go. */
export const REFERENCE_DIR = fileURLToPath(new URL('../../docs/reference/', import.meta.url));

/** Every reference page, by file name, as the code says it now. */
export async function renderReference(): Promise<ReadonlyMap<string, string>> {
  return new Map<string, string>([
    ['diagnostics.md', diagnosticsPage()],
    ['findings.md', findingsPage()],
    ['cli.md', await cliPage()],
    ['dsl.md', dslPage()],
    ['server-options.md', serverOptionsPage()],
    ['client-options.md', clientOptionsPage()],
    ['conformance.md', conformancePage()],
  ]);
}

/** The pages whose committed text differs from `pages` (missing ones included). */
export function stalePages(pages: ReadonlyMap<string, string>, dir = REFERENCE_DIR): string[] {
  return [...pages]
    .filter(([name, text]) => {
      const file = path.join(dir, name);
      return !existsSync(file) || readFileSync(file, 'utf8') !== text;
    })
    .map(([name]) => name);
}

async function main(): Promise<void> {
  const pages = await renderReference();
  const stale = stalePages(pages);
  if (process.env['RESTGEN_DOCS_REFERENCE'] === 'check') {
    if (stale.length === 0) return;
    process.stderr.write(`docs: the reference is out of date (${stale.join(', ')}); run npm run docs:reference and commit docs/reference/\n`);
    process.exitCode = 1;
    return;
  }
  mkdirSync(REFERENCE_DIR, { recursive: true });
  for (const name of stale) writeFileSync(path.join(REFERENCE_DIR, name), pages.get(name)!);
  process.stderr.write(stale.length ? `docs: wrote ${stale.map((n) => `docs/reference/${n}`).join(', ')}\n` : 'docs: the reference is up to date\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
