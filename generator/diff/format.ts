/**
 * @module Formats a diff report: `text` for terminals, `md` for review (pull request comments), `json`
 * for tools (the shape documented in the README), `github` for GitHub Actions annotations.
 */
import path from 'node:path';
import type { DiffReport, Finding, Level } from './types.ts';

/** The formats `restgen diff --format` accepts. */
export const FORMATS = ['text', 'md', 'json', 'github'] as const;

/** A report format. */
export type Format = (typeof FORMATS)[number];

/** Options of the formatters. */
export interface FormatOptions {
  /** Source paths in annotations are made relative to this folder (the repository root or cwd). */
  readonly relativeTo?: string;
  /** At most this many routes per finding in text and Markdown (all in JSON). Default 6. */
  readonly maxRoutes?: number;
}

/** The report as JSON (two-space indented, trailing newline); `loc` is left out. */
export function formatJson(report: DiffReport): string {
  const findings = report.findings.map((f) => ({
    id: f.id,
    level: f.level,
    version: f.version,
    location: f.location,
    direction: f.direction,
    message: f.message,
    affects: { routes: f.affects.routes, client: f.affects.client },
    fingerprint: f.fingerprint,
  }));
  return JSON.stringify({ from: report.from, to: report.to, summary: report.summary, findings }, null, 2) + '\n';
}

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
    lines.push('', `${f.level.padEnd(8)} ${f.id}  ${f.location}  [${f.version}, ${f.direction}]`, `         ${f.message}`);
    if (f.affects.routes.length) lines.push(`         routes: ${some(f.affects.routes, max)}`, `         client: ${some(f.affects.client, max)}`);
  }
  if (report.findings.length === 0) lines.push('no changes');
  return lines.join('\n') + '\n';
}

const code = (s: string) => '`' + s.replace(/`/g, "'") + '`';
const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The report as Markdown, for a pull request comment. */
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
    lines.push('', '| level | version | location | change | id | affects |', '| --- | --- | --- | --- | --- | --- |');
    for (const f of report.findings) {
      const level = f.level === 'breaking' ? '**breaking**' : f.level;
      lines.push(`| ${level} | ${f.version} | ${code(f.location)} | ${cell(f.message)} (${f.direction}) | ${code(f.id)} | ${cell(some(f.affects.routes.map(code), max))} |`);
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
  if (f.loc) {
    const file = options.relativeTo ? path.relative(options.relativeTo, f.loc.file) : f.loc.file;
    props.push(`file=${escapeProperty(file.split(path.sep).join('/'))}`, `line=${f.loc.line}`);
  }
  props.push(`title=${escapeProperty(`${f.level} ${f.id} (${f.location})`)}`);
  return `::${ANNOTATION[f.level]} ${props.join(',')}::${escapeData(`${f.message} [${f.version}, ${f.direction}]`)}`;
}

/** The report as GitHub Actions workflow commands: one annotation per finding, then a summary line. */
export function formatGithub(report: DiffReport, options: FormatOptions = {}): string {
  const lines = report.findings.map((f) => annotation(f, options));
  lines.push(`restgen diff ${report.from} → ${report.to}: ${counts(report)}`);
  return lines.join('\n') + '\n';
}

/** Formats `report` in `format`. */
export function formatReport(report: DiffReport, format: Format, options: FormatOptions = {}): string {
  switch (format) {
    case 'json':
      return formatJson(report);
    case 'md':
      return formatMarkdown(report, options);
    case 'github':
      return formatGithub(report, options);
    case 'text':
      return formatText(report, options);
  }
}
