/**
 * @module Test helper: writes API modules into a temporary folder inside the project (so `restgen`,
 * `zod` and `fastify` resolve like in a user's project) and removes them afterwards.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const TMP_ROOT = new URL('../.tmp/', import.meta.url).pathname;

/** A fresh folder under `test/.tmp/`; call `cleanup()` when done. */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  mkdirSync(TMP_ROOT, { recursive: true });
  const dir = mkdtempSync(path.join(TMP_ROOT, `${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes `files` (relative path to content) into `dir`. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
}

/** The 1-based line of the first line of `source` containing `marker`. */
export function lineOf(source: string, marker: string): number {
  const index = source.split('\n').findIndex((l) => l.includes(marker));
  if (index < 0) throw new Error(`marker ${marker} not found`);
  return index + 1;
}

/** Every file under `dir`, relative POSIX paths, sorted. */
export function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}
