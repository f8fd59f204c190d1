/**
 * @module The view model of UPGRADING.md: for each pair of consecutive released versions, the guide a client
 * author follows to move up (`buildUpgradeGuide` over the diff engine's findings), with the older version's
 * deprecation and sunset dates and docs page, and how to select the newer version. Everything shown is
 * decided and escaped here; the template only lays it out.
 */
import { combineReports } from '../diff/diff-history.ts';
import type { DiffReport, VersionInfo } from '../diff/types.ts';
import { buildUpgradeGuide, type UpgradeStep, type UpgradeTarget } from './upgrade-guide.ts';
import type { ApiIR } from '../model/ir.ts';
import { escapeMarkdown } from './changes-view.ts';

/** One change as UPGRADING.md shows it. */
export interface StepView {
  readonly level: string;
  /** `accounts.name`: where it changed. */
  readonly location: string;
  /** The finding's message and what to do, escaped. */
  readonly text: string;
  /** The before and after values, escaped, or false. */
  readonly changes: string | false;
  readonly id: string;
}

/** A client method, an event, or the API as a whole. */
export interface TargetView {
  readonly title: string;
  readonly steps: readonly StepView[];
}

/** Moving from one released version to the next. */
export interface SectionView {
  readonly from: string;
  readonly to: string;
  /** The older version's dates and docs page, and how to select the newer one: sentences. */
  readonly intro: string;
  readonly counts: string;
  readonly empty: boolean;
  readonly targets: readonly TargetView[];
}

/** The whole view of UPGRADING.md. */
export interface UpgradingView {
  readonly title: string;
  readonly sourcePath: string;
  readonly sections: readonly SectionView[];
  /** Fewer than two released versions: nothing to upgrade between yet. */
  readonly none: boolean;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** How a client moves to `version`: the header it sends, or the path it calls, and the generated client's namespace. */
function selectSentence(api: ApiIR, version: string): string {
  const namespace = IDENTIFIER.test(version) ? `client.${version}` : `client["${version}"]`;
  const how = api.versioning.in === 'header' ? `send \`${api.versioning.header}: ${version}\`` : `call the paths under \`/${version}/\``;
  return `To move, ${how} (with the generated client, use \`${namespace}\`) and make the changes below.`;
}

/** The older version's lifecycle: deprecation, sunset, docs page. */
function datesSentence(v: VersionInfo): string {
  const parts: string[] = [];
  if (v.deprecated) parts.push(`\`${v.name}\` is deprecated since ${v.deprecated}`);
  if (v.sunset) parts.push(`${parts.length > 0 ? 'it' : `\`${v.name}\``} sunsets on ${v.sunset}, and answers 410 Gone from then on`);
  const dates = parts.length > 0 ? `${parts.join('; ')}.` : `\`${v.name}\` is not deprecated yet.`;
  return v.docs ? `${dates} Its migration notes: <${v.docs}>.` : dates;
}

function stepView(step: UpgradeStep): StepView {
  return {
    level: step.level,
    location: step.location,
    text: `${escapeMarkdown(step.message)}. ${escapeMarkdown(step.todo)}`,
    changes: step.changes.length > 0 ? escapeMarkdown(step.changes.join('; ')) : false,
    id: step.id,
  };
}

function titleOf(t: UpgradeTarget): string {
  if (t.kind === 'api') return 'The whole API';
  const routes = t.routes.map((r) => `\`${r}\``).join(', ');
  return t.kind === 'event' ? `Event \`${t.name}\`` : `\`${t.name}\` (${routes})`;
}

/** The view of UPGRADING.md for `api`; `reports`: the comparison of each consecutive pair of released versions, in order. */
export function buildUpgradingView(api: ApiIR, sourcePath: string, reports: readonly DiffReport[]): UpgradingView {
  const guide = reports.length > 0 ? buildUpgradeGuide(combineReports(reports)) : [];
  return {
    title: api.title,
    sourcePath,
    none: guide.length === 0,
    sections: guide.map((s) => {
      const { breaking, warning, safe } = s.summary;
      return {
        from: s.from.name,
        to: s.to.name,
        intro: `${datesSentence(s.from)} ${selectSentence(api, s.to.name)}`,
        counts: `${breaking} breaking, ${warning} warning${warning === 1 ? '' : 's'}, ${safe} safe`,
        empty: s.targets.length === 0,
        targets: s.targets.map((t) => ({ title: titleOf(t), steps: t.steps.map(stepView) })),
      };
    }),
  };
}

declare module '../templates/load-templates.ts' {
  /** The templates this module's views fill. */
  interface TemplateViews {
    'changes/upgrading': UpgradingView;
  }
}
