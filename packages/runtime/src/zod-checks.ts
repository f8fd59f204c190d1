/**
 * The checks zod runs, read from a schema's internals as tests that are never looser than zod's: the
 * shared ground of the checked writer (`checked-text.ts`) and the checked reader (`checked-read.ts`),
 * which go through a value in one pass where zod's verdict is known, and leave every other value to zod.
 */

import { checkDefOf, type CheckDef, type Schema } from './zod-internals.js';

const SURROGATE = /[\ud800-\udfff]/;

/** String formats whose zod check is exactly a test of the format's `pattern`. */
const PATTERN_FORMATS = new Set(['uuid', 'guid', 'email', 'datetime', 'date', 'time', 'duration', 'regex']);
/** The bounds of zod's number formats (`z.int()` is `safeint`). */
const NUMBER_FORMATS: Readonly<Partial<Record<string, readonly [number, number]>>> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
  float64: [-Number.MAX_VALUE, Number.MAX_VALUE],
};

/** The checks a schema runs: its own (a format schema such as `z.uuid()` is a check itself), then those added to it. */
export const checksOf = (schema: Schema): CheckDef[] => {
  const def = schema._zod.def;
  // A format schema's definition is its check's (`$ZodUUIDDef` is a `$ZodCheckStringFormatDef`); a custom one's
  // (`check: 'custom'`) is a refinement, which no test here reads.
  const own = 'check' in def ? [def as CheckDef] : [];
  return [...own, ...(def.checks ?? []).map(checkDefOf)];
};

/** One check zod runs, as a test of a value of its kind. */
export type Test<T> = (value: T) => boolean;

/**
 * A length check, never looser than zod: lengths are counted in UTF-16 units, and a string holding a
 * surrogate (where zod may count code points) fails unless units alone settle it, for zod then fails too
 * or counts only units.
 */
export function lengthTest(c: CheckDef): Test<string | unknown[]> | null {
  const exact = (v: string | unknown[]) => typeof v !== 'string' || !SURROGATE.test(v);
  switch (c.check) {
    case 'max_length': {
      const { maximum } = c;
      return (v) => v.length <= maximum;
    }
    case 'min_length': {
      const { minimum } = c;
      return (v) => v.length >= minimum && (v.length >= 2 * minimum || exact(v));
    }
    case 'length_equals': {
      const { length } = c;
      return (v) => v.length === length && exact(v);
    }
    default:
      return null;
  }
}

/** The test of one string check zod runs, or null when it is not one read here. */
export function stringTest(c: CheckDef): Test<string> | null {
  const length = lengthTest(c);
  if (length !== null) return length;
  if (c.check !== 'string_format') return null;
  const pattern = c.pattern;
  if (!(pattern instanceof RegExp) || !PATTERN_FORMATS.has(c.format)) return null;
  return (v) => {
    pattern.lastIndex = 0;
    return pattern.test(v);
  };
}

/** The test of one number check zod runs, or null when it is not one read here. */
export function numberTest(c: CheckDef): Test<number> | null {
  switch (c.check) {
    case 'greater_than': {
      const bound = c.value;
      if (typeof bound !== 'number') return null;
      return c.inclusive ? (v) => v >= bound : (v) => v > bound;
    }
    case 'less_than': {
      const bound = c.value;
      if (typeof bound !== 'number') return null;
      return c.inclusive ? (v) => v <= bound : (v) => v < bound;
    }
    case 'number_format': {
      const range = NUMBER_FORMATS[c.format];
      if (range === undefined) return null;
      const [min, max] = range;
      return c.format === 'float64' ? (v) => v >= min && v <= max : (v) => Number.isSafeInteger(v) && v >= min && v <= max;
    }
    default:
      return null;
  }
}

const pass = (): boolean => true;

/** One test of them all (each answer calls it: no loop for one or two). */
function all<T>(tests: readonly Test<T>[]): Test<T> {
  const [a, b] = tests;
  if (a === undefined) return pass;
  if (b === undefined) return a;
  if (tests.length === 2) return (v) => a(v) && b(v);
  return (v) => {
    for (let i = 0; i < tests.length; i++) if (!tests[i]!(v)) return false;
    return true;
  };
}

/** Tests of every check, or null when one is not read here. */
export function testsOf<T>(checks: readonly CheckDef[], read: (c: CheckDef) => Test<T> | null): Test<T> | null {
  const tests = checks.map(read);
  return tests.every((t) => t !== null) ? all(tests as Test<T>[]) : null;
}

/** A value JSON writes as it is: a string, a boolean, null or a finite number. */
export const isJsonScalar = (v: unknown): boolean =>
  typeof v === 'string' || typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v));

/** A character JSON writes as it is, and that means only itself in a pattern: ASCII, printable, no quote or backslash. */
const isPlainChar = (c: string): boolean => c >= ' ' && c <= '~' && c !== '"' && c !== '\\';
/** Characters a pattern may escape to mean the character itself. */
const LITERAL_ESCAPES = new Set([...'-.+*?^$|()[]{}/:,']);
/** Character ranges whose every character JSON writes as it is. */
const PLAIN_RANGES = ['09', 'AZ', 'az'];

/**
 * The end of the character class starting at `at` (`[`) of a pattern's source when every character it
 * matches is plain (see {@link escapeFree}), else -1: no negation, only plain characters, `\d`, `\w`,
 * escaped punctuation, and ranges within digits, upper or lower case letters.
 */
function plainClassEnd(source: string, at: number): number {
  if (source[at + 1] === '^' || source[at + 1] === ']') return -1;
  for (let i = at + 1; i < source.length; i++) {
    const c = source[i]!;
    if (c === ']') return i;
    if (c === '\\') {
      const e = source[++i] ?? '';
      if (e !== 'd' && e !== 'w' && !LITERAL_ESCAPES.has(e)) return -1;
      // An escape that starts a range (`[\\--z]` holds the backslash): refused.
      if (source[i + 1] === '-' && source[i + 2] !== ']') return -1;
      continue;
    }
    if (!isPlainChar(c) || c === '[') return -1;
    if (source[i + 1] === '-' && source[i + 2] !== undefined && source[i + 2] !== ']') {
      const to = source[i + 2]!;
      if (!PLAIN_RANGES.some(([a, b]) => a! <= c && to <= b! && c <= to)) return -1;
      i += 2;
    }
  }
  return -1;
}

/**
 * Whether every string `pattern` accepts holds only characters `JSON.stringify` writes as they are (no
 * quote, backslash, control character or surrogate), so that a string that passed it is written by
 * quoting it. Read from the pattern's source, never looser: it must match the whole string (`^...$` with
 * no top-level alternative, no multiline flag) and hold only plain characters, `\d`, `\w`, escaped
 * punctuation, groups, quantifiers and plain character classes; anything else (`.`, a negated class, a
 * backreference, another escape) answers false, and the string is escaped as before.
 */
export function escapeFree(pattern: RegExp): boolean {
  if (/[msv]/.test(pattern.flags)) return false;
  const source = pattern.source;
  if (!source.startsWith('^') || !source.endsWith('$')) return false;
  let depth = 0;
  const last = source.length - 1;
  for (let i = 1; i < last; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const e = source[++i] ?? '';
      if (i >= last || (e !== 'd' && e !== 'w' && !LITERAL_ESCAPES.has(e))) return false;
    } else if (c === '[') {
      i = plainClassEnd(source, i);
      if (i < 0 || i >= last) return false;
    } else if (c === '(') {
      depth++;
      // A group, capturing or not (`(?:`); named groups and lookarounds (`(?<`, `(?=`, `(?!`) are refused.
      if (source[i + 1] === '?' && source[i + 2] !== ':') return false;
    } else if (c === ')') {
      if (--depth < 0) return false;
    } else if (c === '|') {
      if (depth === 0) return false;
    } else if (c === '.' || c === '^' || c === '$' || !isPlainChar(c)) return false;
  }
  return depth === 0;
}
