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
  /**
   * The files prettier reads the settings of files in `dir` from, when each is plain data that names no other file:
   * then, unchanged, they stand for the settings, and prettier need not be loaded to tell. Undefined when one is
   * not (a module, a shared configuration, plugins, YAML or TOML), so that only prettier can tell.
   */
  configFiles(dir: string): readonly string[] | undefined;
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

const CONFIG_FILE = /^(?:\.prettierrc(?:\..+)?|prettier\.config\..+|package\.(?:json|yaml)|\.editorconfig)$/;

type Prettier = typeof import('prettier');
type Options = Record<string, unknown>;

/** What a configuration file holds, as far as settings go: nothing (`none`), plain data, or more. */
type Config = 'none' | 'plain' | 'other';

/** `data`, parsed from JSON, as prettier options: plain when it is an object that names no plugins. */
const optionsKind = (data: unknown): Config => (typeof data === 'object' && data !== null && !Array.isArray(data) && !('plugins' in data) ? 'plain' : 'other');

/** What configuration file `file` (named like one) holds; a file that cannot be read is for prettier to judge. */
function configOf(file: string): Config {
  const name = path.basename(file);
  if (name === '.editorconfig') return 'plain';
  if (name !== 'package.json' && name !== '.prettierrc' && name !== '.prettierrc.json') return 'other';
  try {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (name !== 'package.json') return optionsKind(data);
    if (typeof data !== 'object' || data === null || !('prettier' in data)) return 'none';
    // A string names a shared configuration: another package's file.
    return optionsKind(data.prettier);
  } catch {
    // Unreadable, or not JSON (YAML in `.prettierrc`): prettier reads it, or fails on it and says so.
    return 'other';
  }
}

/** The configuration files prettier reads for `dir`, from `dir` up to the root, and whether every one is plain data. */
function configsAbove(dir: string, seen: Map<string, { files: string[]; plain: boolean }>): { files: string[]; plain: boolean } {
  const known = seen.get(dir);
  if (known) return known;
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    // A folder that cannot be listed holds no configuration prettier could read either.
    names = [];
  }
  const here = names.filter((n) => CONFIG_FILE.test(n)).map((n) => path.join(dir, n));
  const kinds = here.map(configOf);
  const parent = path.dirname(dir);
  const above = parent === dir ? { files: [], plain: true } : configsAbove(parent, seen);
  const result = { files: [...here.filter((_, i) => kinds[i] !== 'none'), ...above.files], plain: above.plain && !kinds.includes('other') };
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
  let seen = new Map<string, { files: string[]; plain: boolean }>();
  const optionsFor = (absPath: string): Promise<Options> => {
    const dir = path.dirname(absPath);
    let found = configs.get(dir);
    if (!found) {
      found =
        configsAbove(dir, seen).files.length > 0
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
    configFiles(dir) {
      const { files, plain } = configsAbove(dir, seen);
      return plain ? files : undefined;
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
