/**
 * @module Formats a diff report: `text` for terminals, `md` for review (pull request comments), `json` for
 * tools (shape and JSON Schema in `format-json.ts`), `github` for GitHub Actions annotations on the exact
 * builder line, `junit` for CI test reports, `html` for a self-contained page a reviewer opens.
 */
import { flagsOf, sourceOf, type FormatOptions } from './format-options.ts';
import { formatHtml } from './format-html.ts';
import { formatJson } from './format-json.ts';
import { formatJunit } from './format-junit.ts';
import { gates } from '../diff/gate.ts';
import type { DiffReport, Finding, Level } from '../diff/types.ts';

export { formatJson } from './format-json.ts';
export { formatJunit } from './format-junit.ts';
export { formatHtml } from './format-html.ts';
export { flagsOf, sourceOf, type FormatOptions } from './format-options.ts';

/** The formats `restgen diff --format` accepts. */
export const FORMATS = ['text', 'md', 'json', 'github', 'junit', 'html'] as const;

/** A report format. */
export type ReportFormat = (typeof FORMATS)[number];

function counts(report: DiffReport): string {
  const s = report.summary;
  return `${s.breaking} breaking, ${s.warning} warning${s.warning === 1 ? '' : 's'}, ${s.safe} safe`;
}

function some(items: readonly string[], max: number): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

/** The report for a terminal. */
export function formatText(report: DiffReport, options: FormatOptions = {}): string {
  const max = options.maxRoutes ?? 6;
  const lines = [`restgen diff ${report.from} → ${report.to}: ${counts(report)}`];
  for (const f of report.findings) {
    const flags = flagsOf(f);
    lines.push(
      '',
      `${f.level.padEnd(8)} ${f.id}  ${f.location}  [${f.version}, ${f.direction}]${flags.length ? `  (${flags.join('; ')})` : ''}`,
      `         ${f.message}`,
    );
    const at = sourceOf(f, options.relativeTo);
    if (at) lines.push(`         at ${at.file}:${at.line}:${at.column}`);
    if (f.hint) lines.push(`         hint (${f.hint.confidence} confidence): ${f.hint.marker}`);
    if (f.affects.routes.length) lines.push(`         routes: ${some(f.affects.routes, max)}`, `         client: ${some(f.affects.client, max)}`);
  }
  if (report.findings.length === 0) lines.push('no changes');
  return lines.join('\n') + '\n';
}

const code = (s: string) => '`' + s.replace(/`/g, "'") + '`';
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The report as Markdown, for a pull request comment: a summary, then a row per finding with its routes, client methods and fingerprint. */
export function formatMarkdown(report: DiffReport, options: FormatOptions = {}): string {
  const max = options.maxRoutes ?? 6;
  const s = report.summary;
  const lines = [
    `### API changes: ${report.from} → ${report.to}`,
    '',
    '| breaking | warning | safe |',
    '| ---: | ---: | ---: |',
    `| ${s.breaking} | ${s.warning} | ${s.safe} |`,
  ];
  if (report.findings.length) {
    lines.push('', '| level | version | location | change | id | routes | client | fingerprint |', '| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const f of report.findings) {
      const level = f.level === 'breaking' && gates(f) ? '**breaking**' : f.level;
      const flags = flagsOf(f);
      const change = `${f.message} (${f.direction})${flags.length ? ` _${flags.join('; ')}_` : ''}${f.hint ? ` Hint: ${f.hint.marker}` : ''}`;
      lines.push(
        `| ${level} | ${f.version} | ${code(f.location)} | ${cell(change)} | ${code(f.id)} | ${cell(some(f.affects.routes.map(code), max))} | ${cell(some(f.affects.client.map(code), max))} | ${code(f.fingerprint)} |`,
      );
    }
  }
  return lines.join('\n') + '\n';
}

const ANNOTATION: { readonly [L in Level]: string } = { breaking: 'error', warning: 'warning', safe: 'notice' };

/** GitHub's workflow-command escaping: data escapes %, CR, LF; properties also `:` and `,`. */
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function annotation(f: Finding, options: FormatOptions): string {
  const props: string[] = [];
  const at = sourceOf(f, options.relativeTo);
  if (at) props.push(`file=${escapeProperty(at.file)}`, `line=${at.line}`, ...(f.column ? [`col=${f.column}`] : []));
  props.push(`title=${escapeProperty(`${f.level} ${f.id} (${f.location})`)}`);
  const flags = flagsOf(f);
  // A finding that cannot fail the run (unreleased, accepted) is information, whatever its level.
  const kind = gates(f) ? ANNOTATION[f.level] : 'notice';
  return `::${kind} ${props.join(',')}::${escapeData(`${f.message} [${f.version}, ${f.direction}]${flags.length ? ` (${flags.join('; ')})` : ''}`)}`;
}

/** The report as GitHub Actions workflow commands: one annotation per finding, then a summary line. */
export function formatGithub(report: DiffReport, options: FormatOptions = {}): string {
  const lines = report.findings.map((f) => annotation(f, options));
  lines.push(`restgen diff ${report.from} → ${report.to}: ${counts(report)}`);
  return lines.join('\n') + '\n';
}

/** Formats `report` in `format`. */
export function formatReport(report: DiffReport, format: ReportFormat, options: FormatOptions = {}): string {
  switch (format) {
    case 'json':
      return formatJson(report, options);
    case 'md':
      return formatMarkdown(report, options);
    case 'github':
      return formatGithub(report, options);
    case 'junit':
      return formatJunit(report, options);
    case 'html':
      return formatHtml(report, options);
    case 'text':
      return formatText(report, options);
  }
}
