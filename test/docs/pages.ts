/**
 * The documentation's Markdown: which files the docs tests read (README.md and every page under docs/, the build
 * output excluded), and the TypeScript blocks in them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository's root folder. */
export const ROOT = path.resolve(import.meta.dirname, '../..');
/** The docs site's source folder. */
export const DOCS = path.join(ROOT, 'docs');

/** Every Markdown file of the docs (relative to the root, `/`-separated): README.md, then docs/**.md sorted. */
export function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      if (e.name === 'dist' || e.name === 'node_modules' || e.name.startsWith('.')) return [];
      const full = path.join(dir, e.name);
      return e.isDirectory() ? walk(full) : e.name.endsWith('.md') ? [full] : [];
    });
  return [
    'README.md',
    ...walk(DOCS)
      .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
      .sort(),
  ];
}

/** The text of a docs file (`relative` to the root). */
export const read = (relative: string): string => readFileSync(path.join(ROOT, relative), 'utf8');

/** A fenced TypeScript block: where it is, its info string and its code. */
export interface CodeBlock {
  readonly file: string;
  /** 1-based line of the first line of code (after the fence). */
  readonly line: number;
  readonly info: string;
  readonly code: string;
}

/** The fenced blocks of `text` whose language is `ts` or `typescript` (with any info after it). */
export function typescriptBlocks(file: string, text: string): CodeBlock[] {
  const lines = text.split('\n');
  const out: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const end = lines.findIndex(
      (l, j) => j > i && l.trimStart().startsWith(fence!) && l.trim() === l.trim().replace(/[^`~]/g, '') && l.trim().length >= fence!.length,
    );
    const close = end < 0 ? lines.length : end;
    const lang = info!.trim().split(/\s+/)[0] ?? '';
    if (lang === 'ts' || lang === 'typescript')
      out.push({
        file,
        line: i + 2,
        info: info!.trim(),
        code: lines
          .slice(i + 1, close)
          .map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l))
          .join('\n'),
      });
    i = close;
  }
  return out;
}
