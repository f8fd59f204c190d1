/**
 * What users read holds no history: no dated decision notes ("decided 2026-11-23", "(2026-11-23; before, ...)"),
 * no timestamps or dates of runs, no commit hashes of runs, no notes of how a day's work went. Dates that are data
 * (a version's `released: '2026-01-15'`) are fine. History lives in git.
 */
import { describe, expect, it } from 'vitest';
import { markdownFiles, read } from './pages.ts';

const DATE = String.raw`\d{4}-\d{2}-\d{2}`;

/** Patterns of history, each with what it catches. */
const HISTORY: readonly (readonly [RegExp, string])[] = [
  [new RegExp(String.raw`\bdecided,? (?:on )?${DATE}`, 'i'), 'a dated decision'],
  [new RegExp(String.raw`\b(?:before|since|until|as of|measured(?: on)?) ${DATE}`, 'i'), 'a dated change or measurement'],
  [new RegExp(String.raw`\(${DATE}[;,)]`), 'a dated note in parentheses'],
  [/\b\d{1,2}:\d{2}(?:\s*[–-]\s*\d{1,2}:\d{2})? UTC\b/, 'a time of day of a run'],
  [/\b(?:this|that|the) (?:evening|morning|afternoon|night)(?:'s)?\b|\btonight\b/i, 'a part of the day of a run'],
  [/\bcommits? [0-9a-f]{7,40}\b/, 'a commit hash'],
  [/\b(?:this|the last|an earlier|a previous) session\b/i, 'the history of work sessions'],
];

/** Every line of the docs that matches a pattern of history. */
function historyIn(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [pattern, what] of HISTORY) if (pattern.test(line)) found.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
  });
  return found;
}

describe('README.md and docs/', () => {
  it('hold no dated notes, run timestamps or session history', () => {
    expect(markdownFiles().flatMap((file) => historyIn(file, read(file)))).toEqual([]);
  });

  it('would catch the notes the old README held', () => {
    for (const line of [
      'the key is a UUID (decided 2026-11-23: before, every create there was a TypeError)',
      'files are never removed (2026-11-23; before, --out . removed them)',
      '**Latest** (2026-11-23 19:44 and 19:47 UTC, commit 1fd820b)',
      "The evening's last full run",
      'measured 2026-11-22 on the same machine',
    ])
      expect(historyIn('x.md', line), line).not.toEqual([]);
    expect(historyIn('x.md', "v1: { released: '2026-01-15', deprecated: '2026-09-01' }")).toEqual([]);
  });
});
