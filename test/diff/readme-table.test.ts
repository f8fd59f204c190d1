/**
 * The README's reference tables are the code's tables: its table of finding ids lists exactly
 * `allFindingIds()` (id, level and wording, in the rules' order), and its diagnostic tables list codes of
 * `DIAGNOSTIC_CODES` once each; with the troubleshooting guide's table (the docs site the README moves to), every
 * code is documented.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allFindingIds } from '../../generator/diff/rules.ts';
import { DIAGNOSTIC_CODES } from '../../generator/model/diagnostics.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const TROUBLESHOOTING = readFileSync(new URL('../../docs/guide/troubleshooting.md', import.meta.url), 'utf8');

/** The lines from the heading `heading` (exact) up to the next heading of the same or a higher level. */
function section(heading: string, text = README): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`no heading '${heading}'`);
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

describe("the README's diagnostic tables", () => {
  const codesIn = (lines: readonly string[]) => rows(lines).flat().filter((c) => /^RG\d{3}$/.test(c));
  const documented = codesIn(section('### What restgen checks'));
  const guide = codesIn(section('## Diagnostics', TROUBLESHOOTING)).filter((c) => !documented.includes(c));

  it('document every diagnostic code, each once (with the troubleshooting guide\'s table)', () => {
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented, ...guide].sort()).toEqual(Object.keys(DIAGNOSTIC_CODES).sort());
  });

  it('give every code a description beside it', () => {
    const lines = rows(section('### What restgen checks'));
    for (const row of lines)
      for (let i = 0; i < row.length; i++)
        if (/^RG\d{3}$/.test(row[i]!)) expect(row[i + 1], `${row[i]} has no description`).toMatch(/\S/);
  });
});
