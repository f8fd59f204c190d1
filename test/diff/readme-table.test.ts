/**
 * The README's reference tables are the code's tables: its table of finding ids lists exactly
 * `allFindingIds()` (id, level and wording, in the rules' order) but for the ids a docs guide documents in
 * a finding-id table of its own (the README is being moved into the docs site: ids added meanwhile are
 * documented there), and its diagnostic tables list every code of `DIAGNOSTIC_CODES` exactly once, and
 * nothing else.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allFindingIds } from '../../generator/diff/rules.ts';
import { DIAGNOSTIC_CODES } from '../../generator/model/diagnostics.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
/** Guides with a table of the finding ids they introduce (under the heading `### Finding ids`). */
const GUIDES = ['docs/guide/older-data.md'].map((file) => ({ file, text: readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8') }));

/** The lines from the heading `heading` (exact) up to the next heading of the same or a higher level. */
function section(heading: string, text = README, file = 'README'): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`${file} has no heading '${heading}'`);
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

/** The rows of a finding-id table: id, level and summary. */
const findingRows = (lines: readonly string[]) =>
  rows(lines)
    .filter((cells) => /^`[a-z0-9-]+`$/.test(cells[0] ?? ''))
    .map(([id, level, summary]) => ({ id: id!.slice(1, -1), level, summary }));

describe("the README's table of finding ids", () => {
  const table = findingRows(section('### Finding ids'));
  const inGuides = GUIDES.flatMap((g) => findingRows(section('### Finding ids', g.text, g.file)));
  const documentedElsewhere = new Set(inGuides.map((row) => row.id));
  const expected = allFindingIds().filter((row) => !documentedElsewhere.has(row.id));

  it('lists every finding id with its level and summary, in the order of the rules', () => {
    expect(table).toEqual(expected);
  });

  it('the guides list the other ids exactly as the rules do, none twice, none the README lists', () => {
    expect(inGuides).toEqual(allFindingIds().filter((row) => documentedElsewhere.has(row.id)));
    expect(table.filter((row) => documentedElsewhere.has(row.id))).toEqual([]);
  });

  it('is one table of three columns', () => {
    const body = section('### Finding ids').filter((l) => l.startsWith('|'));
    expect(body.length).toBe(expected.length + 2);
    for (const cells of rows(body)) expect(cells).toHaveLength(3);
  });
});

describe("the README's diagnostic tables", () => {
  const cells = rows(section('### What restgen checks')).flat();
  const documented = cells.filter((c) => /^RG\d{3}$/.test(c));

  it('document every diagnostic code, each once', () => {
    expect([...documented].sort()).toEqual(Object.keys(DIAGNOSTIC_CODES).sort());
  });

  it('give every code a description beside it', () => {
    const lines = rows(section('### What restgen checks'));
    for (const row of lines)
      for (let i = 0; i < row.length; i++)
        if (/^RG\d{3}$/.test(row[i]!)) expect(row[i + 1], `${row[i]} has no description`).toMatch(/\S/);
  });
});
