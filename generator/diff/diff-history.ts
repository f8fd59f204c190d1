/**
 * @module The two questions the diff answers. Between versions (`--from v1 --to v2`): the migration notes.
 * Through history (`--base <ref>`): every version compared with itself at the base; changes to a version
 * released at the base keep their level, changes to unreleased and new versions are safe.
 */
import type { ApiIR } from '../model/ir.ts';
import { project } from '../model/project.ts';
import { FindingCollector, sortFindings, touchesOf } from './collector.ts';
import { diffApis } from './diff-apis.ts';
import { LEVELS, type DiffOptions, type DiffReport, type Finding, type Level } from './types.ts';

/** Counts findings per level. */
export function summarize(findings: readonly Finding[]): DiffReport['summary'] {
  const count = (l: Level) => findings.filter((f) => f.level === l).length;
  return { breaking: count('breaking'), warning: count('warning'), safe: count('safe') };
}

/** A report of `findings` between `from` and `to`. */
export function reportOf(from: string, to: string, findings: readonly Finding[]): DiffReport {
  return { from, to, summary: summarize(findings), findings };
}

/** Compares two versions of one API: the migration notes from `from` to `to`. */
export function diffVersions(api: ApiIR, from: string, to: string, options: DiffOptions = {}): DiffReport {
  return reportOf(from, to, diffApis(project(api, from), project(api, to), { match: 'key', ...options }));
}

/** Every pair of consecutive versions, oldest first. */
export function diffConsecutive(api: ApiIR, options: DiffOptions = {}): DiffReport[] {
  return api.versions.slice(1).map((v, i) => diffVersions(api, api.versions[i]!.name, v.name, options));
}

/** Several reports as one: from the first `from` to the last `to`, findings in report order. */
export function combineReports(reports: readonly DiffReport[]): DiffReport {
  const findings = reports.flatMap((r) => r.findings);
  return reportOf(reports[0]?.from ?? '', reports[reports.length - 1]?.to ?? '', findings);
}

/**
 * The version a marker should name to make a change to `version` properly: the first unreleased version
 * after it, else the next `vN` (or `a new version` when names are not `vN`).
 */
export function suggestNextVersion(api: ApiIR, version: string): string {
  const at = api.versions.findIndex((v) => v.name === version);
  const open = api.versions.find((v, i) => i > at && !v.released);
  if (open) return open.name;
  const numbers = api.versions.map((v) => /^v(\d+)$/.exec(v.name)?.[1]);
  if (numbers.every((n) => n !== undefined)) return `v${Math.max(...numbers.map(Number)) + 1}`;
  return 'a new version';
}

/** Whether a version's sunset has passed on `today` (both `YYYY-MM-DD`; a version answers 410 from its sunset on). */
export function sunsetPassed(sunset: string | undefined, today: string | undefined): boolean {
  return sunset !== undefined && today !== undefined && today >= sunset;
}

/**
 * Compares every version of `head` with itself in `base` (the API at a git ref; `undefined` when the
 * module did not exist there). `from`/`to` name the two points in history for the report.
 */
export function diffHistory(base: ApiIR | undefined, head: ApiIR, options: DiffOptions & { from: string; to: string }): DiffReport {
  const { from, to, ...rest } = options;
  const findings: Finding[] = [];
  const headNames = head.versions.map((v) => v.name);
  for (const v of base?.versions ?? []) {
    if (!headNames.includes(v.name)) {
      const out = new FindingCollector(v.name);
      const at = project(base!, v.name);
      const t = at.collections.flatMap((c) => touchesOf(at, c, c.operations));
      const passed = Boolean(v.deprecated) && sunsetPassed(v.sunset, options.today);
      out.add(passed ? 'version-removed-after-sunset' : 'version-removed', v.name, passed ? `${v.name} was removed after its sunset (${v.sunset})` : `${v.name} was removed${v.sunset ? ` before its sunset (${v.sunset})` : ' without a sunset'}`, { request: t, response: t });
      findings.push(...out.findings());
      continue;
    }
    const changes = diffApis(project(base!, v.name), project(head, v.name), {
      match: 'name',
      markerVersion: suggestNextVersion(head, v.name),
      ...rest,
    });
    // Only a released version is a promise to clients; anything else may still change freely.
    findings.push(...(v.released ? changes : sortFindings(changes.map((f) => ({ ...f, level: 'safe' as const, message: `${f.message} (${v.name} is not released)` })))));
  }
  for (const v of head.versions) {
    if (base?.versions.some((x) => x.name === v.name)) continue;
    const out = new FindingCollector(v.name);
    const at = project(head, v.name);
    const t = at.collections.flatMap((c) => touchesOf(at, c, c.operations));
    out.add('version-added', v.name, `${v.name} was added${v.released ? ` (released ${v.released})` : ''}`, { request: t, response: t });
    findings.push(...out.findings());
  }
  return reportOf(from, to, findings);
}

/** Whether any finding reaches `failOn` (`none` never does). */
export function reaches(findings: readonly Finding[], failOn: Level | 'none'): boolean {
  if (failOn === 'none') return false;
  return findings.some((f) => LEVELS.indexOf(f.level) <= LEVELS.indexOf(failOn));
}
