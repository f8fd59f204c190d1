/**
 * @module What restgen renders with, by content: a hash of restgen's own code, templates and runtime (in
 * whichever layout is installed: the built `dist/` of a package, or the sources of a clone) and of the
 * template overrides. The inputs record (`restgen-inputs.json`) names the identity its files' header keys stand
 * for: a key proves a file up to date only under the very restgen that wrote it (the same on every machine:
 * content, not file times). Headers themselves name no restgen: under another identity every file is rendered
 * and compared once, and only a file whose bytes differ is rewritten.
 */
import { createHash, type Hash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT, restgenVersion } from '../package-root.ts';

/**
 * The folders of restgen whose content decides what it generates: in a clone, the sources (`dist/` is built
 * from them, and need not be byte-identical across machines); in an installed package, the built code.
 */
const PARTS = { clone: ['generator', 'templates', 'runtime'], installed: ['dist', 'templates', 'runtime'] } as const;

/** Adds every file below `dir` (path and content, sorted by path) to `hash`; a missing folder adds its absence. */
function addTree(hash: Hash, dir: string, label: string): void {
  let files: string[];
  try {
    files = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    hash.update(`${label}\0missing\0`);
    return;
  }
  for (const file of files)
    hash
      .update(`${label}/${path.relative(dir, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
}

let own: string | undefined;

/** The identity of restgen itself (computed once per process: its installed files do not change under it). */
function restgenIdentity(): string {
  if (own !== undefined) return own;
  const hash = createHash('sha256').update(`restgen ${restgenVersion()}\0`);
  const layout = existsSync(path.join(PACKAGE_ROOT, 'generator')) ? PARTS.clone : PARTS.installed;
  for (const part of layout) addTree(hash, path.join(PACKAGE_ROOT, part), part);
  return (own = hash.digest('base64url'));
}

/** The identity of restgen and of the template overrides in `templatesDir` (read afresh: they change under `--watch`). */
export function codeIdentity(templatesDir?: string): string {
  if (templatesDir === undefined) return restgenIdentity();
  const hash = createHash('sha256').update(restgenIdentity());
  addTree(hash, path.resolve(templatesDir), 'overrides');
  return hash.digest('base64url');
}
