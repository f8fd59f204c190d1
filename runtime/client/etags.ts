/**
 * The ETag of each resource the client returned (from the `ETag` header of its answer), so that a later
 * write can be made conditional on it: `update(id, patch, { ifMatch: order })`, or `etagOf(order)`.
 * @module
 */

const etags = new WeakMap<object, string>();

/** Remembers the ETag an answer carried for the resource it returned. */
export function rememberEtag(resource: unknown, etag: string | null): void {
  if (etag !== null && typeof resource === "object" && resource !== null)
    etags.set(resource, etag);
}

/**
 * The ETag of a resource this client returned (get, create, replace, update, a transition), or undefined
 * for any other object (a copy, a list item: lists carry no ETags).
 */
export function etagOf(resource: object): string | undefined {
  return etags.get(resource);
}

/** The header value of an `ifMatch` / `ifNoneMatch` option: an ETag as given, or the ETag of a resource the client returned. */
export function tagOf(value: string | object, option: string): string {
  if (typeof value === "string") return value;
  const etag = etags.get(value);
  if (etag === undefined)
    throw new TypeError(
      `${option} was given an object this client did not return (a copy, or a list item); pass a resource as get, create, replace, update or a transition returned it, or its ETag as a string.`,
    );
  return etag;
}
