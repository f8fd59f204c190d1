/**
 * @module What makes a report fail: severity overrides (a project may judge a rule differently, or turn it
 * off), deliberate breaks accepted in the lock, and `--fail-on`. Findings on unreleased versions and
 * accepted ones are listed with their level but never fail.
 */
import { allFindingIds, RULES } from './rules.ts';
import { sortFindings } from './collector.ts';
import { LEVELS, type AcceptedBreak, type DiffReport, type Finding, type Level, type SeverityOverrides } from './types.ts';

/** The levels a severity override may give: a level, or `off` to drop the finding. */
export const SEVERITIES = ['breaking', 'warning', 'safe', 'off'] as const;

/** The keys of `overrides` that name neither a finding id nor a rule (`optional-field-removed` covers both sides). */
export function unknownSeverityIds(overrides: SeverityOverrides): string[] {
  const known = new Set<string>([...allFindingIds().map((x) => x.id), ...Object.keys(RULES)]);
  return Object.keys(overrides).filter((id) => !known.has(id));
}

/** The override for a finding id: the id's own, else its rule's (the id without its side prefix). */
function overrideOf(id: string, overrides: SeverityOverrides): Level | 'off' | undefined {
  return overrides[id] ?? overrides[id.replace(/^(request|response)-/, '')];
}

/** Applies severity overrides: a finding's level becomes the override (its rule's level kept as `ruleLevel`); `off` drops it. */
export function applySeverity(findings: readonly Finding[], overrides: SeverityOverrides): Finding[] {
  const out: Finding[] = [];
  for (const f of findings) {
    const level = overrideOf(f.id, overrides);
    if (level === 'off') continue;
    out.push(level === undefined || level === f.level ? f : { ...f, level, ruleLevel: f.ruleLevel ?? f.level });
  }
  return out;
}

/** Marks the findings whose fingerprint the lock records as a deliberate break. */
export function applyAcceptance(findings: readonly Finding[], accepted: readonly AcceptedBreak[]): Finding[] {
  const byPrint = new Map(accepted.map((a) => [a.fingerprint, a]));
  return findings.map((f) => {
    const a = byPrint.get(f.fingerprint);
    return a ? { ...f, accepted: a } : f;
  });
}

/** Whether a finding counts towards `--fail-on`: not on an unreleased version, not accepted. */
export function gates(f: Finding): boolean {
  return !f.unreleased && !f.accepted;
}

/** Whether `f` reaches `failOn` (`none` never does); unreleased and accepted findings never do. */
export function failsOn(f: Finding, failOn: Level | 'none'): boolean {
  return failOn !== 'none' && gates(f) && LEVELS.indexOf(f.level) <= LEVELS.indexOf(failOn);
}

/** Whether any finding reaches `failOn`. */
export function reaches(findings: readonly Finding[], failOn: Level | 'none'): boolean {
  return findings.some((f) => failsOn(f, failOn));
}

/** A report with overrides and acceptance applied, findings re-sorted per comparison and counts redone. */
export function gateReport(report: DiffReport, options: { readonly severity?: SeverityOverrides; readonly accepted?: readonly AcceptedBreak[] }): DiffReport {
  let findings = applySeverity(report.findings, options.severity ?? {});
  if (options.accepted?.length) findings = applyAcceptance(findings, options.accepted);
  // Keep comparison order; inside one comparison, worst first again (an override may have moved one).
  const order = report.comparisons.map((c) => c.version);
  const groups = new Map<string, Finding[]>();
  for (const f of findings) groups.set(f.version, [...(groups.get(f.version) ?? []), f]);
  const sorted = [...groups.entries()].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)).flatMap(([, fs]) => sortFindings(fs));
  const count = (l: Level) => sorted.filter((f) => f.level === l).length;
  return { ...report, findings: sorted, summary: { breaking: count('breaking'), warning: count('warning'), safe: count('safe') } };
}
