/**
 * @module The version diff: a pure engine that classifies changes between two projections of an API by
 * the rules of breaking-changes.md. Its reports are formatted above it, in `report/`.
 */
export { diffApis, reportPossibleRenames } from './diff-apis.ts';
export {
  combineReports,
  diffConsecutive,
  diffHistory,
  diffVersions,
  markerVersionFor,
  reportOf,
  suggestNextVersion,
  summarize,
  sunsetPassed,
  versionsOf,
} from './diff-history.ts';
export { applyAcceptance, applySeverity, failsOn, gateReport, reaches, SEVERITIES, unknownSeverityIds } from './gate.ts';
export { RULES, allFindingIds, verdictOf, type RuleName } from './rules.ts';
export { fingerprintOf, sortFindings } from './collector.ts';
export { nameSimilarity } from './similarity.ts';
export type * from './types.ts';
export { LEVELS } from './types.ts';
