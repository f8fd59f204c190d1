/**
 * @module Valid request values, derived from the IR: one maker per field kind (bounds, patterns, enums,
 * formats), refs to records the run created, and values that are unique to the run where the field is
 * unique (and everywhere the run needs to tell its own records apart). A string with a pattern is drawn
 * from the pattern by fast-check's `stringMatching`; a pattern it cannot draw from falls back to the
 * field's `.example()`.
 */
import fc from 'fast-check';
import type { FieldAt, TypeIR, TypeKind } from 'restgen/contract';

/** The id of a record of the named collection (newest name) that the run created. */
export type RefIds = (collection: string) => string;

/** A value the run cannot make (a pattern fast-check cannot draw from, and no example). */
export class NoValue extends Error {}

/** The run's source of values. */
export interface Values {
  /** A fresh value of `field` for a request (unique to the run when the field is unique). */
  field(field: FieldAt, refs: RefIds): unknown;
  /** A fresh value of `field` other than `current`, or undefined when the field allows no other. */
  other(field: FieldAt, current: unknown, refs: RefIds): unknown;
  /** A text unique to this run and no other, whatever the seed (for Idempotency-Keys). */
  token(): string;
  /** The run's tag: part of every text value it makes, so its records can be told apart. */
  readonly tag: string;
  /** A pseudo-random whole number below `n`, from the run's seed. */
  below(n: number): number;
}

type Maker<K extends TypeKind> = (type: Extract<TypeIR<FieldAt>, { kind: K }>, n: number, g: Gen) => unknown;
interface Gen {
  readonly tag: string;
  readonly seed: number;
  readonly unique: boolean;
  readonly refs: RefIds;
  readonly field: FieldAt;
  next(): number;
  random(): number;
  used: Set<string>;
}

const BASE = Date.UTC(2026, 0, 1);
/** fast-check's arbitrary of each pattern, built once (building one costs far more than drawing from it). */
const ARBITRARIES = new Map<string, fc.Arbitrary<string>>();
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Fits `text` into the length bounds: padded to `min`; past `max`, random letters of a length inside them. */
function fit(text: string, g: Gen, min = 0, max = Infinity): string {
  let out = text;
  if (out.length > max) {
    out = '';
    for (let i = 0; i < max; i++) out += ALPHABET[Math.floor(g.random() * ALPHABET.length)]!;
  }
  return out.padEnd(min, 'x');
}

function patterned(type: Extract<TypeIR<FieldAt>, { kind: 'string' }>, n: number, g: Gen): string {
  const pattern = type.pattern!;
  const length = (s: string) => [...s].length;
  const fits = (s: string) => length(s) >= (type.min ?? 0) && length(s) <= (type.max ?? Infinity) && !(g.unique && g.used.has(`${pattern}\0${s}`));
  try {
    let arbitrary = ARBITRARIES.get(pattern);
    if (!arbitrary) ARBITRARIES.set(pattern, (arbitrary = fc.stringMatching(new RegExp(pattern, 'u'))));
    // Few samples first (most fit); more when the length bounds or uniqueness rule most of them out.
    for (const numRuns of [8, 64]) {
      const found = fc.sample(arbitrary, { seed: (g.seed + n * 7919) | 0, numRuns }).find(fits);
      if (found !== undefined) {
        g.used.add(`${pattern}\0${found}`);
        return found;
      }
    }
  } catch {
    // A pattern fast-check does not parse: the example below, if there is one.
  }
  const example = g.field.example?.value;
  if (typeof example === 'string' && !g.unique) return example;
  throw new NoValue(`cannot make a value of ${g.field.name} that matches /${pattern}/${g.unique ? ' and is unique' : ''}; give the field an .example()`);
}

/** A whole number in the bounds: small and varied, or spread widely when it must be unique. */
function whole(min: number | undefined, max: number | undefined, n: number, g: Gen): number {
  const lo = Math.ceil(min ?? 0);
  const hi = Math.floor(max ?? lo + 1e9);
  const span = Math.max(1, Math.min(hi - lo + 1, g.unique ? 1e9 : 1000));
  return lo + ((g.unique ? g.seed + n : n) % span);
}

const MAKERS: { readonly [K in TypeKind]: Maker<K> } = {
  string: (type, n, g) => (type.pattern !== undefined ? patterned(type, n, g) : fit(`rg${g.tag}${n}`, g, type.min, type.max)),
  int: (type, n, g) => whole(type.min, type.max, n, g),
  number: (type, n, g) => {
    const base = whole(type.min, type.max, n, g);
    return type.max === undefined || base + 0.25 <= type.max ? base + 0.25 : base;
  },
  boolean: (_type, n) => n % 2 === 0,
  enum: (type, n) => type.values[n % type.values.length],
  datetime: (_type, n) => new Date(BASE + n * 60_000).toISOString(),
  date: (_type, n) => new Date(BASE + n * 86_400_000).toISOString().slice(0, 10),
  uuid: () => crypto.randomUUID(),
  email: (_type, n, g) => `rg${g.tag}${n}@example.com`,
  url: (_type, n, g) => `https://example.com/rg${g.tag}/${n}`,
  id: () => crypto.randomUUID(),
  ref: (type, _n, g) => g.refs(type.collection),
  array: (type, _n, g) => {
    const count = Math.min(Math.max(type.min ?? 0, 1), type.max ?? Infinity);
    return Array.from({ length: count }, () => make(type.of, g));
  },
  object: (type, _n, g) => {
    const out: Record<string, unknown> = {};
    for (const f of type.fields) if (!f.readOnly) out[f.name] = make(f.type, { ...g, field: f, unique: f.unique });
    return out;
  },
};

function make(type: TypeIR<FieldAt>, g: Gen): unknown {
  return (MAKERS[type.kind] as Maker<TypeKind>)(type as never, g.next(), g);
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function randomFrom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The run's values, from `seed`. */
export function createValues(seed: number): Values {
  const random = randomFrom(seed);
  let counter = 0;
  let tag = '';
  for (let i = 0; i < 5; i++) tag += ALPHABET[Math.floor(random() * ALPHABET.length)]!;
  const used = new Set<string>();
  const gen = (field: FieldAt, refs: RefIds): Gen => ({ tag, seed: seed >>> 0, unique: field.unique, refs, field, next: () => ++counter, random, used });
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return {
    tag,
    field: (field, refs) => make(field.type, gen(field, refs)),
    other(field, current, refs) {
      const type = field.type;
      if (type.kind === 'enum') return type.values.find((v) => v !== current);
      if (type.kind === 'boolean') return typeof current === 'boolean' ? !current : true;
      if (type.kind === 'ref') return undefined;
      for (let i = 0; i < 5; i++) {
        const value = make(type, gen(field, refs));
        if (!same(value, current)) return value;
      }
      return undefined;
    },
    // Not from the seed: a server remembers Idempotency-Keys for hours, and a rerun with the same seed must not
    // get the answers of the run before.
    token: () => `rg-${tag}-${crypto.randomUUID()}`,
    below: (n) => Math.floor(random() * n),
  };
}
