/**
 * @module The conformance report in three formats: `text` for terminals (each failure with its version,
 * collection, operation, request and answer; skipped checks with their reason; a summary), `json` for tools
 * (the whole report, with a `formatVersion`), and `junit` for CI test reports (one `<testsuite>` per version
 * and collection, one `<testcase>` per check), as `restgen diff` writes them.
 */
import { shownHeaders } from './http.js';
import { CHECKS, type CheckResult, type ConformanceReport, type Failure, type Verdict } from './types.js';

/** C0 control characters but tab and newline, DEL, and C1 control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for.
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * `text` with every control character but tab and newline shown escaped (`\x1b`). The reports quote the server
 * (bodies, headers, ids, values): escaped, nothing it sends can retitle or clear a terminal, move its cursor or
 * overwrite a line of a CI log, in any format.
 */
export function printable(text: string): string {
  return text.replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * Text for an XML document: control characters shown escaped (XML 1.0 allows none but tab and newline), what XML
 * cannot hold at all (a lone surrogate) left out, and markup characters as entities.
 */
function escapeXml(text: string): string {
  return printable(text)
    .replace(/[^\t\n\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** The formats `restgen conformance --format` accepts. */
export const FORMATS = ['text', 'json', 'junit'] as const;
/** A report format. */
export type Format = (typeof FORMATS)[number];

/** The version of the JSON report's shape; bumped only when a member changes meaning or is removed. */
export const REPORT_FORMAT_VERSION = 1;

/** How a run ended: incomplete when it could not complete (whatever else it found), else failed or passed. */
export function verdictOf(report: ConformanceReport): Verdict {
  if (report.incomplete.length > 0) return 'incomplete';
  return report.results.some((r) => r.status === 'failed') ? 'failed' : 'passed';
}

/** The counts of a report. */
export function summaryOf(report: ConformanceReport): { checks: number; passed: number; failed: number; skipped: number } {
  const count = (status: CheckResult['status']) => report.results.filter((r) => r.status === status).length;
  return { checks: report.results.length, passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

/** A value as JSON text (a string as it is); a value nested too deeply for JSON.stringify says so instead. */
function json(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '(nested too deeply to print)';
  }
}

/** A failure's request and answer, as indented lines. */
function exchangeLines(f: Failure, indent: string): string[] {
  const lines: string[] = [];
  if (f.request) {
    const headers = Object.entries(f.request.headers).filter(([n]) => n !== 'accept' && n !== 'content-type');
    lines.push(`${indent}request: ${f.request.method} ${f.request.url}`);
    for (const [n, v] of headers) lines.push(`${indent}         ${n}: ${v}`);
    if (f.request.body !== undefined) lines.push(`${indent}         ${clip(json(f.request.body), 400)}`);
  }
  if (f.answer) {
    lines.push(`${indent}answer:  ${f.answer.status}`);
    for (const [n, v] of Object.entries(shownHeaders(f.answer.headers))) lines.push(`${indent}         ${n}: ${v}`);
    if (f.answer.body !== undefined) lines.push(`${indent}         ${clip(json(f.answer.body), 600)}`);
  } else if (f.request) lines.push(`${indent}answer:  none`);
  return lines;
}

/** The report for a terminal. */
export function formatText(report: ConformanceReport): string {
  const s = summaryOf(report);
  const lines = [`restgen conformance: ${report.api} at ${report.url} (${report.versions.join(', ')})`];
  if (report.standIns.length > 0)
    lines.push(
      `note: the server runs restgen serve's stand-in migration hooks (${report.standIns.join(', ')}): the fields they convert were not compared in the versions before them, whose values are the stand-ins' guesses, not your hooks'`,
    );
  for (const r of report.results.filter((x) => x.status === 'failed'))
    for (const f of r.failures)
      lines.push(
        '',
        `FAIL  ${r.version}  ${r.collection}  ${r.check}  (${f.operation})`,
        `      ${f.message}${f.repeats ? ` (and ${f.repeats} more time${f.repeats === 1 ? '' : 's'})` : ''}`,
        ...exchangeLines(f, '      '),
      );
  const skipped = report.results.filter((x) => x.status === 'skipped');
  if (skipped.length > 0) lines.push('', 'skipped:', ...skipped.map((r) => `  ${r.version}  ${r.collection}  ${r.check}: ${r.reason ?? ''}`));
  if (report.leftovers.length > 0)
    lines.push('', 'left behind (delete them yourself):', ...report.leftovers.map((l) => `  ${l.collection} ${l.id}: ${l.reason}`));
  lines.push(
    '',
    `${s.checks} checks: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped; ${report.requests} requests; ${report.leftovers.length} record${report.leftovers.length === 1 ? '' : 's'} left behind`,
  );
  if (report.incomplete.length > 0) lines.push('the run did not complete:', ...report.incomplete.map((i) => `  ${i.message}`));
  return printable(lines.join('\n') + '\n');
}

/** The report as JSON (two-space indented, trailing newline). */
export function formatJson(report: ConformanceReport): string {
  const s = summaryOf(report);
  const data = {
    formatVersion: REPORT_FORMAT_VERSION,
    api: report.api,
    url: report.url,
    versions: report.versions,
    concurrency: report.concurrency,
    summary: { ...s, requests: report.requests, leftovers: report.leftovers.length, complete: report.incomplete.length === 0 },
    results: report.results.map((r) => ({ ...r, description: CHECKS[r.check] })),
    leftovers: report.leftovers,
    incomplete: report.incomplete,
    standIns: report.standIns,
  };
  // JSON.stringify escapes C0 characters but leaves DEL and C1 as they are: escaped too, the data stays the same.
  return JSON.stringify(data, null, 2).replace(/[\x7f-\x9f]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) + '\n';
}

function attrs(values: Readonly<Record<string, string | number>>): string {
  return Object.entries(values)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');
}

/** The report as a JUnit XML document. */
export function formatJunit(report: ConformanceReport): string {
  const s = summaryOf(report);
  const groups = new Map<string, CheckResult[]>();
  for (const r of report.results) {
    const key = `${r.version}\0${r.collection}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const suites = [...groups.values()].map((results) => {
    const { version, collection } = results[0]!;
    // `v1 → v3` (the versions check) as a class name CI tools can show: `v1-v3`.
    const classname = `restgen.conformance.${version.replace(/\s*→\s*/g, '-')}.${collection}`;
    const cases = results.map((r) => {
      const head = `    <testcase${attrs({ classname, name: r.check })}>`;
      if (r.status === 'failed') {
        const text = r.failures.map((f) => [`${f.operation}: ${f.message}`, ...exchangeLines(f, '  ')].join('\n')).join('\n\n');
        return `${head}\n      <failure${attrs({ message: r.failures[0]!.message, type: r.check })}>${escapeXml(text)}</failure>\n    </testcase>`;
      }
      if (r.status === 'skipped') return `${head}\n      <skipped${attrs({ message: r.reason ?? '' })}/>\n    </testcase>`;
      return `    <testcase${attrs({ classname, name: r.check })}/>`;
    });
    const failed = results.filter((r) => r.status === 'failed').length;
    const skipped = results.filter((r) => r.status === 'skipped').length;
    return `  <testsuite${attrs({ name: `${version} ${collection}`, tests: results.length, failures: failed, errors: 0, skipped })}>\n${cases.join('\n')}\n  </testsuite>`;
  });
  // A run that could not complete is an error of the whole run (JUnit's errors: what kept tests from running).
  const root = `<testsuites${attrs({ name: `restgen conformance ${report.api}`, tests: s.checks, failures: s.failed, errors: report.incomplete.length, skipped: s.skipped })}>`;
  const incomplete =
    report.incomplete.length === 0
      ? ''
      : `  <testsuite${attrs({ name: 'the run', tests: 1, failures: 0, errors: 1, skipped: 0 })}>\n    <testcase${attrs({ classname: 'restgen.conformance.run', name: 'complete' })}>\n      <error${attrs({ message: 'the run did not complete', type: 'incomplete' })}>${escapeXml(report.incomplete.map((i) => i.message).join('\n'))}</error>\n    </testcase>\n  </testsuite>\n`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n${suites.join('\n')}\n${incomplete}</testsuites>\n`;
}

/** The report in `format`. */
export function formatReport(report: ConformanceReport, format: Format): string {
  return format === 'json' ? formatJson(report) : format === 'junit' ? formatJunit(report) : formatText(report);
}
