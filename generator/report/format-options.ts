/**
 * @module What every report format shares: its options, where a finding's builder call is (relative to
 * the repository or working folder), and its flags in words.
 */
import path from 'node:path';
import type { Render } from '../templates/load-templates.ts';
import type { Finding, Level } from '../diff/types.ts';

/** Options of the formatters. */
export interface FormatOptions {
  /** Source paths are made relative to this folder (the repository root or cwd). */
  readonly relativeTo?: string;
  /** At most this many routes per finding in text and Markdown (all in JSON). Default 6. */
  readonly maxRoutes?: number;
  /** The level that fails the run (`--fail-on`): JSON and JUnit say which findings fail. Default `none`. */
  readonly failOn?: Level | 'none';
  /** `YYYY-MM-DD`, for the HTML timeline (whether a sunset has passed). */
  readonly today?: string;
  /** Renders the HTML template; default: restgen's templates. */
  readonly render?: Render;
}

/** `file:line:column` of a finding's builder call (column 1 when unknown), relative to `relativeTo`; undefined without one. */
export function sourceOf(f: Finding, relativeTo: string | undefined): { file: string; line: number; column: number } | undefined {
  if (!f.loc) return undefined;
  const file = relativeTo && path.isAbsolute(f.loc.file) ? path.relative(relativeTo, f.loc.file) : f.loc.file;
  return { file: file.split(path.sep).join('/'), line: f.loc.line, column: f.column ?? 1 };
}

/** What a finding's flags say, for people: `unreleased`, `accepted`, `was breaking`. */
export function flagsOf(f: Finding): string[] {
  return [
    ...(f.unreleased ? ['unreleased: never fails'] : []),
    ...(f.accepted ? [`accepted${f.accepted.reason ? `: ${f.accepted.reason}` : ''}`] : []),
    ...(f.ruleLevel ? [`rule level ${f.ruleLevel}`] : []),
  ];
}
