/**
 * @module Formatting of generated files. restgen renders every file exactly as prettier prints it with its
 * default options, so by default nothing is formatted and prettier is not even imported. Only when the
 * user's prettier configuration (resolved for the output folder, `.editorconfig` included) asks for
 * something other than the defaults, or a file comes from a user's template override (whose layout restgen
 * cannot vouch for), is the file formatted, by prettier.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FileLanguage } from '../emit/types.ts';

/** Formats generated files; `settingsKey` changes whenever formatting could change. */
export interface Formatter {
  /** {@link DEFAULT_SETTINGS} when prettier's default options apply to the file, else prettier's version and the options. */
  settingsKey(absPath: string, language: FileLanguage): Promise<string>;
  /** Formats `content`; `preformatted` content is returned as is when the defaults apply to it. */
  format(content: string, absPath: string, language: FileLanguage, preformatted?: boolean): Promise<string>;
  /** Forgets resolved configuration, so the next run sees edits to the user's prettier config. */
  refresh(): Promise<void>;
}

/** The settings key of files under prettier's default options. */
export const DEFAULT_SETTINGS = 'defaults';

// babel-ts prints the code restgen generates exactly as prettier's default typescript parser does (the
// golden test compares both on every example file) and parses it about twice as fast.
const PARSERS: { [L in FileLanguage]: string } = { typescript: 'babel-ts', json: 'json', markdown: 'markdown' };

const CONFIG_FILE = /^(?:\.prettierrc(?:\..+)?|prettier\.config\..+|package\.yaml|\.editorconfig)$/;

type Prettier = typeof import('prettier');
type Options = Record<string, unknown>;

/** True when `package.json` carries a `prettier` member (or cannot be read, so prettier must judge it). */
function manifestConfigures(file: string): boolean {
  try {
    const manifest: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof manifest !== 'object' || manifest === null || 'prettier' in manifest;
  } catch {
    // Unreadable or not JSON: prettier would fail on it too; let it say so.
    return true;
  }
}

/** True when some folder from `dir` up to the root holds a file prettier reads configuration from. */
function configAbove(dir: string, seen: Map<string, boolean>): boolean {
  const known = seen.get(dir);
  if (known !== undefined) return known;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    // A folder that cannot be listed holds no configuration prettier could read either.
    names = [];
  }
  const here = names.some((name) => CONFIG_FILE.test(name) || (name === 'package.json' && manifestConfigures(path.join(dir, name))));
  const parent = path.dirname(dir);
  const result = here || (parent !== dir && configAbove(parent, seen));
  seen.set(dir, result);
  return result;
}

/** The options that differ from prettier's defaults, sorted by name. */
async function effectiveOptions(p: Prettier, resolved: Options): Promise<Options> {
  const info = await p.getSupportInfo();
  const defaults = new Map(info.options.map((o) => [o.name, o.default as unknown]));
  const out: Options = {};
  for (const [name, value] of Object.entries(resolved).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (name === '$schema') continue;
    if (defaults.has(name) && JSON.stringify(defaults.get(name)) === JSON.stringify(value)) continue;
    out[name] = value;
  }
  return out;
}

/** A {@link Formatter} backed by prettier, imported only when some configuration applies. */
export function createPrettierFormatter(): Formatter {
  let prettier: Promise<Prettier> | undefined;
  // prettier caches resolved configuration per process; a refresh must reach that cache too.
  let clearCache = false;
  const load = () =>
    (prettier ??= import('prettier')).then(async (p) => {
      if (clearCache) {
        clearCache = false;
        await p.clearConfigCache();
      }
      return p;
    });
  const configs = new Map<string, Promise<Options>>();
  let seen = new Map<string, boolean>();
  const optionsFor = (absPath: string): Promise<Options> => {
    const dir = path.dirname(absPath);
    let found = configs.get(dir);
    if (!found) {
      found = configAbove(dir, seen)
        ? load().then(async (p) => effectiveOptions(p, ((await p.resolveConfig(absPath, { editorconfig: true })) ?? {}) as Options))
        : Promise.resolve({});
      configs.set(dir, found);
    }
    return found;
  };
  return {
    async refresh() {
      configs.clear();
      seen = new Map();
      clearCache = true;
    },
    async settingsKey(absPath, language) {
      const options = await optionsFor(absPath);
      if (Object.keys(options).length === 0) return DEFAULT_SETTINGS;
      return `prettier ${(await load()).version} ${PARSERS[language]} ${JSON.stringify(options)}`;
    },
    async format(content, absPath, language, preformatted = false) {
      const options = await optionsFor(absPath);
      if (preformatted && Object.keys(options).length === 0) return content;
      return (await load()).format(content, { ...options, parser: PARSERS[language], filepath: absPath });
    },
  };
}
