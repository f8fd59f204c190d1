/**
 * @module The kinds table: what each field kind is, in one place. Every per-kind decision in restgen either
 * reads this table or is a table of its own keyed by {@link TypeKind} (`{ [K in TypeKind]: ... }`, as the
 * emitters' writers are), so adding a kind is a compile error wherever it must be handled, and nowhere else
 * needs an edit (test/model/kinds.test.ts adds one in a scratch copy and checks exactly that).
 */
import type { FieldKind } from '../dsl/defs.ts';
import type { TypeIR, TypeKind } from './ir.ts';

/** What `min` and `max` bound: a string's length, a number's value, an array's item count. */
export type Bounds = 'length' | 'value' | 'items';

/** The string formats restgen checks (with zod's own rules), by the name JSON Schema gives them. */
export type StringFormat = 'date-time' | 'date' | 'uuid' | 'email' | 'uri';

/** How the in-memory store fills a required read-only field of the kind when nothing else says. */
export type Assigned = 'uuid' | 'now' | 'today';

/** The facts about one kind; `T` is the kind's IR type (an enum's values, an array's items). */
export interface KindFacts<T> {
  /** The JSON type of a value on the wire (JSON Schema's `type`). */
  readonly wire: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  /** The string format a value must have, or null. Kinds of one format look the same on the wire. */
  readonly format: StringFormat | null;
  /** What `min()`/`max()` bound, or null when the kind has neither. */
  readonly bounds: Bounds | null;
  /** Whether `pattern()` applies. */
  readonly pattern: boolean;
  /** Whether `valueAddedIn()` applies (values that exist only from a later version on). */
  readonly versionedValues: boolean;
  /**
   * Whether values have an order a list can sort by and compare with `gt`, `gte`, `lt` and `lte`: numbers by
   * value, dates and date-times by instant, strings by Unicode code point.
   */
  readonly ordered: boolean;
  /** What the memory store generates for a required read-only field of the kind, or null (a sample value). */
  readonly assigned: Assigned | null;
  /** A value of the kind that meets its bounds: for stand-ins where no user value exists (serve, seeds). */
  readonly sample: (type: T) => unknown;
  /**
   * Whether values of the kind are files: sent as a part of a `multipart/form-data` body (never inside JSON or
   * XML), kept by the server's file store, answered as their metadata, and downloaded at a path of their own.
   */
  readonly file: boolean;
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
/** The SHA-256 of no bytes. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const uuid: KindFacts<unknown> = {
  wire: 'string',
  format: 'uuid',
  bounds: null,
  pattern: false,
  versionedValues: false,
  ordered: false,
  assigned: 'uuid',
  sample: () => NIL_UUID,
  file: false,
};
const bounded = (t: { readonly min?: number }): number => t.min ?? 0;

/** Every kind's facts. */
export const KINDS: { readonly [K in TypeKind]: KindFacts<Extract<TypeIR, { kind: K }>> } = {
  string: {
    wire: 'string',
    format: null,
    bounds: 'length',
    pattern: true,
    versionedValues: false,
    ordered: true,
    assigned: null,
    sample: (t) => 'x'.repeat(t.min ?? 0),
    file: false,
  },
  int: { wire: 'integer', format: null, bounds: 'value', pattern: false, versionedValues: false, ordered: true, assigned: null, sample: bounded, file: false },
  number: {
    wire: 'number',
    format: null,
    bounds: 'value',
    pattern: false,
    versionedValues: false,
    ordered: true,
    assigned: null,
    sample: bounded,
    file: false,
  },
  boolean: {
    wire: 'boolean',
    format: null,
    bounds: null,
    pattern: false,
    versionedValues: false,
    ordered: false,
    assigned: null,
    sample: () => false,
    file: false,
  },
  enum: {
    wire: 'string',
    format: null,
    bounds: null,
    pattern: false,
    versionedValues: true,
    ordered: false,
    assigned: null,
    sample: (t) => t.values[0],
    file: false,
  },
  datetime: {
    wire: 'string',
    format: 'date-time',
    bounds: null,
    pattern: false,
    versionedValues: false,
    ordered: true,
    assigned: 'now',
    sample: () => '1970-01-01T00:00:00Z',
    file: false,
  },
  date: {
    wire: 'string',
    format: 'date',
    bounds: null,
    pattern: false,
    versionedValues: false,
    ordered: true,
    assigned: 'today',
    sample: () => '1970-01-01',
    file: false,
  },
  uuid,
  email: {
    wire: 'string',
    format: 'email',
    bounds: null,
    pattern: false,
    versionedValues: false,
    ordered: false,
    assigned: null,
    sample: () => 'someone@example.com',
    file: false,
  },
  url: {
    wire: 'string',
    format: 'uri',
    bounds: null,
    pattern: false,
    versionedValues: false,
    ordered: false,
    assigned: null,
    sample: () => 'https://example.com/',
    file: false,
  },
  id: uuid,
  ref: uuid,
  array: {
    wire: 'array',
    format: null,
    bounds: 'items',
    pattern: false,
    versionedValues: false,
    ordered: false,
    assigned: null,
    sample: () => [],
    file: false,
  },
  object: {
    wire: 'object',
    format: null,
    bounds: null,
    pattern: false,
    versionedValues: false,
    ordered: false,
    assigned: null,
    sample: () => ({}),
    file: false,
  },
  // On the wire of a JSON answer a file is its metadata, an object; its content travels on a path of its own.
  file: {
    wire: 'object',
    format: null,
    bounds: null,
    pattern: false,
    versionedValues: false,
    ordered: false,
    assigned: null,
    sample: (t) => ({ name: 'file', type: t.types[0] ?? 'application/octet-stream', size: 0, sha256: EMPTY_SHA256, key: 'sample' }),
    file: true,
  },
};

/** The facts of `type`'s kind. */
export function kindOf<T extends TypeIR<F>, F>(type: T): KindFacts<T> {
  return KINDS[type.kind] as unknown as KindFacts<T>;
}

/** A sample value of `type` (see {@link KindFacts.sample}). */
export function sampleOf<F>(type: TypeIR<F>): unknown {
  return (KINDS[type.kind].sample as (t: TypeIR<F>) => unknown)(type);
}

/** Throws on a value a `switch` over a closed union should never see: the compiler proves it unreachable. */
export function assertNever(value: never, what = 'kind'): never {
  throw new Error(`internal error: unexpected ${what} ${JSON.stringify(value)}`);
}

// The DSL's kinds and the IR's are one list: a kind added to one and not the other fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameKinds: Same<FieldKind, TypeKind> = true;
void sameKinds;
