/**
 * @module What the builders do with arguments their types reject: describe them, so the model can say what
 * was passed and what was expected. Nothing here throws; a builder records an {@link ArgumentSlip} and
 * carries on, and the model reports every slip of a run together.
 */
import { FIELD_KINDS, type ArgumentSlip, type CallSite, type FieldDef } from './defs.ts';

/** The kinds of field a builder can produce, to tell a field builder from other objects. */
/** The kinds of field, as a set (a builder's `def.kind` is checked against it). */
export const KINDS: ReadonlySet<string> = new Set(FIELD_KINDS);

/** A short description of a value for a message: `the string '5'`, `the function string`, `an object`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `the ${typeof value} ${String(value)}`;
  if (typeof value === 'function') return value.name ? `the function ${value.name}` : 'a function';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof RegExp) return `the RegExp ${String(value)}`;
  return typeof value === 'symbol' ? 'a symbol' : 'an object';
}

/** True for the result of a field builder (`f.string()`, `f.int().min(1)`, ...). */
export function isFieldBuilder(value: unknown): value is { readonly def: FieldDef } {
  if (typeof value !== 'object' || value === null || !('def' in value)) return false;
  const def: unknown = value.def;
  return typeof def === 'object' && def !== null && 'kind' in def && KINDS.has(String(def.kind)) && 'markers' in def;
}

/**
 * The slip for a value where a field builder belongs: a builder function that was not called
 * (`f.string` instead of `f.string()`), or anything else. Undefined when `value` is a field builder.
 */
export function fieldSlip(member: string, value: unknown, site: CallSite | undefined, path?: readonly string[]): ArgumentSlip | undefined {
  if (isFieldBuilder(value)) return undefined;
  const base = { member, got: describeValue(value), ...(path ? { path } : {}), ...(site ? { site } : {}) };
  return typeof value === 'function'
    ? { ...base, problem: 'not-called', expected: `f.${value.name || 'string'}()` }
    : { ...base, problem: 'not-a-field', expected: 'a field builder such as f.string() or f.int().min(1)' };
}

/** The slip for an argument of the wrong type, or undefined when `ok`. */
export function kindSlip(member: string, ok: boolean, value: unknown, expected: string, site: CallSite | undefined): ArgumentSlip | undefined {
  return ok ? undefined : { member, problem: 'wrong-kind', expected, got: describeValue(value), ...(site ? { site } : {}) };
}

/** The slip for arguments beyond the `takes` a member accepts, or undefined when there are none. */
export function aritySlip(member: string, args: readonly unknown[], takes: number, site: CallSite | undefined): ArgumentSlip | undefined {
  if (args.length <= takes) return undefined;
  const expected = takes === 0 ? 'no arguments' : `at most ${takes} argument${takes === 1 ? '' : 's'}`;
  return { member, problem: 'extra-arguments', expected, got: `${args.length} argument${args.length === 1 ? '' : 's'}`, ...(site ? { site } : {}) };
}

/** The defined slips of a list. */
export function slipsOf(...slips: readonly (ArgumentSlip | undefined)[]): ArgumentSlip[] {
  return slips.filter((s): s is ArgumentSlip => s !== undefined);
}
