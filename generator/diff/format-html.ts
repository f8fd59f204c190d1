/**
 * @module The report as one self-contained HTML page for reviewers (inline CSS and script, no network, a
 * Content-Security-Policy that forbids any): a timeline of the versions (released, deprecated, sunset),
 * the findings of each comparison with filters by level and collection, and indexes of the routes and
 * client methods that link each to the findings touching it. Everything shown is decided and escaped
 * here; the template (`templates/changes/diff-report.html.hbs`) only lays it out.
 */
import { loadTemplates } from '../templates/load-templates.ts';
import { gates } from './gate.ts';
import { flagsOf, sourceOf, type FormatOptions } from './format-options.ts';
import { sunsetPassed } from './diff-history.ts';
import { headOfLocation, stableJson } from './collector.ts';
import { LEVELS, type DiffReport, type Finding, type Level, type VersionInfo } from './types.ts';

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** A link to an entry of the routes or client index. */
interface LinkView {
  readonly href: string;
  readonly text: string;
}

interface FindingView {
  readonly anchor: string;
  readonly level: Level;
  readonly collection: string;
  readonly id: string;
  readonly location: string;
  readonly version: string;
  readonly direction: string;
  readonly message: string;
  readonly changes: readonly string[];
  readonly source: string | false;
  readonly hint: string | false;
  readonly flags: string | false;
  readonly quiet: boolean;
  readonly fingerprint: string;
  readonly routes: readonly LinkView[];
  readonly client: readonly LinkView[];
}

interface ComparisonView {
  readonly title: string;
  readonly version: string;
  readonly counts: string;
  readonly findings: readonly FindingView[];
  readonly empty: boolean;
}

interface IndexEntryView {
  readonly anchor: string;
  readonly name: string;
  readonly findings: readonly LinkView[];
}

interface VersionView {
  readonly name: string;
  readonly status: string;
  readonly dates: readonly { readonly label: string; readonly date: string }[];
}

/** Everything the HTML template shows, escaped. */
export interface HtmlReportView {
  readonly title: string;
  readonly subtitle: string;
  readonly versions: readonly VersionView[];
  readonly levels: readonly { readonly level: Level; readonly count: number }[];
  readonly collections: readonly string[];
  readonly total: number;
  readonly comparisons: readonly ComparisonView[];
  readonly routes: readonly IndexEntryView[];
  readonly client: readonly IndexEntryView[];
}

/** An id-safe anchor for any text, unique per prefix thanks to a readable slug plus the text's own characters. */
function anchorOf(prefix: string, text: string): string {
  return `${prefix}-${text.replace(/[^A-Za-z0-9]+/g, (run) => `_${[...run].map((c) => c.codePointAt(0)!.toString(16)).join('.')}_`)}`;
}

function statusOf(v: VersionInfo, today: string | undefined): string {
  if (sunsetPassed(v.sunset, today)) return 'sunset';
  if (v.deprecated && (today === undefined || today >= v.deprecated)) return 'deprecated';
  if (v.released) return 'released';
  return 'unreleased';
}

/** A change's before or after value in words: a field as `enum(EUR, USD), required, default "EUR"`. */
function value(v: unknown): string {
  if (v === undefined || v === null) return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && !Array.isArray(v) && 'type' in v) {
    const f = v as { type: unknown; optional?: unknown; nullable?: unknown; default?: unknown; readOnly?: unknown; writeOnly?: unknown };
    const parts = [String(f.type), f.optional ? 'optional' : 'required', ...(f.nullable ? ['nullable'] : []), ...(f.readOnly ? ['read-only'] : []), ...(f.writeOnly ? ['write-only'] : [])];
    return `${parts.join(', ')}${'default' in f ? `, default ${stableJson(f.default)}` : ''}`;
  }
  return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : stableJson(x))).join(', ') || '(none)' : stableJson(v);
}

function findingView(f: Finding, options: FormatOptions): FindingView {
  const at = sourceOf(f, options.relativeTo);
  const flags = flagsOf(f);
  const head = headOfLocation(f.location);
  return {
    anchor: `f-${f.fingerprint}`,
    level: f.level,
    collection: escapeHtml(head),
    id: escapeHtml(f.id),
    location: escapeHtml(f.location),
    version: escapeHtml(f.version),
    direction: f.direction,
    message: escapeHtml(f.message),
    changes: f.changes.map((c) => escapeHtml(`${c.aspect}: ${value(c.before)} → ${value(c.after)}`)),
    source: at ? escapeHtml(`${at.file}:${at.line}:${at.column}`) : false,
    hint: f.hint ? escapeHtml(`${f.hint.marker} (${f.hint.confidence} confidence)`) : false,
    flags: flags.length ? escapeHtml(flags.join('; ')) : false,
    quiet: !gates(f),
    fingerprint: f.fingerprint,
    routes: f.affects.routes.map((r) => ({ href: `#${anchorOf('route', r)}`, text: escapeHtml(r) })),
    client: f.affects.client.map((c) => ({ href: `#${anchorOf('client', c)}`, text: escapeHtml(c) })),
  };
}

function indexOf(report: DiffReport, prefix: string, pick: (f: Finding) => readonly string[]): IndexEntryView[] {
  const entries = new Map<string, Finding[]>();
  for (const f of report.findings) for (const name of pick(f)) entries.set(name, [...(entries.get(name) ?? []), f]);
  return [...entries.keys()].sort().map((name) => ({
    anchor: anchorOf(prefix, name),
    name: escapeHtml(name),
    findings: entries.get(name)!.map((f) => ({ href: `#f-${f.fingerprint}`, text: escapeHtml(`${f.level} ${f.id} ${f.location} (${f.version})`) })),
  }));
}

/** The view of the HTML report. */
export function buildHtmlView(report: DiffReport, options: FormatOptions = {}): HtmlReportView {
  const s = report.summary;
  const collections = [...new Set(report.findings.map((f) => headOfLocation(f.location)))].sort();
  return {
    title: escapeHtml(`${report.api ?? 'API'} — changes ${report.from} → ${report.to}`),
    subtitle: escapeHtml(`${s.breaking} breaking, ${s.warning} warning${s.warning === 1 ? '' : 's'}, ${s.safe} safe${report.git ? ` · base ${report.git.base.ref} at ${report.git.base.commit.slice(0, 12)}` : ''}`),
    versions: report.versions.map((v) => ({
      name: escapeHtml(v.name),
      status: statusOf(v, options.today),
      dates: (['released', 'deprecated', 'sunset'] as const).flatMap((k) => (v[k] ? [{ label: k, date: escapeHtml(v[k]) }] : [])),
    })),
    levels: LEVELS.map((level) => ({ level, count: report.findings.filter((f) => f.level === level).length })),
    collections: collections.map(escapeHtml),
    total: report.findings.length,
    comparisons: report.comparisons.map((c) => {
      const findings = report.findings.filter((f) => f.version === c.version);
      const n = (l: Level) => findings.filter((f) => f.level === l).length;
      const title = c.from === c.version || c.to === c.version ? `${c.from} → ${c.to}` : `${c.version}: ${c.from} → ${c.to}`;
      return {
        title: escapeHtml(title),
        version: escapeHtml(c.version),
        counts: `${n('breaking')} breaking, ${n('warning')} warning, ${n('safe')} safe`,
        findings: findings.map((f) => findingView(f, options)),
        empty: findings.length === 0,
      };
    }),
    routes: indexOf(report, 'route', (f) => f.affects.routes),
    client: indexOf(report, 'client', (f) => f.affects.client),
  };
}

/** The report as a self-contained HTML page. */
export function formatHtml(report: DiffReport, options: FormatOptions = {}): string {
  const render = options.render ?? loadTemplates().render;
  return render('changes/diff-report.html', buildHtmlView(report, options));
}
