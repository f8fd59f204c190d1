/**
 * @module Diagnostics are data: a stable code, a message that says what is wrong and how to fix it, and
 * where. They are collected and reported together; nothing is thrown one by one.
 */
import type { CallSite } from '../dsl/defs.ts';
import type { SourceRef } from './ir.ts';

/** Every diagnostic code restgen reports, with what it means. Codes never change meaning. */
export const DIAGNOSTIC_CODES = {
  RG001: 'the API module could not be loaded',
  RG002: 'the API module does not export a defineApi() result',
  RG100: 'invalid API name',
  RG101: 'no versions',
  RG102: 'invalid version name',
  RG103: 'invalid date',
  RG104: 'version dates out of order',
  RG105: 'unreleased version before a released one',
  RG106: 'invalid versioning',
  RG110: 'invalid API key header',
  RG111: 'scopes without auth',
  RG112: 'public operation not offered',
  RG113: 'invalid rate limit',
  RG114: 'invalid pagination',
  RG115: 'unknown operation',
  RG116: 'duplicate operation',
  RG120: 'invalid collection name',
  RG121: 'duplicate collection path',
  RG122: 'collection without an id field',
  RG123: 'collection with several id fields',
  RG124: 'invalid collection path',
  RG130: 'invalid field name',
  RG131: 'min greater than max',
  RG132: 'invalid bound',
  RG133: 'invalid pattern',
  RG134: 'pattern with flags',
  RG135: 'invalid enum',
  RG136: 'field both readOnly and writeOnly',
  RG137: 'default fails its own constraints',
  RG138: 'example fails its own constraints',
  RG139: 'ref to an unknown collection',
  RG140: 'ref to a collection missing in a version',
  RG141: 'modifier not allowed here',
  RG150: 'unknown version in a marker',
  RG151: 'removed before it was added',
  RG152: 'rename onto an existing name',
  RG153: 'invalid rename',
  RG154: 'required field removed without a fallback',
  RG155: 'fallback fails the field\'s constraints',
  RG156: 'required field without a default in an older version',
  RG157: 'madeOptionalIn on a required field',
  RG158: 'madeRequiredIn on an optional field',
  RG159: 'conflicting markers',
  RG160: 'marker outside the versions the field exists in',
  RG162: 'typeChangedFrom with markers on the old field',
  RG163: 'marker on the first version',
} as const;

/** A diagnostic code. */
export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** One problem found in the user's API module. */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: 'error' | 'warning';
  /** What is wrong and how to fix it, in one or two sentences. */
  readonly message: string;
  readonly loc?: SourceRef;
  /** Resolved 1-based column, filled in by `locateDiagnostics` when the report is made. */
  readonly column?: number;
}

/** Collects diagnostics while a stage runs. */
export class DiagnosticBag {
  readonly items: Diagnostic[] = [];

  error(code: DiagnosticCode, message: string, loc: SourceRef | undefined): void {
    this.items.push({ code, severity: 'error', message, ...(loc ? { loc } : {}) });
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }
}

/** A {@link SourceRef} for a recorded call site, or for `fallback` when the call was not recorded. */
export function refOf(site: CallSite | undefined, fallback: SourceRef, path?: readonly string[]): SourceRef {
  const base: SourceRef = site ? { file: site.file, line: site.line, member: site.member } : fallback;
  return path ? { ...base, path } : base;
}
