/**
 * A version's namespace: per collection the methods its version offers (`list`, `get`, `create`,
 * `replace`, `update`, `delete`, and one per lifecycle transition), each a request on the shared transport.
 * @module
 */
import { ApiPromise, type PagePromise } from "./promises.js";
import type { RequestOptions } from "./options.js";
import type { Transport } from "./transport.js";

/** The six operations a collection may offer. */
export type OperationName =
  "list" | "get" | "create" | "replace" | "update" | "delete";

/** The types of one collection in one version, and the operations and transitions (by name: their input) it offers there. */
export interface CollectionTypes {
  item: unknown;
  create: unknown;
  replace: unknown;
  patch: unknown;
  query: object;
  ops: OperationName;
  transitions: object;
}

/**
 * A transition's method, `POST <collection>/{id}:<name>`: the resource in its new state. The input may be
 * left out when it has no required field. Sent with an `Idempotency-Key`, so a retry never moves it twice.
 */
export type TransitionMethod<I, T> = {} extends I
  ? (id: string, input?: I, opts?: RequestOptions) => ApiPromise<T>
  : (id: string, input: I, opts?: RequestOptions) => ApiPromise<T>;

/** Every method a collection can have; {@link Resource} keeps those its version offers. */
export interface ResourceMethods<C extends CollectionTypes> {
  /** One page (`await`), or every item of every page (`for await`). */
  list(query?: C["query"], opts?: RequestOptions): PagePromise<C["item"]>;
  /** One resource by id; a missing one throws NotFoundError. */
  get(id: string, opts?: RequestOptions): ApiPromise<C["item"]>;
  /** Creates a resource; retried safely with one `Idempotency-Key` per call. */
  create(body: C["create"], opts?: RequestOptions): ApiPromise<C["item"]>;
  /** Replaces every writable field of a resource. */
  replace(
    id: string,
    body: C["replace"],
    opts?: RequestOptions,
  ): ApiPromise<C["item"]>;
  /** Changes the fields given, keeps the rest. */
  update(
    id: string,
    patch: C["patch"],
    opts?: RequestOptions,
  ): ApiPromise<C["item"]>;
  /** Deletes a resource. */
  delete(id: string, opts?: RequestOptions): ApiPromise<void>;
}

/** A collection's methods in one version: only the operations and transitions that version offers. */
export type Resource<C extends CollectionTypes> = Pick<
  ResourceMethods<C>,
  C["ops"]
> & {
  readonly [K in keyof C["transitions"]]: TransitionMethod<
    C["transitions"][K],
    C["item"]
  >;
};

/** A version's collections, from a map of collection name to {@link CollectionTypes}. */
export type Namespace<M> = {
  readonly [K in keyof M]: M[K] extends CollectionTypes
    ? Resource<M[K]>
    : never;
};

/** A collection in a version: its path, operations and transitions. */
type CollectionSpec = readonly [
  path: string,
  ops: readonly OperationName[],
  transitions?: readonly string[],
];

/**
 * The path of one resource, `<path>/<id>` with the id as one segment. URLs resolve `.` and `..` segments
 * away (`%2e` too), and an empty id would name the collection itself: such an id is a `TypeError` (as a
 * rejected promise) and nothing is sent, so a credential never reaches a path the caller did not name.
 */
function byId<T>(
  path: string,
  id: string,
  send: (resource: string) => ApiPromise<T>,
): ApiPromise<T> {
  const segment = String(id);
  if (segment === "" || segment === "." || segment === "..")
    return new ApiPromise<T>(
      Promise.reject(
        new TypeError(
          `${JSON.stringify(segment)} is not an id: a URL path cannot carry it (${path}/${segment} would name another path).`,
        ),
      ),
    );
  return send(`${path}/${encodeURIComponent(segment)}`);
}

/** Builds a version's namespace: per collection its path, operations and transitions. */
export function createNamespace<M>(
  t: Transport,
  version: string,
  spec: Record<keyof M & string, CollectionSpec>,
): Namespace<M> {
  const namespace: Record<string, Record<string, unknown>> = {};
  for (const [
    name,
    [path, ops, transitions = []],
  ] of Object.entries<CollectionSpec>(spec)) {
    const all: ResourceMethods<CollectionTypes> = {
      list: (query, opts) => t.list(version, path, query ?? {}, opts),
      get: (id, opts) =>
        byId(path, id, (one) =>
          t.request("GET", version, one, undefined, opts),
        ),
      create: (body, opts) => t.request("POST", version, path, body, opts),
      replace: (id, body, opts) =>
        byId(path, id, (one) => t.request("PUT", version, one, body, opts)),
      update: (id, patch, opts) =>
        byId(path, id, (one) => t.request("PATCH", version, one, patch, opts)),
      delete: (id, opts) =>
        byId(path, id, (one) =>
          t.request("DELETE", version, one, undefined, opts),
        ),
    };
    const moves = transitions.map((verb) => [
      verb,
      (id: string, input?: object, opts?: RequestOptions) =>
        byId(path, id, (one) =>
          t.request("POST", version, `${one}:${verb}`, input ?? {}, opts),
        ),
    ]);
    namespace[name] = Object.fromEntries([
      ...ops.map((op) => [op, all[op]]),
      ...moves,
    ]);
  }
  // The generated version module pairs each collection's types with its operations; the cast states that.
  return namespace as Namespace<M>;
}
