/**
 * @module The conformance report in three formats: `text` for terminals (each failure with its version,
 * collection, operation, request and answer; skipped checks with their reason; a summary), `json` for tools
 * (the whole report, with a `formatVersion`), and `junit` for CI test reports (one `<testsuite>` per version
 * and collection, one `<testcase>` per check), as `restgen diff` writes them.
 */
import { escapeXml } from '../report/format-junit.ts';
import { shownHeaders } from './http.ts';
import { CHECKS, type CheckResult, type ConformanceReport, type Failure } from './types.ts';

/** The formats `restgen conformance --format` accepts. */
export const FORMATS = ['text', 'json', 'junit'] as const;
/** A report format. */
export type Format = (typeof FORMATS)[number];

/** The version of the JSON report's shape; bumped only when a member changes meaning or is removed. */
export const REPORT_FORMAT_VERSION = 1;

/** The counts of a report. */
export function summaryOf(report: ConformanceReport): { checks: number; passed: number; failed: number; skipped: number } {
  const count = (status: CheckResult['status']) => report.results.filter((r) => r.status === status).length;
  return { checks: report.results.length, passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

const json = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

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
  return lines.join('\n') + '\n';
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
    summary: { ...s, requests: report.requests, leftovers: report.leftovers.length },
    results: report.results.map((r) => ({ ...r, description: CHECKS[r.check] })),
    leftovers: report.leftovers,
  };
  return JSON.stringify(data, null, 2) + '\n';
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
  const root = `<testsuites${attrs({ name: `restgen conformance ${report.api}`, tests: s.checks, failures: s.failed, errors: 0, skipped: s.skipped })}>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n${suites.join('\n')}\n</testsuites>\n`;
}

/** The report in `format`. */
export function formatReport(report: ConformanceReport, format: Format): string {
  return format === 'json' ? formatJson(report) : format === 'junit' ? formatJunit(report) : formatText(report);
}
