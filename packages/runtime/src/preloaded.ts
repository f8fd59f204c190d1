/**
 * The resource a route read before its handler ran, kept with the context it passes the handler: a delete of a
 * collection with file fields reads the resource for the keys of its content, and the delete's event (which
 * carries the resource as it was) takes that read rather than calling the get handler a second time.
 */

/** What was read, by the context given to the handler. */
const loaded = new WeakMap<object, { readonly value: unknown }>();

/** Keeps `value` as what was read for the handler called with `ctx`; answers `ctx`. */
export function preload<C extends object>(ctx: C, value: unknown): C {
  loaded.set(ctx, { value });
  return ctx;
}

/** What was read for the handler called with `ctx`, or undefined when nothing was. */
export const preloadedOf = (ctx: object): { readonly value: unknown } | undefined => loaded.get(ctx);
