/**
 * @module The reference page of conformance, read from its own tables: every check with what it holds (`CHECKS`),
 * every bound of a run with its default and option (`BOUNDS`), the exit codes (`EXIT_CODES`), and the options of a
 * run (`ConformanceOptions` and its JSDoc).
 */
import { fileURLToPath } from 'node:url';
import { ATTEMPTS, BOUNDS, CHECKS, EXIT_CODES, KEPT_BODY } from '@restgen/conformance';
import { code, generatedHeader, table } from './markdown.ts';
import { typeSection } from './type-tables.ts';
import { openSources, readType } from './typescript-members.ts';

const TYPES = fileURLToPath(new URL('../../packages/conformance/src/types.ts', import.meta.url));

/** A default as a reader says it: `10 s`, `30 min`, `16 MiB`. */
export function amount(value: number, unit: 'ms' | 'bytes'): string {
  if (unit === 'bytes') return value % (1024 * 1024) === 0 ? `${value / (1024 * 1024)} MiB` : `${value / 1024} KiB`;
  if (value % 60_000 === 0 && value >= 120_000) return `${value / 60_000} min`;
  return `${value / 1000} s`;
}

/** The page's Markdown. */
export function conformancePage(): string {
  const project = openSources([TYPES]);
  return [
    generatedHeader('the tables of @restgen/conformance (CHECKS, BOUNDS, EXIT_CODES) and ConformanceOptions'),
    '# Conformance',
    '',
    'What `restgen conformance` checks, how far a run goes before it stops, and what its exit codes mean. How to run it,',
    'what it writes and how to read its reports is in [the conformance guide](../guide/conformance.md); its options are',
    'in [the command line](./cli.md#restgen-conformance).',
    '',
    '## Checks {#checks}',
    '',
    table(
      ['check', 'what must hold'],
      Object.entries(CHECKS).map(([id, holds]) => [code(id), holds]),
    ),
    '',
    '## Bounds {#bounds}',
    '',
    'Every request, every answer and the whole run are bounded, so a server that trickles its answers, floods them or',
    'rate-limits without end cannot hold a run, or its memory, for ever. What a bound cuts off is reported, and the run',
    'is then incomplete (exit 3).',
    '',
    table(
      ['bound', 'default', 'option', 'what it bounds'],
      Object.entries(BOUNDS).map(([name, b]) => [code(name), amount(b.default, b.unit), b.option === null ? '–' : code(b.option), b.bounds]),
    ),
    '',
    `A request answered 429 is sent at most ${ATTEMPTS} times. A failure keeps the answer that shows it; a body larger`,
    `than ${amount(KEPT_BODY, 'bytes')} is kept as its first characters, so a run's failures hold little memory.`,
    '',
    '## Exit codes {#exit-codes}',
    '',
    table(
      ['code', 'when'],
      Object.values(EXIT_CODES).map((e) => [`**${e.code}**`, e.means]),
    ),
    '',
    typeSection(readType(project, TYPES, 'ConformanceOptions'), 2, 'Options of a run'),
  ].join('\n');
}
