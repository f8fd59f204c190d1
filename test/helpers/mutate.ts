/**
 * Seeded random values for differential tests: a generator (mulberry32), so a failure reproduces, and
 * mutations of a valid value (a value replaced, a key added or removed, an item added, at any depth).
 */

/** A seeded generator of numbers in [0, 1). */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What a mutation puts in: replacement values (`odd`), and the names of keys it adds (`keys`). */
export interface Mutations {
  readonly odd: readonly unknown[];
  readonly keys: readonly string[];
}

/** A copy of `value` with one random change somewhere (a value replaced, a key added or removed). */
export function mutate(value: unknown, next: () => number, m: Mutations): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  if (Array.isArray(value)) {
    if (value.length === 0 || next() < 0.2) return [...value, pick(m.odd)];
    const i = Math.floor(next() * value.length);
    return value.map((v, j) => (j === i ? mutate(v, next, m) : v));
  }
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    const keys = Object.keys(value);
    const roll = next();
    if (keys.length === 0 || roll < 0.1) return { ...value, [pick(m.keys)]: pick(m.odd) };
    const key = pick(keys);
    if (roll < 0.2) {
      const { [key]: _gone, ...rest } = value as Record<string, unknown>;
      return rest;
    }
    return { ...value, [key]: mutate((value as Record<string, unknown>)[key], next, m) };
  }
  return next() < 0.5 ? pick(m.odd) : value;
}
