/**
 * @module The report as one self-contained HTML page for reviewers (inline CSS and script, no network, a
 * Content-Security-Policy that forbids any): a timeline of the versions (released, deprecated, sunset),
 * the findings of each comparison with filters by level and collection, indexes of the routes and
 * client methods that link each to the findings touching it, and the upgrade guide between released versions. Everything shown is decided and escaped
 * here; the template (`templates/changes/diff-report.html.hbs`) only lays it out.
 */
import { loadTemplates } from '../templates/load-templates.ts';
import { gates } from '../diff/gate.ts';
import { flagsOf, sourceOf, type FormatOptions } from './format-options.ts';
import { sunsetPassed } from '../diff/diff-history.ts';
import { changeValue as value } from './change-value.ts';
import { headOfLocation } from '../diff/collector.ts';
import { LEVELS, type DiffReport, type Finding, type Level, type VersionInfo } from '../diff/types.ts';
import { buildUpgradeGuide, type UpgradeSection } from './upgrade-guide.ts';

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
  readonly mcp: readonly LinkView[];
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

/** One change of the upgrade guide, escaped. */
interface UpgradeStepView {
  readonly level: Level;
  readonly location: string;
  readonly message: string;
  readonly todo: string;
  readonly changes: readonly string[];
  readonly id: string;
}

/** A client method, an event or the whole API in the upgrade guide, escaped. */
interface UpgradeTargetView {
  readonly title: string;
  readonly routes: string;
  readonly steps: readonly UpgradeStepView[];
}

/** Moving from one released version to another, escaped. */
interface UpgradeSectionView {
  readonly title: string;
  readonly intro: string;
  /** The older version's docs page (an https URL), or false. */
  readonly docs: string | false;
  readonly targets: readonly UpgradeTargetView[];
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
  readonly mcp: readonly IndexEntryView[];
  /** The upgrade guide: one section per comparison of two released versions (none with `--base`). */
  readonly upgrade: readonly UpgradeSectionView[];
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
    mcp: f.affects.mcp.map((t) => ({ href: `#${anchorOf('mcp', t)}`, text: escapeHtml(t) })),
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
    subtitle: escapeHtml(
      `${s.breaking} breaking, ${s.warning} warning${s.warning === 1 ? '' : 's'}, ${s.safe} safe${report.git ? ` · base ${report.git.base.ref} at ${report.git.base.commit.slice(0, 12)}` : ''}`,
    ),
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
    mcp: indexOf(report, 'mcp', (f) => f.affects.mcp),
    upgrade: buildUpgradeGuide(report).map(upgradeSectionView),
  };
}

/** The older version's dates, in words. */
function datesOf(v: VersionInfo): string {
  const dates = [v.deprecated ? `deprecated since ${v.deprecated}` : undefined, v.sunset ? `sunset on ${v.sunset} (410 Gone from then on)` : undefined].filter(
    Boolean,
  );
  return dates.length > 0 ? `${v.name}: ${dates.join(', ')}.` : `${v.name} is not deprecated.`;
}

function upgradeSectionView(s: UpgradeSection): UpgradeSectionView {
  const { breaking, warning, safe } = s.summary;
  return {
    title: escapeHtml(`${s.from.name} → ${s.to.name}`),
    intro: escapeHtml(`${datesOf(s.from)} ${breaking} breaking, ${warning} warning, ${safe} safe.`),
    docs: s.from.docs ? escapeHtml(s.from.docs) : false,
    targets: s.targets.map((t) => ({
      title: escapeHtml(t.kind === 'api' ? 'The whole API' : t.kind === 'event' ? `Event ${t.name}` : t.name),
      routes: escapeHtml(t.routes.join(', ')),
      steps: t.steps.map((step) => ({
        level: step.level,
        location: escapeHtml(step.location),
        message: escapeHtml(step.message),
        todo: escapeHtml(step.todo),
        changes: step.changes.map(escapeHtml),
        id: escapeHtml(step.id),
      })),
    })),
  };
}

/** The report as a self-contained HTML page. */
export function formatHtml(report: DiffReport, options: FormatOptions = {}): string {
  const render = options.render ?? loadTemplates().render;
  return render('changes/diff-report.html', buildHtmlView(report, options));
}

declare module '../templates/load-templates.ts' {
  /** The templates this module's views fill. */
  interface TemplateViews {
    'changes/diff-report.html': HtmlReportView;
  }
}
