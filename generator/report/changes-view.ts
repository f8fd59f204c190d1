/**
 * @module The view model of CHANGES.md: per pair of consecutive versions, the counts per level and the
 * findings grouped by collection (API-wide changes first), each with its routes and client methods.
 * Everything the template shows is decided here; the template only lays it out.
 */
import { markdownTable } from './markdown-table.ts';
import { headOfLocation } from '../diff/collector.ts';
import type { DiffReport, Direction, Finding } from '../diff/types.ts';
import type { ApiAt, ApiIR } from '../model/ir.ts';

/** One finding as CHANGES.md shows it. */
export interface FindingView {
  readonly level: string;
  readonly id: string;
  readonly location: string;
  readonly direction: string;
  readonly message: string;
  /** Inline code list of routes, or false when none. */
  readonly routes: string | false;
  readonly client: string | false;
}

/** Findings of one collection (or of the API as a whole). */
export interface GroupView {
  readonly title: string;
  readonly findings: readonly FindingView[];
}

/** One pair of consecutive versions. */
export interface PairView {
  readonly from: string;
  readonly to: string;
  readonly breaking: number;
  readonly warning: number;
  readonly safe: number;
  /** The summary table, laid out as prettier would. */
  readonly summary: string;
  readonly empty: boolean;
  readonly groups: readonly GroupView[];
}

/** The whole view of CHANGES.md. */
export interface ChangesView {
  readonly title: string;
  readonly sourcePath: string;
  /** The versions and their dates, as a table laid out as prettier would. */
  readonly versions: string;
  readonly pairs: readonly PairView[];
  readonly single: boolean;
}

const DIRECTION: { readonly [D in Direction]: string } = { both: 'requests and responses', request: 'requests', response: 'responses' };

/** Escapes what Markdown would read as formatting in free text (patterns carry `*`, `[`, `\`). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|#]/g, (c) => `\\${c}`);
}

const codeList = (items: readonly string[]) => (items.length ? items.map((s) => `\`${s}\``).join(', ') : false);

function findingView(f: Finding): FindingView {
  return {
    level: f.level,
    id: f.id,
    location: f.location,
    direction: DIRECTION[f.direction],
    message: escapeMarkdown(f.message),
    routes: codeList(f.affects.routes),
    client: codeList(f.affects.client),
  };
}

/** The section of one pair of versions (`before`, `after`: their projections) from the report comparing them. */
export function pairView(before: ApiAt, after: ApiAt, report: DiffReport): PairView {
  // Collections in the later version's order, then those only the earlier one has.
  const names = new Set(after.collections.map((c) => c.name));
  const order = [...names, ...before.collections.map((c) => c.name).filter((n) => !names.has(n))];
  const known = new Set(order);
  const groups = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const head = headOfLocation(f.location);
    const title = known.has(head) ? head : 'API';
    const group = groups.get(title);
    if (group) group.push(f);
    else groups.set(title, [f]);
  }
  const titles = ['API', ...order].filter((t) => groups.has(t));
  return {
    from: report.from,
    to: report.to,
    ...report.summary,
    summary: markdownTable(
      ['breaking', 'warning', 'safe'],
      [[String(report.summary.breaking), String(report.summary.warning), String(report.summary.safe)]],
      ['right', 'right', 'right'],
    ),
    empty: report.findings.length === 0,
    groups: titles.map((title) => ({ title, findings: groups.get(title)!.map(findingView) })),
  };
}

/** The view of CHANGES.md for `api`; `pairs`: the section of each consecutive pair of versions, in order. */
export function buildChangesView(api: ApiIR, sourcePath: string, pairs: readonly PairView[]): ChangesView {
  return {
    title: api.title,
    sourcePath,
    versions: markdownTable(
      ['version', 'released', 'deprecated', 'sunset'],
      api.versions.map((v) => [v.name, v.released ?? 'not yet', v.deprecated ?? '-', v.sunset ?? '-']),
      ['left', 'left', 'left', 'left'],
    ),
    pairs,
    single: api.versions.length < 2,
  };
}

declare module '../templates/load-templates.ts' {
  /** The templates this module's views fill. */
  interface TemplateViews {
    'changes/changes': ChangesView;
  }
}
