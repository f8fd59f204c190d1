/**
 * @module A stamp of the files that can change how prettier formats the output, so that an up-to-date run
 * can tell "the formatter settings are unchanged" without importing prettier (which costs more than the rest
 * of such a run). Prettier resolves a file's options from configuration files in its folder and every folder
 * above it (`.prettierrc*`, `prettier.config.*`, `package.json`, `package.yaml`) and from `.editorconfig`
 * files; the stamp lists, for every folder from each output folder up to the file system root, the entries
 * whose names look like one of those, with their file stamps.
 *
 * A stamp is only a shortcut where the configuration is plain data that names no other file: a
 * configuration written as a module (`prettier.config.js`, `.prettierrc.ts`, ...), one that names a shared
 * configuration or plugins, and one in a format read here without a parser (YAML, TOML, JSON5) can change
 * without any of these files changing. Then there is no stamp, and prettier is asked, as without a cache.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stampOf, stampTime, type Stamp } from './file-stamp.ts';

const CONFIG_NAME = /^(?:\.prettierrc(?:\..+)?|prettier\.config\..+|package\.(?:json|yaml)|\.editorconfig)$/;

/** What the stamp of a configuration file's folder says. */
export interface SettingsStamp {
  readonly stamp: string;
  /** The newest time among the stamped files (see `trusted` in `file-stamp.ts`). */
  readonly newest: bigint;
}

/** True when `text` is a JSON object of prettier options that names no other module. */
function plainOptions(text: string): boolean {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // Not JSON (YAML in `.prettierrc`, say): not something this shortcut reads.
    return false;
  }
  return typeof data === 'object' && data !== null && !Array.isArray(data) && !('plugins' in data);
}

/** True when configuration file `file` can only change by changing itself. */
function selfContained(file: string): boolean {
  const name = path.basename(file);
  if (name === '.editorconfig') return true;
  if (name === 'package.json') {
    let manifest: unknown;
    try {
      manifest = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      // A package.json prettier cannot read either: let prettier report it.
      return false;
    }
    if (typeof manifest !== 'object' || manifest === null || !('prettier' in manifest)) return true;
    return plainOptions(JSON.stringify(manifest.prettier));
  }
  if (name === '.prettierrc' || name === '.prettierrc.json') {
    try {
      return plainOptions(readFileSync(file, 'utf8'));
    } catch {
      // Unreadable now: no shortcut.
      return false;
    }
  }
  return false;
}

/** Every folder from each of `dirs` up to the file system root, each once, sorted. */
function foldersAbove(dirs: Iterable<string>): string[] {
  const all = new Set<string>();
  for (let dir of dirs) {
    while (!all.has(dir)) {
      all.add(dir);
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return [...all].sort();
}

/**
 * The stamp of the prettier configuration that applies in `dirs` (absolute folders that hold output
 * files), or undefined when the configuration is not plain data (then prettier must be asked).
 */
export function settingsStamp(dirs: Iterable<string>): SettingsStamp | undefined {
  const parts: string[] = [];
  let newest = 0n;
  for (const dir of foldersAbove(dirs)) {
    let names: string[];
    try {
      names = readdirSync(dir)
        .filter((n) => CONFIG_NAME.test(n))
        .sort();
    } catch {
      // A folder that cannot be listed (gone, or no permission) is part of the stamp as such.
      parts.push(`${dir}\0unlisted`);
      continue;
    }
    for (const name of names) {
      const file = path.join(dir, name);
      const stamp: Stamp | undefined = stampOf(file);
      if (stamp === undefined) continue;
      if (!selfContained(file)) return undefined;
      const time = stampTime(stamp);
      if (time > newest) newest = time;
      parts.push(`${file}\0${stamp}`);
    }
  }
  return { stamp: parts.join('\n'), newest };
}
