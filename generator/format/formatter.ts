/**
 * @module Formatting with prettier, honouring the user's prettier configuration for the output folder.
 * prettier is imported on first use (only when some file's content changed).
 */
import path from 'node:path';
import type { FileLanguage } from '../emit/types.ts';

/** Formats generated files; `settingsKey` changes whenever formatting could change. */
export interface Formatter {
  /** A string that identifies prettier's version and the resolved options for a file. */
  settingsKey(absPath: string, language: FileLanguage): Promise<string>;
  /** Formats `content`; `preformatted` content is returned as is when no configuration applies to it. */
  format(content: string, absPath: string, language: FileLanguage, preformatted?: boolean): Promise<string>;
  /** Forgets resolved configuration, so the next run sees edits to the user's prettier config. */
  refresh(): Promise<void>;
}

// babel-ts prints the code restgen generates exactly as prettier's default typescript parser does (the
// golden test compares both on every example file) and parses it about twice as fast.
const PARSERS: { [L in FileLanguage]: string } = { typescript: 'babel-ts', json: 'json', markdown: 'markdown' };

type Prettier = typeof import('prettier');

/** A prettier-backed {@link Formatter}. Configuration is resolved once per folder. */
export function createPrettierFormatter(): Formatter {
  let prettier: Promise<Prettier> | undefined;
  const load = () => (prettier ??= import('prettier'));
  const configs = new Map<string, Promise<Record<string, unknown>>>();
  const optionsFor = async (absPath: string): Promise<Record<string, unknown>> => {
    const dir = path.dirname(absPath);
    let found = configs.get(dir);
    if (!found) {
      found = load().then(async (p) => ((await p.resolveConfig(absPath, { editorconfig: true })) ?? {}) as Record<string, unknown>);
      configs.set(dir, found);
    }
    return found;
  };
  return {
    async refresh() {
      configs.clear();
      await (await load()).clearConfigCache();
    },
    async settingsKey(absPath, language) {
      const p = await load();
      const options = await optionsFor(absPath);
      const sorted = Object.fromEntries(Object.entries(options).sort(([a], [b]) => a.localeCompare(b)));
      return `prettier ${p.version} ${PARSERS[language]} ${JSON.stringify(sorted)}`;
    },
    async format(content, absPath, language, preformatted = false) {
      const options = await optionsFor(absPath);
      if (preformatted && Object.keys(options).length === 0) return content;
      const p = await load();
      return p.format(content, { ...options, parser: PARSERS[language], filepath: absPath });
    },
  };
}
