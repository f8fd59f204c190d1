/**
 * @module The types of the field builders: what each kind's builder offers (`FieldModifiers`, `StringField`,
 * `FileField`...) and the value it stands for (`ValueOf`). The builders themselves are in `field.ts`.
 */
import type { FieldDef, FilterOp, Lifespan, OpEntry } from './defs.ts';

/** Any field builder; what `fields: {...}` and `f.array()` accept. */
export interface AnyField {
  readonly def: FieldDef;
}

/** The TypeScript value type a field builder describes. */
export type ValueOf<F> = F extends { readonly __value?: infer T } ? T : unknown;

/** The operators of kinds without an order: equality, inequality and membership. */
export type UnorderedOp = 'eq' | 'ne' | 'in';

/** The options of `filterable()`: the operators a list offers on the field, each in every version or in some. */
export interface FilterOptions<O extends FilterOp> {
  readonly ops: readonly [OpEntry<O>, ...OpEntry<O>[]];
}

/**
 * Modifiers every field kind has. `T` is the field's value type, used to check defaults and examples; `O` the
 * filter operators its kind can take.
 */
export interface FieldModifiers<T, O extends FilterOp = UnorderedOp> extends AnyField {
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
  /**
   * A filter of the collection's list. Without options, equality: `?status=paid`. With `ops`, the operators
   * offered: `eq` (`?price=10`), `ne`, `in` (`?genre[in]=poetry,drama`), and on kinds with an order (int,
   * number, date, datetime, string) `gt`, `gte`, `lt`, `lte` (`?price[gte]=10&price[lt]=20`). An operator
   * written `{ op, addedIn, removedIn }` holds only in those versions.
   * @example f.number().min(0).filterable({ ops: ['gte', 'lt', { op: 'in', addedIn: 'v2' }] })
   */
  filterable(options?: FilterOptions<O>): this;
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

/** The modifier of kinds with an order (int, number, date, datetime, string). */
export interface Sortable {
  /**
   * A key of the collection's list order: `?sort=-createdAt,title` (`-` for descending; ties broken by the id).
   * `{ addedIn, removedIn }` makes it a sort key in those versions only.
   * @example f.datetime().readOnly().sortable()
   */
  sortable(options?: Lifespan): this;
}

/** `f.string()`. */
export interface StringField extends FieldModifiers<string, FilterOp>, Bounded, Sortable {
  /** The value must match; no RegExp flags (JSON Schema has none). @example f.string().pattern(/^[A-Z]{3}$/) */
  pattern(re: RegExp | string): this;
}
/** `f.int()` and `f.number()`. */
export interface NumberField extends FieldModifiers<number, FilterOp>, Bounded, Sortable {}
/** `f.boolean()`. */
export type BooleanField = FieldModifiers<boolean>;
/** `f.enum([...])`. */
export interface EnumField<V extends string> extends FieldModifiers<V> {
  /**
   * `value` exists from `version` on: older versions' schemas do not have it, and their responses show
   * `fallback` (a value those versions know) where the stored value is `value`.
   * @example f.enum(['open', 'cancelled', 'refunded']).valueAddedIn('v3', 'refunded', { fallback: 'cancelled' })
   */
  valueAddedIn(version: string, value: V, options: { readonly fallback: V }): this;
}
/** String formats without an order: `uuid`, `email`, `url`, `id`. */
export type FormatField = FieldModifiers<string>;
/** `f.datetime()` and `f.date()`: string formats with an order. */
export interface DateField extends FieldModifiers<string, FilterOp>, Sortable {}
/** `f.ref(collection)`. */
export interface RefField extends FieldModifiers<string> {
  /**
   * `?expand=<field>` (on get, list and the answers of writes) replaces the id with the referenced resource, as
   * the caller's version shows it, read through that collection's handlers with the caller's credential (one
   * level deep). `{ addedIn, removedIn }` makes it expandable in those versions only.
   * @example f.ref('customers').expandable()
   */
  expandable(options?: Lifespan): this;
}
/** `f.array(of)`. */
export interface ArrayField<T> extends FieldModifiers<T[]>, Bounded {}
/** `f.object({...})`. */
export type ObjectField<T> = FieldModifiers<T>;

/** What a resource shows for a file field: the upload's metadata and where to download it. */
export interface FileValue {
  /** The file name the upload gave (directories and control characters removed). */
  readonly name: string;
  /** Its media type, one of the field's `types`. */
  readonly type: string;
  /** Its size in bytes. */
  readonly size: number;
  /** The SHA-256 of its content, lower-case hex. */
  readonly sha256: string;
  /** Where to download it: `/vN/<collection>/{id}/<field>`. */
  readonly href: string;
}

/** The options of `f.file(...)`. */
export interface FileOptions {
  /** The largest upload accepted, in bytes (a whole number of at least 1); a larger one answers 413. */
  readonly maxBytes: number;
  /** The media types an upload may have (`'application/pdf'`), checked by the part's type and its leading bytes; another answers 415. */
  readonly types: readonly [string, ...string[]];
}

/**
 * `f.file({...})`: uploaded as a part of a `multipart/form-data` body, stored by the server's `FileStore`,
 * answered as {@link FileValue} metadata and downloaded at `/vN/<collection>/{id}/<field>`. A file field has
 * no default, example or bounds, is not unique, filterable, read-only or write-only, changes type in no version
 * (`typeChangedFrom`), and is not made optional in a version (older versions would require a file the server cannot
 * make up): the modifiers it has are these.
 */
export interface FileField extends AnyField {
  /** Phantom: the value type. Never set at run time. */
  readonly __value?: FileValue;
  /** The resource may have no file (a create may leave the part out). @example f.file({ maxBytes: 1e6, types: ['image/png'] }).optional() */
  optional(): this;
  /** The file may be removed: an update that sends `null` for it deletes the stored file. @example f.file({ maxBytes: 1e6, types: ['image/png'] }).optional().nullable() */
  nullable(): this;
  /** Documentation, carried into OpenAPI and JSDoc. @example f.file({ maxBytes: 1e6, types: ['image/png'] }).description('The avatar') */
  description(text: string): this;
  /** Still served, but clients should stop using it. @example f.file({ maxBytes: 1e6, types: ['image/png'] }).deprecated() */
  deprecated(): this;
  /** The field exists from version `version` on. @example f.file({ maxBytes: 1e6, types: ['image/png'] }).optional().addedIn('v2') */
  addedIn(version: string): this;
  /** The field no longer exists from `version` on (an optional file field, or `{ fallback: null }` for a nullable one). @example f.file({ maxBytes: 1e6, types: ['image/png'] }).optional().removedIn('v3') */
  removedIn(version: string, options?: { fallback: null }): this;
  /** Before `version` the field was called `oldName`. @example f.file({ maxBytes: 1e6, types: ['image/png'] }).renamedFrom('picture', 'v2') */
  renamedFrom(oldName: string, version: string): this;
  /** Before `version` this required field was optional. @example f.file({ maxBytes: 1e6, types: ['image/png'] }).madeRequiredIn('v2') */
  madeRequiredIn(version: string): this;
}
