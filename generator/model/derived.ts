/**
 * @module Data computed by a pure function from other data, with what it was computed from (its recipe: the
 * function's name and its arguments). A structural hash may hash the recipe instead of the data: the same recipe
 * always gives the same data, and the recipe is small and known before the data is read (a projected collection's
 * fields are projected when first read). Only immutable data computed by a pure function may be given a recipe.
 */

const recipes = new WeakMap<object, readonly unknown[]>();
const holders = new WeakSet<object>();

/** Records `from` (a function's name, then its arguments) as what `value` was computed from; returns `value`. */
export function derived<T extends object>(value: T, ...from: readonly unknown[]): T {
  recipes.set(value, from);
  return value;
}

/** What `value` was computed from, when {@link derived} recorded it. */
export const recipeOf = (value: object): readonly unknown[] | undefined => recipes.get(value);

/** Marks `value` as holding derived data (an API as a version sees it holds its collections); returns `value`. */
export function holding<T extends object>(value: T): T {
  holders.add(value);
  return value;
}

/** Whether `value` was marked by {@link holding}: a hash of it must look for derived data inside. */
export const holdsDerived = (value: object): boolean => holders.has(value);

/**
 * Data a pure function (named `name`, a module-level function) computes from `args`, computed when first read: until
 * then a hash of it can be answered from what it is computed from (see {@link derived}), and it never need be.
 */
export function lazily<T extends object, A extends readonly unknown[]>(name: string, compute: (...args: A) => T, ...args: A): T {
  let value: T | undefined;
  const target = (): T => (value ??= compute(...args));
  // Read through, as a plain object of the computed properties (JSON, spreads and `Object.entries` see them).
  const proxy = new Proxy({} as T, {
    get: (_, key) => Reflect.get(target(), key),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(target(), key);
      return found && { ...found, configurable: true };
    },
  });
  return derived(proxy, name, ...args);
}
