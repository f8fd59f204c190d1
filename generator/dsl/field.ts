/**
 * @module Field builders (`f.string()`, `f.int()`, ...). Each call returns a new immutable builder whose
 * `def` is plain data; modifiers are typed per kind, so `f.int().pattern(...)` does not type-check.
 */
import { aritySlip, describeValue, fieldSlip, isFieldBuilder, kindSlip, slipsOf } from './arguments.ts';
import { captureCallSite } from './call-site.ts';
import type { ArgumentSlip, CallSite, FieldDef, FieldKind, MarkerDef } from './defs.ts';
import type {
  AnyField,
  ValueOf,
  StringField,
  NumberField,
  BooleanField,
  EnumField,
  FormatField,
  DateField,
  RefField,
  ArrayField,
  ObjectField,
  FileOptions,
  FileField,
} from './field-types.ts';

export type * from './field-types.ts';

type ObjectValue<F extends Record<string, AnyField>> = { [K in keyof F]: ValueOf<F[K]> };

/** What one modifier call changes: properties of the def, a marker, and slips of its arguments. */
interface Change {
  readonly patch?: Partial<FieldDef>;
  readonly marker?: MarkerDef;
  readonly slips?: readonly (ArgumentSlip | undefined)[];
}

const isVersion = (v: unknown): v is string => typeof v === 'string';
const VERSION = "a version name such as 'v2'";

/**
 * The shared implementation behind every field interface: each modifier returns a new builder. Every
 * member checks its arguments against its signature (records a slip instead of throwing), so a module
 * that was never type-checked gets the same verdicts at `generate` time.
 */
/** The `{ fallback: value }` option of `removedIn` and `madeRequiredIn`, or the slip it is. */
function fallbackOption(member: string, options: unknown): { readonly value: unknown } | ArgumentSlip {
  const keys = typeof options === 'object' && options !== null && !Array.isArray(options) ? Object.keys(options) : undefined;
  if (keys?.length !== 1 || keys[0] !== 'fallback')
    return {
      member,
      problem: 'wrong-kind',
      expected: 'options of the form { fallback: value }',
      got: keys ? `{ ${keys.join(', ')} }` : describeValue(options),
    };
  return { value: (options as { fallback: unknown }).fallback };
}

/** The function `owner[name]` (the member a user called), for the call-site capture to start below it. */
function publicMember(owner: object, name: string): ((...args: never[]) => unknown) | undefined {
  const member: unknown = (owner as Record<string, unknown>)[name];
  return typeof member === 'function' ? (member as (...args: never[]) => unknown) : undefined;
}

class FieldBuilder implements AnyField {
  constructor(readonly def: FieldDef) {}

  private with(member: string, args: readonly unknown[], takes: number, change: (site: CallSite | undefined) => Change): this {
    const site = captureCallSite(member, publicMember(FieldBuilder.prototype, member));
    const { patch = {}, marker, slips = [] } = change(site);
    const calls = site ? { ...this.def.calls, [member]: site } : this.def.calls;
    const markers = marker ? [...this.def.markers, { ...marker, site }] : this.def.markers;
    const found = slipsOf(...slips, aritySlip(member, args, takes, site));
    const all = found.length > 0 ? { slips: [...(this.def.slips ?? []), ...found] } : {};
    return new FieldBuilder({ ...this.def, ...patch, calls, markers, ...all }) as this;
  }

  /** A modifier without arguments that sets one flag. */
  private flag(member: 'optional' | 'nullable' | 'readOnly' | 'writeOnly' | 'unique' | 'deprecated', args: readonly unknown[]): this {
    return this.with(member, args, 0, () => ({ patch: { [member]: true } }));
  }

  /** `sortable()` or `expandable()`: a flag with an optional `{ addedIn, removedIn }` (its versions checked by the model). */
  private lifespan(member: 'sortable' | 'expandable', args: readonly unknown[]): this {
    return this.with(member, args, 1, (site) => {
      const options = args[0];
      if (options === undefined) return { patch: { [member]: { options: {} } } };
      const keys = isPlainObject(options) ? Object.keys(options) : undefined;
      if (keys === undefined || keys.some((k) => k !== 'addedIn' && k !== 'removedIn'))
        return { slips: [kindSlip(member, false, options, "nothing, or { addedIn: 'v2' } / { removedIn: 'v3' }", site)] };
      return { patch: { [member]: { options } } };
    });
  }

  /** A marker whose first argument is a version; `ok` says whether the rest of its arguments are fine. */
  private marker(member: string, args: readonly unknown[], takes: number, version: unknown, make: () => MarkerDef | ArgumentSlip): this {
    return this.with(member, args, takes, (site) => {
      if (!isVersion(version)) return { slips: [kindSlip(member, false, version, VERSION, site)] };
      const made = make();
      return 'problem' in made ? { slips: [{ ...made, ...(site ? { site } : {}) }] } : { marker: made };
    });
  }

  private bound(member: 'min' | 'max', n: unknown, args: readonly unknown[]): this {
    return this.with(member, args, 1, (site) =>
      typeof n === 'number' ? { patch: { [member]: n } } : { slips: [kindSlip(member, false, n, 'a number', site)] },
    );
  }

  min(n: unknown, ...rest: unknown[]) {
    return this.bound('min', n, [n, ...rest]);
  }
  max(n: unknown, ...rest: unknown[]) {
    return this.bound('max', n, [n, ...rest]);
  }
  pattern(re: unknown, ...rest: unknown[]) {
    return this.with('pattern', [re, ...rest], 1, (site) => {
      if (typeof re === 'string') return { patch: { pattern: re } };
      if (re instanceof RegExp) return { patch: { pattern: re.source, ...(re.flags ? { patternFlags: re.flags } : {}) } };
      return { slips: [kindSlip('pattern', false, re, 'a RegExp or a string', site)] };
    });
  }
  optional(...args: unknown[]) {
    return this.flag('optional', args);
  }
  nullable(...args: unknown[]) {
    return this.flag('nullable', args);
  }
  readOnly(...args: unknown[]) {
    return this.flag('readOnly', args);
  }
  writeOnly(...args: unknown[]) {
    return this.flag('writeOnly', args);
  }
  unique(...args: unknown[]) {
    return this.flag('unique', args);
  }
  deprecated(...args: unknown[]) {
    return this.flag('deprecated', args);
  }
  filterable(...args: unknown[]) {
    return this.with('filterable', args, 1, (site) => {
      const options = args[0];
      if (options === undefined) return { patch: { filterable: true } };
      const ops = isPlainObject(options) && Object.keys(options).length === 1 ? options['ops'] : undefined;
      if (!Array.isArray(ops)) return { slips: [kindSlip('filterable', false, options, "nothing, or { ops: ['eq', 'in', ...] }", site)] };
      return { patch: { filterable: true, ops: [...ops] } };
    });
  }
  sortable(...args: unknown[]) {
    return this.lifespan('sortable', args);
  }
  expandable(...args: unknown[]) {
    return this.lifespan('expandable', args);
  }
  default(...args: unknown[]) {
    return this.with('default', args, 1, (site) =>
      args[0] === undefined ? { slips: [kindSlip('default', false, undefined, 'a value (or null)', site)] } : { patch: { default: { value: args[0] } } },
    );
  }
  example(...args: unknown[]) {
    return this.with('example', args, 1, (site) =>
      args[0] === undefined ? { slips: [kindSlip('example', false, undefined, 'a value', site)] } : { patch: { example: { value: args[0] } } },
    );
  }
  description(text: unknown, ...rest: unknown[]) {
    return this.with('description', [text, ...rest], 1, (site) =>
      typeof text === 'string' ? { patch: { description: text } } : { slips: [kindSlip('description', false, text, 'a string', site)] },
    );
  }
  addedIn(version: unknown, ...rest: unknown[]) {
    return this.marker('addedIn', [version, ...rest], 1, version, () => ({ kind: 'addedIn', version: version as string }));
  }
  removedIn(version: unknown, options?: unknown, ...rest: unknown[]) {
    const args = options === undefined ? [version, ...rest] : [version, options, ...rest];
    return this.marker('removedIn', args, 2, version, () => {
      if (options === undefined) return { kind: 'removedIn', version: version as string };
      const fallback = fallbackOption('removedIn', options);
      return 'problem' in fallback ? fallback : { kind: 'removedIn', version: version as string, fallback };
    });
  }
  renamedFrom(from: unknown, version: unknown, ...rest: unknown[]) {
    return this.marker('renamedFrom', [from, version, ...rest], 2, version, () =>
      typeof from === 'string'
        ? { kind: 'renamedFrom', from, version: version as string }
        : { member: 'renamedFrom', problem: 'wrong-kind', expected: "the old name as a string, e.g. renamedFrom('qty', 'v2')", got: describeValue(from) },
    );
  }
  typeChangedFrom(version: unknown, old: unknown, ...rest: unknown[]) {
    return this.marker('typeChangedFrom', [version, old, ...rest], 2, version, () =>
      isFieldBuilder(old) ? { kind: 'typeChangedFrom', version: version as string, old: old.def } : fieldSlip('typeChangedFrom', old, undefined)!,
    );
  }
  madeOptionalIn(version: unknown, ...rest: unknown[]) {
    return this.marker('madeOptionalIn', [version, ...rest], 1, version, () => ({ kind: 'madeOptionalIn', version: version as string }));
  }
  valueAddedIn(version: unknown, value: unknown, options?: unknown, ...rest: unknown[]) {
    const args = options === undefined ? [version, value, ...rest] : [version, value, options, ...rest];
    return this.with('valueAddedIn', args, 3, (site) => {
      if (!isVersion(version)) return { slips: [kindSlip('valueAddedIn', false, version, VERSION, site)] };
      if (typeof value !== 'string')
        return {
          slips: [kindSlip('valueAddedIn', false, value, "one of the enum's values, e.g. valueAddedIn('v3', 'refunded', { fallback: 'cancelled' })", site)],
        };
      let fallback: string | undefined;
      if (options !== undefined) {
        const given = fallbackOption('valueAddedIn', options);
        if ('problem' in given) return { slips: [{ ...given, ...(site ? { site } : {}) }] };
        if (typeof given.value !== 'string')
          return { slips: [kindSlip('valueAddedIn', false, given.value, "a fallback that is one of the enum's values", site)] };
        fallback = given.value;
      }
      const added = { version, value, ...(fallback !== undefined ? { fallback } : {}), ...(site ? { site } : {}) };
      return { patch: { valuesAdded: [...(this.def.valuesAdded ?? []), added] } };
    });
  }
  madeRequiredIn(version: unknown, options?: unknown, ...rest: unknown[]) {
    const args = options === undefined ? [version, ...rest] : [version, options, ...rest];
    return this.marker('madeRequiredIn', args, 2, version, () => {
      if (options === undefined) return { kind: 'madeRequiredIn', version: version as string };
      const fallback = fallbackOption('madeRequiredIn', options);
      return 'problem' in fallback ? fallback : { kind: 'madeRequiredIn', version: version as string, fallback };
    });
  }
}

/**
 * Starts a field. `check` looks at the builder's arguments and returns the def's extra properties, or a
 * slip and the neutral kind to continue with (so one mistake gives one diagnostic, not a cascade).
 */
function start(
  kind: FieldKind,
  args: readonly unknown[],
  takes: number,
  check: (site: CallSite | undefined) => { extra?: Partial<FieldDef>; slips?: readonly (ArgumentSlip | undefined)[]; standIn?: FieldKind } = () => ({}),
): FieldBuilder {
  const site = captureCallSite(kind, publicMember(f, kind));
  const { extra = {}, slips = [], standIn } = check(site);
  const found = slipsOf(...slips, aritySlip(kind, args, takes, site));
  return new FieldBuilder({ kind: standIn ?? kind, ...extra, markers: [], calls: {}, site, ...(found.length > 0 ? { slips: found } : {}) });
}

/** A plain object (not an array, not a builder, not null). */
const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !isFieldBuilder(v);

/** The field builders `f` offers; each returns a new builder for one field. */
export interface FieldBuilders {
  /** A string. @example f.string().min(1).max(200) */
  string(): StringField;
  /** An integer. @example f.int().min(1).max(1000) */
  int(): NumberField;
  /** Any JSON number. @example f.number().min(0) */
  number(): NumberField;
  /** `true` or `false`. @example f.boolean().default(false) */
  boolean(): BooleanField;
  /** One of the given strings. @example f.enum(['open', 'paid', 'shipped']) */
  enum<const V extends string>(values: readonly [V, ...V[]]): EnumField<V>;
  /** An RFC 3339 date-time with offset (`2026-01-15T10:00:00Z`). @example f.datetime().readOnly() */
  datetime(): DateField;
  /** A calendar date (`2026-01-15`). @example f.date().optional() */
  date(): DateField;
  /** A UUID. @example f.uuid() */
  uuid(): FormatField;
  /** An email address. @example f.email().unique() */
  email(): FormatField;
  /** An absolute URL. @example f.url().optional() */
  url(): FormatField;
  /** The collection's identifier: a server-assigned, read-only UUID. Exactly one per collection. @example f.id() */
  id(): FormatField;
  /** The id of a resource in another collection. @example f.ref('customers') */
  ref(collection: string): RefField;
  /** A list of values. @example f.array(f.string().max(30)).max(10) */
  array<F extends AnyField>(of: F): ArrayField<ValueOf<F>>;
  /** A nested object. @example f.object({ street: f.string(), zip: f.string().pattern(/^\d{5}$/) }) */
  object<F extends Record<string, AnyField>>(fields: F): ObjectField<ObjectValue<F>>;
  /**
   * A file: uploaded in a `multipart/form-data` body, at most `maxBytes`, of one of `types`; answered as its
   * metadata `{ name, type, size, sha256, href }` and downloaded at `GET /vN/<collection>/{id}/<field>`.
   * @example f.file({ maxBytes: 10_000_000, types: ['application/pdf'] }).optional()
   */
  file(options: FileOptions): FileField;
}

/**
 * The field builders.
 * @example
 * fields: { id: f.id(), email: f.email().unique(), tier: f.enum(['free', 'pro']).default('free') }
 */
// A builder per kind: a kind added to FIELD_KINDS without one here fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const everyKindHasABuilder: Same<keyof FieldBuilders, FieldKind> = true;
void everyKindHasABuilder;

export const f: FieldBuilders = {
  string: (...args: unknown[]): StringField => start('string', args, 0) as unknown as StringField,
  int: (...args: unknown[]): NumberField => start('int', args, 0) as unknown as NumberField,
  number: (...args: unknown[]): NumberField => start('number', args, 0) as unknown as NumberField,
  boolean: (...args: unknown[]): BooleanField => start('boolean', args, 0) as unknown as BooleanField,
  enum: ((values: unknown, ...rest: unknown[]) =>
    start('enum', [values, ...rest], 1, (site) =>
      Array.isArray(values)
        ? { extra: { values: [...values] } }
        : { slips: [kindSlip('enum', false, values, "an array of strings, e.g. f.enum(['open', 'paid'])", site)], standIn: 'string' },
    )) as unknown as FieldBuilders['enum'],
  datetime: (...args: unknown[]): DateField => start('datetime', args, 0) as unknown as DateField,
  date: (...args: unknown[]): DateField => start('date', args, 0) as unknown as DateField,
  uuid: (...args: unknown[]): FormatField => start('uuid', args, 0) as unknown as FormatField,
  email: (...args: unknown[]): FormatField => start('email', args, 0) as unknown as FormatField,
  url: (...args: unknown[]): FormatField => start('url', args, 0) as unknown as FormatField,
  id: (...args: unknown[]): FormatField => start('id', args, 0, () => ({ extra: { readOnly: true } })) as unknown as FormatField,
  ref: (collection: unknown, ...rest: unknown[]): RefField =>
    start('ref', [collection, ...rest], 1, (site) =>
      typeof collection === 'string'
        ? { extra: { ref: collection } }
        : { slips: [kindSlip('ref', false, collection, "the name of a collection, e.g. f.ref('customers')", site)], standIn: 'uuid' },
    ) as unknown as RefField,
  array: ((of: unknown, ...rest: unknown[]) =>
    start('array', [of, ...rest], 1, (site) => {
      const slip = fieldSlip('array', of, site);
      return slip || !isFieldBuilder(of) ? { extra: { of: { kind: 'string', markers: [], calls: {} } }, slips: [slip] } : { extra: { of: of.def } };
    })) as unknown as FieldBuilders['array'],
  object: ((fields: unknown, ...rest: unknown[]) =>
    start('object', [fields, ...rest], 1, (site) => {
      if (!isPlainObject(fields))
        return { extra: { fields: {} }, slips: [kindSlip('object', false, fields, 'an object of fields, e.g. f.object({ zip: f.string() })', site)] };
      const entries = Object.entries(fields);
      const slips = entries.map(([key, value]) => fieldSlip('object', value, site, [key]));
      const good = entries.filter(([, value]) => isFieldBuilder(value)) as [string, AnyField][];
      return { extra: { fields: Object.fromEntries(good.map(([k, v]) => [k, v.def])) }, slips };
    })) as unknown as FieldBuilders['object'],
  file: (options: unknown, ...rest: unknown[]): FileField =>
    start('file', [options, ...rest], 1, (site) => {
      const o = isPlainObject(options) ? options : {};
      const keys = Object.keys(o);
      const known = keys.every((k) => k === 'maxBytes' || k === 'types');
      const typesOk = Array.isArray(o['types']) && o['types'].every((t) => typeof t === 'string');
      // A missing option is the model's to report (RG410, with the value it needs); a wrong kind is a slip here.
      const ok = isPlainObject(options) && known && ['number', 'undefined'].includes(typeof o['maxBytes']) && (typesOk || o['types'] === undefined);
      const expected = "options { maxBytes: number, types: string[] }, e.g. f.file({ maxBytes: 10_000_000, types: ['application/pdf'] })";
      return {
        // Whatever was readable is kept, so the model can still say what is wrong with the values themselves.
        extra: {
          ...(typeof o['maxBytes'] === 'number' ? { maxBytes: o['maxBytes'] } : {}),
          ...(typesOk ? { types: [...(o['types'] as string[])] } : {}),
        },
        slips: [kindSlip('file', ok, options, expected, site)],
      };
    }) as unknown as FileField,
};
