/**
 * `applyPatch(stored, patch)`: the merge an `update` handler does, typed. A PATCH body arrives as zod's partial
 * output, whose members are `T | undefined`; spreading it over the stored resource types every member as possibly
 * `undefined`, which a resource type does not allow under `exactOptionalPropertyTypes`. The merge is the one the
 * in-memory store does: a member the patch sends replaces the stored one (a nested object as a whole, `null`
 * included), a member it leaves out (or sends as `undefined`) keeps its stored value.
 */

/** A patch of `T`: any of its members, each possibly `undefined` (zod's `.partial()` output has this shape). */
export type PatchOf<T> = { readonly [K in keyof T]?: T[K] | undefined };

/**
 * `stored` with every member `patch` sends, typed as the stored resource (no cast needed under
 * `exactOptionalPropertyTypes`). Members of the patch the resource type does not have (a write-only field such as a
 * password) are copied too: take them out first when they must not be stored as sent.
 * @example
 * async update(id, patch, ctx) {
 *   const stored = await db.find(id);
 *   if (!stored) return new NotFound();
 *   return db.save(applyPatch(stored, patch));
 * }
 */
export function applyPatch<T extends object>(stored: T, patch: NoInfer<PatchOf<T>>): T {
  const next = { ...stored } as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) if (value !== undefined) next[key] = value;
  return next as T;
}
