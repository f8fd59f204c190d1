/**
 * @module The reference page of diagnostic codes, from `DIAGNOSTIC_CODES` (what each code means) and
 * `DIAGNOSTIC_FIXES` (how to fix it), grouped by the code's range. Every code gets its own anchor (`#rg131`).
 */
import { DIAGNOSTIC_FIXES } from '../../generator/model/diagnostic-fixes.ts';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../../generator/model/diagnostics.ts';
import { generatedHeader, prose } from './markdown.ts';

/** The ranges of codes, in order; a code outside every range lands in the last group. */
const GROUPS: readonly { readonly title: string; readonly from: number; readonly to: number }[] = [
  { title: 'Loading the API module', from: 1, to: 99 },
  { title: 'The API and its versions', from: 100, to: 109 },
  { title: 'Auth, operations and limits', from: 110, to: 119 },
  { title: 'Collections', from: 120, to: 129 },
  { title: 'Fields', from: 130, to: 149 },
  { title: 'Version markers', from: 150, to: 169 },
  { title: 'Builder calls the types reject', from: 170, to: 179 },
  { title: 'The lock of released versions', from: 180, to: 189 },
  { title: 'OpenAPI examples', from: 190, to: 199 },
  { title: 'The output folder', from: 200, to: 209 },
  { title: 'The config file and the project', from: 210, to: 299 },
  { title: 'OAuth 2.0', from: 300, to: 319 },
  { title: 'Lifecycles', from: 320, to: 349 },
  { title: 'Events and webhooks', from: 350, to: 389 },
  { title: 'Servers', from: 390, to: 399 },
  { title: 'MCP tools', from: 400, to: 409 },
  { title: 'Other', from: 410, to: 999 },
];

const number = (code: string): number => Number(code.slice(2));

/** The page's Markdown. */
export function diagnosticsPage(): string {
  const codes = (Object.keys(DIAGNOSTIC_CODES) as DiagnosticCode[]).sort();
  const out: string[] = [
    generatedHeader('generator/model/diagnostics.ts and generator/model/diagnostic-fixes.ts'),
    '# Diagnostic codes',
    '',
    'Every mistake restgen finds in an API module, a config file or the output folder is a diagnostic: a stable',
    'code, a message that says what is wrong and how to fix it for the case at hand, and the `file:line:column` of',
    'the builder call at fault. All diagnostics of a run are reported together; an error means nothing is written',
    'and the exit status is 2. A code never changes its meaning.',
    '',
    '```',
    '$ npx restgen generate api.ts',
    'api.ts:44:35: error RG131 orders.quantity: min(10) is greater than max(2); swap them or remove one.',
    '1 error; nothing was written.',
    '```',
    '',
    `${codes.length} codes. Most are errors; RG215, RG219 and those marked (warning) are warnings (the files are written, the exit status stays 0).`,
    '',
  ];
  let rest = codes;
  for (const group of GROUPS) {
    const mine = rest.filter((c) => number(c) >= group.from && number(c) <= group.to);
    rest = rest.filter((c) => !mine.includes(c));
    if (mine.length === 0) continue;
    out.push(`## ${group.title}`, '');
    for (const c of mine) out.push(`### ${c} ${prose(DIAGNOSTIC_CODES[c])} {#${c.toLowerCase()}}`, '', `**Fix:** ${prose(DIAGNOSTIC_FIXES[c])}`, '');
  }
  return out.join('\n');
}
