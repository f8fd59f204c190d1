/**
 * @module Field builders (`f.string()`, `f.int()`, ...). Each call returns a new immutable builder whose
 * `def` is plain data; modifiers are typed per kind, so `f.int().pattern(...)` does not type-check.
 */
import { captureCallSite } from './call-site.ts';
import type { FieldDef, FieldKind, MarkerDef } from './defs.ts';

/** Any field builder; what `fields: {...}` and `f.array()` accept. */
export interface AnyField {
  readonly def: FieldDef;
}

/** The TypeScript value type a field builder describes. */
export type ValueOf<F> = F extends { readonly __value?: infer T } ? T : unknown;

/** Modifiers every field kind has. `T` is the field's value type, used to check defaults and examples. */
export interface FieldModifiers<T> extends AnyField {
  /** Phantom: the value type. Never set at run time. */
  readonly __value?: T;
  /** The field may be absent (in requests and in responses). @example f.string().optional() */
  optional(): this;
  /** The field may be `null`. @example f.string().nullable() */
  nullable(): this;
  /** The value used when a create or replace omits the field; must meet the field's own constraints. @example f.enum(['free', 'pro']).default('free') */
  default(value: T | null): this;
  /** Set by the server: only in responses; a request that sends it is rejected. @example f.datetime().readOnly() */
  readOnly(): this;
  /** Only in requests, never in responses (a password). @example f.string().min(12).writeOnly() */
  writeOnly(): this;
  /** No two resources of the collection share a value; a duplicate answers 409. @example f.email().unique() */
  unique(): this;
  /** Documentation, carried into OpenAPI and JSDoc. @example f.string().description('Shown on the invoice') */
  description(text: string): this;
  /** An example value for documentation. @example f.int().example(3) */
  example(value: T): this;
  /** Still served, but clients should stop using it. @example f.string().deprecated() */
  deprecated(): this;
  /** Usable as `?field=value` on list. @example f.enum(['open', 'paid']).filterable() */
  filterable(): this;
  /** The field exists from version `version` on. @example f.string().optional().addedIn('v2') */
  addedIn(version: string): this;
  /**
   * The field no longer exists from `version` on. A required field needs a `fallback`, the value older
   * versions answer once the field is no longer stored.
   * @example f.string().removedIn('v3', { fallback: '' })
   */
  removedIn(version: string, options?: { fallback: T | null }): this;
  /** Before `version` the field was called `oldName`. @example f.int().renamedFrom('qty', 'v2') */
  renamedFrom(oldName: string, version: string): this;
  /** Before `version` the field was `old` (complete, modifiers included). @example f.string().typeChangedFrom('v2', f.int()) */
  typeChangedFrom(version: string, old: AnyField): this;
  /** Before `version` this optional field was required. @example f.string().optional().madeOptionalIn('v2') */
  madeOptionalIn(version: string): this;
  /**
   * Before `version` this required field was optional. A create sent to an older version may still leave
   * it out: give the value it then gets as `fallback` (or a `.default(...)`, which also changes older versions).
   * @example f.string().writeOnly().madeRequiredIn('v2', { fallback: '' })
   */
  madeRequiredIn(version: string, options?: { fallback: T | null }): this;
}

/** Minimum and maximum: a number's value, a string's length, an array's item count. */
export interface Bounded {
  /** Inclusive lower bound. @example f.int().min(1) */
  min(n: number): this;
  /** Inclusive upper bound. @example f.string().max(200) */
  max(n: number): this;
}

/** `f.string()`. */
export interface StringField extends FieldModifiers<string>, Bounded {
  /** The value must match; no RegExp flags (JSON Schema has none). @example f.string().pattern(/^[A-Z]{3}$/) */
  pattern(re: RegExp | string): this;
}
/** `f.int()` and `f.number()`. */
export interface NumberField extends FieldModifiers<number>, Bounded {}
/** `f.boolean()`. */
export type BooleanField = FieldModifiers<boolean>;
/** `f.enum([...])`. */
export type EnumField<V extends string> = FieldModifiers<V>;
/** String formats: `datetime`, `date`, `uuid`, `email`, `url`, `id`, `ref`. */
export type FormatField = FieldModifiers<string>;
/** `f.array(of)`. */
export interface ArrayField<T> extends FieldModifiers<T[]>, Bounded {}
/** `f.object({...})`. */
export type ObjectField<T> = FieldModifiers<T>;

type ObjectValue<F extends Record<string, AnyField>> = { [K in keyof F]: ValueOf<F[K]> };

/** The shared implementation behind every field interface: each modifier returns a new builder. */
class FieldBuilder implements AnyField {
  constructor(readonly def: FieldDef) {}

  private with(member: string, patch: Partial<FieldDef>, marker?: MarkerDef): this {
    const site = captureCallSite(member);
    const calls = site ? { ...this.def.calls, [member]: site } : this.def.calls;
    const markers = marker ? [...this.def.markers, { ...marker, site }] : this.def.markers;
    return new FieldBuilder({ ...this.def, ...patch, calls, markers }) as this;
  }

  min(n: number) { return this.with('min', { min: n }); }
  max(n: number) { return this.with('max', { max: n }); }
  pattern(re: RegExp | string) {
    return typeof re === 'string'
      ? this.with('pattern', { pattern: re })
      : this.with('pattern', { pattern: re.source, ...(re.flags ? { patternFlags: re.flags } : {}) });
  }
  optional() { return this.with('optional', { optional: true }); }
  nullable() { return this.with('nullable', { nullable: true }); }
  default(value: unknown) { return this.with('default', { default: { value } }); }
  readOnly() { return this.with('readOnly', { readOnly: true }); }
  writeOnly() { return this.with('writeOnly', { writeOnly: true }); }
  unique() { return this.with('unique', { unique: true }); }
  description(text: string) { return this.with('description', { description: text }); }
  example(value: unknown) { return this.with('example', { example: { value } }); }
  deprecated() { return this.with('deprecated', { deprecated: true }); }
  filterable() { return this.with('filterable', { filterable: true }); }
  addedIn(version: string) { return this.with('addedIn', {}, { kind: 'addedIn', version }); }
  removedIn(version: string, options?: { fallback: unknown }) {
    const fallback = options && 'fallback' in options ? { value: options.fallback } : undefined;
    return this.with('removedIn', {}, { kind: 'removedIn', version, ...(fallback ? { fallback } : {}) });
  }
  renamedFrom(from: string, version: string) {
    return this.with('renamedFrom', {}, { kind: 'renamedFrom', from, version });
  }
  typeChangedFrom(version: string, old: AnyField) {
    return this.with('typeChangedFrom', {}, { kind: 'typeChangedFrom', version, old: old.def });
  }
  madeOptionalIn(version: string) { return this.with('madeOptionalIn', {}, { kind: 'madeOptionalIn', version }); }
  madeRequiredIn(version: string, options?: { fallback: unknown }) {
    const fallback = options && 'fallback' in options ? { value: options.fallback } : undefined;
    return this.with('madeRequiredIn', {}, { kind: 'madeRequiredIn', version, ...(fallback ? { fallback } : {}) });
  }
}

function start(kind: FieldKind, member: string, extra: Partial<FieldDef> = {}): FieldBuilder {
  return new FieldBuilder({ kind, ...extra, markers: [], calls: {}, site: captureCallSite(member) });
}

/**
 * The field builders.
 * @example
 * fields: { id: f.id(), email: f.email().unique(), tier: f.enum(['free', 'pro']).default('free') }
 */
export const f = {
  /** A string. @example f.string().min(1).max(200) */
  string: (): StringField => start('string', 'string') as unknown as StringField,
  /** An integer. @example f.int().min(1).max(1000) */
  int: (): NumberField => start('int', 'int') as unknown as NumberField,
  /** Any JSON number. @example f.number().min(0) */
  number: (): NumberField => start('number', 'number') as unknown as NumberField,
  /** `true` or `false`. @example f.boolean().default(false) */
  boolean: (): BooleanField => start('boolean', 'boolean') as unknown as BooleanField,
  /** One of the given strings. @example f.enum(['open', 'paid', 'shipped']) */
  enum: <const V extends string>(values: readonly [V, ...V[]]): EnumField<V> =>
    start('enum', 'enum', { values: [...values] }) as unknown as EnumField<V>,
  /** An RFC 3339 date-time with offset (`2026-01-15T10:00:00Z`). @example f.datetime().readOnly() */
  datetime: (): FormatField => start('datetime', 'datetime') as unknown as FormatField,
  /** A calendar date (`2026-01-15`). @example f.date().optional() */
  date: (): FormatField => start('date', 'date') as unknown as FormatField,
  /** A UUID. @example f.uuid() */
  uuid: (): FormatField => start('uuid', 'uuid') as unknown as FormatField,
  /** An email address. @example f.email().unique() */
  email: (): FormatField => start('email', 'email') as unknown as FormatField,
  /** An absolute URL. @example f.url().optional() */
  url: (): FormatField => start('url', 'url') as unknown as FormatField,
  /** The collection's identifier: a server-assigned, read-only UUID. Exactly one per collection. @example f.id() */
  id: (): FormatField => start('id', 'id', { readOnly: true }) as unknown as FormatField,
  /** The id of a resource in another collection. @example f.ref('customers') */
  ref: (collection: string): FormatField => start('ref', 'ref', { ref: collection }) as unknown as FormatField,
  /** A list of values. @example f.array(f.string().max(30)).max(10) */
  array: <F extends AnyField>(of: F): ArrayField<ValueOf<F>> =>
    start('array', 'array', { of: of.def }) as unknown as ArrayField<ValueOf<F>>,
  /** A nested object. @example f.object({ street: f.string(), zip: f.string().pattern(/^\d{5}$/) }) */
  object: <F extends Record<string, AnyField>>(fields: F): ObjectField<ObjectValue<F>> =>
    start('object', 'object', {
      fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.def])),
    }) as unknown as ObjectField<ObjectValue<F>>,
};
