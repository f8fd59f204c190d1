/**
 * The README's reference tables are the code's tables: its table of finding ids lists exactly
 * `allFindingIds()` (id, level and wording, in the rules' order), and its diagnostic tables, with those of
 * the guides in `docs/guide/` (their `## Diagnostics` sections), list every code of `DIAGNOSTIC_CODES`
 * exactly once, and nothing else.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allFindingIds } from '../../generator/diff/rules.ts';
import { DIAGNOSTIC_CODES } from '../../generator/model/diagnostics.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const GUIDES = new URL('../../docs/guide/', import.meta.url);
/** The guides that have a `## Diagnostics` section, by file name. */
const guides = existsSync(GUIDES)
  ? readdirSync(GUIDES)
      .filter((f) => f.endsWith('.md'))
      .map((f) => [f, readFileSync(new URL(f, GUIDES), 'utf8')] as const)
      .filter(([, text]) => text.split('\n').includes('## Diagnostics'))
  : [];

/** The lines from the heading `heading` (exact) up to the next heading of the same or a higher level. */
function section(heading: string, text = README): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`README has no heading '${heading}'`);
  const level = heading.indexOf(' ');
  const end = lines.findIndex((l, i) => i > start && /^#+ /.test(l) && l.indexOf(' ') <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The cells of every table row in `lines` (header and separator rows included); `\|` stays inside a cell. */
function rows(lines: readonly string[]): string[][] {
  return lines
    .filter((l) => l.startsWith('|'))
    .map((l) =>
      l
        .slice(1, l.endsWith('|') ? -1 : undefined)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}

describe("the README's table of finding ids", () => {
  const table = rows(section('### Finding ids'))
    .filter((cells) => /^`[a-z0-9-]+`$/.test(cells[0] ?? ''))
    .map(([id, level, summary]) => ({ id: id!.slice(1, -1), level, summary }));

  it('lists every finding id with its level and summary, in the order of the rules', () => {
    expect(table).toEqual(allFindingIds());
  });

  it('is one table of three columns', () => {
    const body = section('### Finding ids').filter((l) => l.startsWith('|'));
    expect(body.length).toBe(allFindingIds().length + 2);
    for (const cells of rows(body)) expect(cells).toHaveLength(3);
  });
});

describe("the README's diagnostic tables (and the guides')", () => {
  const tables = [rows(section('### What restgen checks')), ...guides.map(([, text]) => rows(section('## Diagnostics', text)))];
  const documented = tables.flatMap((t) => t.flat()).filter((c) => /^RG\d{3}$/.test(c));

  it('document every diagnostic code, each once', () => {
    expect([...documented].sort()).toEqual(Object.keys(DIAGNOSTIC_CODES).sort());
  });

  it('give every code a description beside it', () => {
    for (const row of tables.flat())
      for (let i = 0; i < row.length; i++)
        if (/^RG\d{3}$/.test(row[i]!)) expect(row[i + 1], `${row[i]} has no description`).toMatch(/\S/);
  });
});
