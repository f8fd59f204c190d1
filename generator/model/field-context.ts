/**
 * @module What building a field needs to know about the API, in a module of its own so that the field builder and
 * the list-query builder it calls both read it without importing each other.
 */
import type { DiagnosticBag } from './diagnostics.ts';
import type { SourceRef } from './ir.ts';

/** What field building needs to know about the API. */
export interface FieldContext {
  readonly versions: readonly string[];
  readonly diagnostics: DiagnosticBag;
  /** Where to point when a builder call was not recorded. */
  readonly fallback: SourceRef;
}
