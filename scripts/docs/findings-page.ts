/**
 * @module The reference page of diff finding ids, from the rules table (`RULES` through `allFindingIds()`):
 * every id with its level and what it means, in the rules' order.
 */
import { allFindingIds } from '../../generator/diff/rules.ts';
import { code, generatedHeader, table } from './markdown.ts';

/** The page's Markdown. */
export function findingsPage(): string {
  const ids = allFindingIds();
  const count = (level: string): number => ids.filter((i) => i.level === level).length;
  return [
    generatedHeader('generator/diff/rules.ts'),
    '# Finding ids',
    '',
    'Every change `restgen diff` reports is a finding with a stable id and exactly one level: **breaking**,',
    '**warning** or **safe**. When a rule judges the two sides of the data flow differently (a change that breaks',
    'requests but not responses), it has two ids, prefixed with the side that decided: `request-…` and `response-…`.',
    "`--severity` and the config's `diff.severity` accept an id, or a rule name without the prefix for both sides.",
    'How changes are judged, and how to act on them in CI, is in [the diff report in CI](../guide/diff-in-ci.md).',
    '',
    `${ids.length} ids: ${count('breaking')} breaking, ${count('warning')} warning, ${count('safe')} safe.`,
    '',
    table(
      ['id', 'level', 'change'],
      ids.map((i) => [code(i.id), i.level, i.summary]),
    ),
    '',
  ].join('\n');
}
