/**
 * @module Where restgen's own files are: the package root holds `templates/` and `runtime/` (copied into
 * generated output) and `package.json`. Found by walking up from this module, so the same code works
 * from the TypeScript sources (`generator/`) and from the built distribution (`dist/`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'restgen') return dir;
      } catch {
        // An unreadable package.json on the way up is not restgen's: keep walking.
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`restgen: cannot find restgen's package.json above ${start}`);
    dir = parent;
  }
}

/** restgen's package root (absolute, no trailing separator). */
export const PACKAGE_ROOT: string = findRoot(path.dirname(fileURLToPath(import.meta.url)));

/** An absolute path inside restgen's package, e.g. `packagePath('templates')`. */
export const packagePath = (...segments: readonly string[]): string => path.join(PACKAGE_ROOT, ...segments);

let version: string | undefined;

/** restgen's version, from its package.json (read once). */
export function restgenVersion(): string {
  return (version ??= (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version);
}
