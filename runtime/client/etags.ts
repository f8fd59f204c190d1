/**
 * The ETag of each resource the client returned (from the `ETag` header of its answer), so that a later
 * write can be made conditional on it: `update(id, patch, { ifMatch: etagOf(order) })`.
 * @module
 */

const etags = new WeakMap<object, string>();

/** Remembers the ETag an answer carried for the resource it returned. */
export function rememberEtag(resource: unknown, etag: string | null): void {
  if (etag && resource instanceof Object) etags.set(resource, etag);
}

/**
 * The ETag of a resource this client returned (get, create, replace, update, a transition), for `ifMatch`
 * and `ifNoneMatch`. Any other object (a copy, a list item: lists carry no ETags) is a TypeError, so a
 * write meant to be conditional is never sent without its condition.
 */
export function etagOf(resource: object): string {
  const etag = etags.get(resource);
  if (etag === undefined)
    throw new TypeError(
      "etagOf: this client did not return that object (a copy, or a list item?), so it has no ETag",
    );
  return etag;
}
