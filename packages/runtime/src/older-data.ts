/**
 * Data written under an older contract. Tightening a request-only constraint — a string's length or
 * pattern, a number's bounds, an array's size, an enum's values — narrows what new requests may send, but
 * records stored before still hold the old values. Such a value is still answered: an answer that fails the
 * response schema is checked again against the same schema with those constraints left out (the relaxed
 * schema), and sent when it passes, logged at warn and reported to `onOutdatedValue`. A field added later with a
 * default is absent from records (and logged events) stored before it existed: such a field is answered with its
 * default, noted the same way. Everything else stays checked: the type of every value, required fields without a
 * default, string formats (uuid, email, date-time), integer numbers; unknown and write-only keys are removed as before.
 */
import { z } from 'zod';
import type * as core from 'zod/v4/core';
import { callListener, logSafely } from './contain.js';
import { isRecord } from './guards.js';
import { checkDefOf, defOf, schemaOf, type CheckDef } from './zod-internals.js';

/** An answered value that breaks only a request-side constraint (what `onOutdatedValue` receives). */
export interface OutdatedValue {
  /** The version whose schema the value was answered with. */
  readonly version: string;
  /** The collection (or `event <type>` for a webhook payload). */
  readonly collection: string;
  /** The handler (or hook) that produced the value, as logged: `handlers.orders.get`. */
  readonly source: string;
  /** Where in the answer the first such value is (JSON pointer, `#/data/3/subject`). */
  readonly pointer: string;
  /** The constraint it breaks, as zod words it (`Too big: expected string to have <=100 characters`). */
  readonly detail: string;
}

/** Checks of strings, numbers and arrays that only requests enforce. */
const LOOSE_CHECKS: ReadonlySet<string> = new Set(['min_length', 'max_length', 'length_equals', 'greater_than', 'less_than', 'multiple_of']);
/** String formats that are constraints on the text rather than what the value is (a pattern). */
const LOOSE_FORMATS: ReadonlySet<string> = new Set(['regex', 'starts_with', 'ends_with', 'includes', 'lowercase', 'uppercase']);

const isLoose = (c: CheckDef): boolean => LOOSE_CHECKS.has(c.check) || (c.check === 'string_format' && LOOSE_FORMATS.has(c.format));

/** The schema of any value of an enum's kinds (strings, numbers). */
function kindsOf(entries: Readonly<Record<string, unknown>>): z.ZodType {
  const kinds = new Set(Object.values(entries).map((v) => typeof v));
  if (kinds.size === 1 && kinds.has('string')) return z.string();
  if (kinds.size === 1 && kinds.has('number')) return z.number();
  return z.union([z.string(), z.number()]);
}

const rebuilt = new WeakMap<z.ZodType, z.ZodType>();

/** `schema` with every request-only constraint left out, at every depth (the same schema when it has none). */
function relax(schema: z.ZodType): z.ZodType {
  const known = rebuilt.get(schema);
  if (known !== undefined) return known;
  const node = schemaOf(schema);
  const def = node._zod.def;
  // A copy of the schema with another definition, made by the schema's own constructor (zod's way to clone).
  const make = <D extends core.$ZodTypeDef>(next: D) => new node._zod.constr(next) as z.ZodType;
  let out = schema;
  const checks = def.checks ?? [];
  const kept = checks.filter((c) => !isLoose(checkDefOf(c)));
  const looser = kept.length !== checks.length;
  // The generated schemas are zod's classic ones: their members are too.
  const classic = (member: core.$ZodType): z.ZodType => member as z.ZodType;
  switch (def.type) {
    case 'string':
    case 'number':
      if (looser) out = make({ ...def, checks: kept });
      break;
    case 'enum':
      out = kindsOf(def.entries);
      break;
    case 'array': {
      const element = relax(classic(def.element));
      if (looser || element !== def.element) out = make({ ...def, element, checks: kept });
      break;
    }
    case 'object': {
      const entries = Object.entries(def.shape);
      const shape = Object.fromEntries(entries.map(([k, v]) => [k, relax(classic(v))]));
      if (entries.some(([k, v]) => shape[k] !== v)) out = make({ ...def, shape });
      break;
    }
    case 'union': {
      const options = def.options.map((o) => relax(classic(o)));
      if (options.some((o, i) => o !== def.options[i])) out = make({ ...def, options });
      break;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch': {
      const inner = relax(classic(def.innerType));
      if (inner !== def.innerType) out = make({ ...def, innerType: inner });
      break;
    }
  }
  rebuilt.set(schema, out);
  return out;
}

/**
 * The response schema `schema` with its request-only constraints left out, or null when it has none (then
 * every value that fails it has another type, and nothing is tolerated).
 */
export function relaxedSchema(schema: z.ZodType): z.ZodType | null {
  const out = relax(schema);
  return out === schema ? null : out;
}

/** A field's default, a new copy on each use (an answer never shares an object default). */
export interface FieldDefault {
  readonly key: string;
  readonly value: () => unknown;
}

/**
 * The top-level fields of `create` (a version's create body) that take a default when absent: what a resource
 * stored before such a field existed is answered with. None when the version takes no create body.
 */
export function defaultsOf(create: z.ZodType | undefined): readonly FieldDefault[] {
  if (create === undefined) return [];
  const def = defOf(create);
  if (def.type !== 'object') return [];
  const out: FieldDefault[] = [];
  for (const [key, member] of Object.entries(def.shape)) {
    const inner = defOf(member);
    // A copy on each use: zod 4.0 hands out the one default object it holds (later releases copy it themselves).
    if (inner.type === 'default') out.push({ key, value: () => structuredClone(inner.defaultValue) });
  }
  return out;
}

/** `value` with each absent field of `defaults` set to its default, and the keys set (none: `value` itself). */
export function withDefaults(value: unknown, defaults: readonly FieldDefault[]): { readonly value: unknown; readonly filled: readonly string[] } {
  if (!isRecord(value) || Array.isArray(value)) return { value, filled: [] };
  const missing = defaults.filter((d) => value[d.key] === undefined);
  if (missing.length === 0) return { value, filled: [] };
  const out: Record<string, unknown> = { ...value };
  for (const d of missing) out[d.key] = d.value();
  return { value: out, filled: missing.map((d) => d.key) };
}

/** Where a value answered though outdated is logged. */
export interface WarnLog {
  warn(obj: object, msg: string): void;
}

/**
 * Logs an outdated value at warn and reports it to `onOutdatedValue`, whose own failure (a throw, or a rejection of
 * what it returns) is logged, never answered.
 */
export function noteOutdated(log: WarnLog | undefined, report: OutdatedValue, onOutdatedValue: ((report: OutdatedValue) => void) | undefined): void {
  log?.warn({ ...report }, `${report.source} answered a value stored under an older contract at ${report.pointer} (${report.detail}); sent as it is`);
  if (onOutdatedValue === undefined) return;
  callListener(
    () => onOutdatedValue(report),
    (err) => logSafely(log, 'warn', { err, source: 'options.onOutdatedValue' }, 'onOutdatedValue failed'),
  );
}
