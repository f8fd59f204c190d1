/**
 * @module The report as JUnit XML, the test-report format CI systems read (GitHub, GitLab, Jenkins, Azure):
 * one `<testsuite>` per comparison (a pair of versions, or one version against the base), one `<testcase>`
 * per finding. A finding that reaches `--fail-on` is a `<failure>`; one that never can (unreleased,
 * accepted) is `<skipped>` when it is breaking; everything else passes, with its message as output.
 */
import { headOfLocation } from '../diff/collector.ts';
import { failsOn, gates } from '../diff/gate.ts';
import { flagsOf, sourceOf, type FormatOptions } from './format-options.ts';
import type { Comparison, DiffReport, Finding } from '../diff/types.ts';

/** Escapes text for XML content and attribute values; drops characters XML 1.0 cannot carry. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function attrs(values: Readonly<Record<string, string | number | undefined>>): string {
  return Object.entries(values)
    .filter((e): e is [string, string | number] => e[1] !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');
}

function details(f: Finding, options: FormatOptions): string {
  const at = sourceOf(f, options.relativeTo);
  return [
    f.message,
    `id: ${f.id} (${f.level}, ${f.direction})`,
    ...(at ? [`at: ${at.file}:${at.line}:${at.column}`] : []),
    ...(f.hint ? [`hint: ${f.hint.marker}`] : []),
    ...(f.affects.routes.length ? [`routes: ${f.affects.routes.join(', ')}`, `client: ${f.affects.client.join(', ')}`] : []),
    ...(f.affects.mcp.length ? [`MCP tools: ${f.affects.mcp.join(', ')}`] : []),
    ...flagsOf(f),
    `fingerprint: ${f.fingerprint}`,
  ].join('\n');
}

function testcase(f: Finding, c: Comparison, options: FormatOptions): string {
  const at = sourceOf(f, options.relativeTo);
  const head = `    <testcase${attrs({ classname: `restgen.diff.${c.version}.${headOfLocation(f.location)}`, name: `${f.id} ${f.location}`, file: at?.file, line: at?.line })}>`;
  const body = details(f, options);
  if (failsOn(f, options.failOn ?? 'none'))
    return `${head}\n      <failure${attrs({ message: f.message, type: f.level })}>${escapeXml(body)}</failure>\n    </testcase>`;
  if (f.level === 'breaking' && !gates(f))
    return `${head}\n      <skipped${attrs({ message: flagsOf(f).join('; ') })}/>\n      <system-out>${escapeXml(body)}</system-out>\n    </testcase>`;
  return `${head}\n      <system-out>${escapeXml(body)}</system-out>\n    </testcase>`;
}

/** The report as a JUnit XML document. */
export function formatJunit(report: DiffReport, options: FormatOptions = {}): string {
  const failOn = options.failOn ?? 'none';
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  for (const c of report.comparisons) {
    const findings = report.findings.filter((f) => f.version === c.version);
    const fail = findings.filter((f) => failsOn(f, failOn)).length;
    const skip = findings.filter((f) => !failsOn(f, failOn) && f.level === 'breaking' && !gates(f)).length;
    const cases = findings.map((f) => testcase(f, c, options));
    // A comparison without findings still shows up as one passing check.
    if (cases.length === 0) cases.push(`    <testcase${attrs({ classname: `restgen.diff.${c.version}`, name: 'no changes' })}/>`);
    tests += cases.length;
    failures += fail;
    skipped += skip;
    const name = c.from === c.version || c.to === c.version ? `${c.from} → ${c.to}` : `${c.version}: ${c.from} → ${c.to}`;
    suites.push(`  <testsuite${attrs({ name, tests: cases.length, failures: fail, errors: 0, skipped: skip })}>\n${cases.join('\n')}\n  </testsuite>`);
  }
  const root = `<testsuites${attrs({ name: `restgen diff ${report.from} → ${report.to}`, tests, failures, errors: 0, skipped })}>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n${suites.join('\n')}\n</testsuites>\n`;
}
