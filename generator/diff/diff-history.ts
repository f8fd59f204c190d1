/**
 * @module The two questions the diff answers. Between versions (`--from v1 --to v2`): the migration notes.
 * Through history (`--base <ref>`): every version compared with itself at the base; changes to a version
 * released at the base keep their level, changes to unreleased and new versions are safe.
 */
import type { ApiAt, ApiIR } from '../model/ir.ts';
import { project } from '../model/project.ts';
import { FindingCollector, touchesOf } from './collector.ts';
import { diffApis } from './diff-apis.ts';
import { NEW_VERSION, type Comparison, type DerivedEvent, type DiffOptions, type DiffReport, type Finding, type Level, type VersionInfo } from './types.ts';
import { atPath } from '../model/diagnostics.ts';

/** Counts findings per level. */
export function summarize(findings: readonly Finding[]): DiffReport['summary'] {
  const count = (l: Level) => findings.filter((f) => f.level === l).length;
  return { breaking: count('breaking'), warning: count('warning'), safe: count('safe') };
}

/** The versions of `api` and their dates, for a report's timeline. */
export function versionsOf(api: ApiIR): VersionInfo[] {
  return api.versions.map((v) => ({
    name: v.name,
    ...(v.released ? { released: v.released } : {}),
    ...(v.deprecated ? { deprecated: v.deprecated } : {}),
    ...(v.sunset ? { sunset: v.sunset } : {}),
    ...(v.docs ? { docs: v.docs } : {}),
  }));
}

/** The derived webhook events a version delivers (`at`: its projection), each with its collection (for the upgrade guide). */
function derivedEventsOf(at: ApiAt): DerivedEvent[] {
  const version = at.version.name;
  return (at.events ?? []).flatMap((e) => (e.source.kind === 'resource' ? [{ version, type: e.type, collection: e.source.collection }] : []));
}

/** `report` with the derived events of its later version (`at`: its projection), when it delivers any. */
export const withEvents = (report: DiffReport, at: ApiAt): DiffReport => {
  const events = derivedEventsOf(at);
  return events.length > 0 ? { ...report, events } : report;
};

/** A report of `findings` between `from` and `to`. */
export function reportOf(
  from: string,
  to: string,
  findings: readonly Finding[],
  comparisons: readonly Comparison[],
  versions: readonly VersionInfo[],
): DiffReport {
  return { from, to, summary: summarize(findings), findings, comparisons, versions };
}

/** Compares two versions of one API: the migration notes from `from` to `to`. */
export function diffVersions(api: ApiIR, from: string, to: string, options: DiffOptions = {}): DiffReport {
  const after = project(api, to);
  return withEvents(reportOf(from, to, diffApis(project(api, from), after, { match: 'key', ...options }), [{ from, to, version: to }], versionsOf(api)), after);
}

/** Every pair of consecutive versions, oldest first. */
export function diffConsecutive(api: ApiIR, options: DiffOptions = {}): DiffReport[] {
  return api.versions.slice(1).map((v, i) => diffVersions(api, api.versions[i]!.name, v.name, options));
}

/** Several reports as one: from the first `from` to the last `to`, findings in report order. */
export function combineReports(reports: readonly DiffReport[]): DiffReport {
  const findings = reports.flatMap((r) => r.findings);
  const events = reports.flatMap((r) => r.events ?? []);
  const combined = reportOf(
    reports[0]?.from ?? '',
    reports[reports.length - 1]?.to ?? '',
    findings,
    reports.flatMap((r) => r.comparisons),
    reports[0]?.versions ?? [],
  );
  return events.length > 0 ? { ...combined, events } : combined;
}

/**
 * The version a marker in a hint should name for a change found in `version` when comparing it through
 * history: an unreleased version names itself (it may change, and the version before it holds the old
 * shape); a released one the first unreleased version after it. Null when the API declares no such
 * version: hints then say to add one, never naming a version that does not exist.
 */
export function markerVersionFor(api: ApiIR, version: string): string | null {
  const at = api.versions.findIndex((v) => v.name === version);
  const self = api.versions[at];
  if (self && !self.released) return at > 0 ? self.name : null;
  return api.versions.find((v, i) => i > at && !v.released)?.name ?? null;
}

/**
 * The version a marker should name to make a change to `version` properly: the first unreleased version
 * after it, else the next `vN` (or {@link NEW_VERSION} when names are not `vN`), which is to be added first.
 */
export function suggestNextVersion(api: ApiIR, version: string): string {
  const at = api.versions.findIndex((v) => v.name === version);
  const open = api.versions.find((v, i) => i > at && !v.released);
  if (open) return open.name;
  const numbers = api.versions.map((v) => /^v(\d+)$/.exec(v.name)?.[1]);
  if (numbers.every((n) => n !== undefined)) return `v${Math.max(...numbers.map(Number)) + 1}`;
  return NEW_VERSION;
}

/** Whether a version's sunset has passed on `today` (both `YYYY-MM-DD`; a version answers 410 from its sunset on). */
export function sunsetPassed(sunset: string | undefined, today: string | undefined): boolean {
  return sunset !== undefined && today !== undefined && today >= sunset;
}

/**
 * Compares every version of `head` with itself in `base` (the API at a git ref; `undefined` when the
 * module did not exist there). `from`/`to` name the two points in history for the report. Findings keep
 * their rule's level; those on a version not released at the base are marked `unreleased` (they never fail).
 */
export function diffHistory(base: ApiIR | undefined, head: ApiIR, options: DiffOptions & { from: string; to: string }): DiffReport {
  const { from, to, ...rest } = options;
  const findings: Finding[] = [];
  const comparisons: Comparison[] = [];
  const headNames = head.versions.map((v) => v.name);
  for (const v of base?.versions ?? []) {
    comparisons.push({ from, to, version: v.name });
    let changes: Finding[];
    if (!headNames.includes(v.name)) {
      const out = new FindingCollector(v.name);
      const at = project(base!, v.name);
      const t = at.collections.flatMap((c) => touchesOf(at, c, c.operations));
      const passed = Boolean(v.deprecated) && sunsetPassed(v.sunset, options.today);
      const why = passed
        ? `${v.name} was removed after its sunset (${v.sunset})`
        : `${v.name} was removed${v.sunset ? ` before its sunset (${v.sunset})` : ' without a sunset'}`;
      out.add(
        passed ? 'version-removed-after-sunset' : 'version-removed',
        v.name,
        why,
        { request: t, response: t },
        head.loc ? atPath(head.loc, ['versions']) : undefined,
        { aspect: 'version', before: v.name },
      );
      changes = out.findings();
    } else changes = diffApis(project(base!, v.name), project(head, v.name), { match: 'name', ...rest, markerVersion: markerVersionFor(head, v.name) });
    // Only a released version is a promise to clients; anything else may still change freely.
    findings.push(...(v.released ? changes : changes.map((f) => ({ ...f, unreleased: true }))));
  }
  for (const v of head.versions) {
    if (base?.versions.some((x) => x.name === v.name)) continue;
    comparisons.push({ from, to, version: v.name });
    const out = new FindingCollector(v.name);
    const at = project(head, v.name);
    const t = at.collections.flatMap((c) => touchesOf(at, c, c.operations));
    out.add(
      'version-added',
      v.name,
      `${v.name} was added${v.released ? ` (released ${v.released})` : ''}`,
      { request: t, response: t },
      head.loc ? atPath(head.loc, ['versions', v.name]) : undefined,
      { aspect: 'version', after: v.name },
    );
    findings.push(...out.findings());
  }
  return reportOf(from, to, findings, comparisons, versionsOf(head));
}
