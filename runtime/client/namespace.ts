/**
 * A version's namespace: per collection the methods its version offers (`list`, `get`, `create`,
 * `replace`, `update`, `delete`, and one per lifecycle transition), each a request on the shared transport.
 * @module
 */
import type { ApiError } from "./failures.js";
import type { RequestOptions } from "./options.js";
import {
  apiPromise,
  pagePromise,
  type ApiPromise,
  type Page,
  type PagePromise,
  type WithResponse,
} from "./promises.js";
import type { Transport } from "./transport.js";

export type { Transport };

/** The six operations a collection may offer. */
export type OperationName =
  "list" | "get" | "create" | "replace" | "update" | "delete";

/**
 * The types of a collection in a version (those of its operations), its operations, its transitions (by name: their
 * input), and the answers that show more than `item`, by operation or transition name (the webhook endpoints' create
 * and rotateSecret answer the signing secret).
 */
export interface CollectionTypes {
  item: unknown;
  create?: unknown;
  replace?: unknown;
  patch?: unknown;
  query?: object;
  ops: OperationName;
  transitions?: object;
  answers?: object;
}

/** What `K` (an operation or a transition) of a collection answers: its own answer type, else `item`. */
export type AnswerOf<C extends { item: unknown }, K> = C extends {
  answers: infer A;
}
  ? K extends keyof A
    ? A[K]
    : C["item"]
  : C["item"];

/** A transition's method, `POST <collection>/{id}:<name>`; an input without required fields may be left out. */
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
  create(
    body: C["create"],
    opts?: RequestOptions,
  ): ApiPromise<AnswerOf<C, "create">>;
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
> &
  (C extends { transitions: infer X }
    ? { readonly [K in keyof X]: TransitionMethod<X[K], AnswerOf<C, K>> }
    : {});

/** A version's collections, from a map of collection name to {@link CollectionTypes}. */
export type Namespace<M> = {
  readonly [K in keyof M]: M[K] extends CollectionTypes
    ? Resource<M[K]>
    : never;
};

/**
 * Sends a request to one resource, `<path>/<id>` (the id as one segment) then `suffix` (a transition's
 * `:verb`). URLs resolve `.` and `..` away (`%2e` too) and an empty id names the collection: such an id is
 * a TypeError and nothing is sent, so no credential reaches a path the caller did not name.
 */
type Send = (
  method: string,
  id: string,
  body: unknown,
  opts: RequestOptions | undefined,
  suffix?: string,
  errors?: Record<string, typeof ApiError>,
) => ApiPromise<unknown>;

/** A collection in a version: its operations, transitions and path (when it is not the collection's name). */
type CollectionSpec = readonly [
  ops: readonly OperationName[],
  transitions?: readonly string[],
  path?: string,
];

/**
 * Builds a version's namespace: per collection its path, operations and transitions. A transition's method
 * is `POST <collection>/{id}:<verb>`; its input may be left out (`{}` is sent), and as a POST it carries an
 * `Idempotency-Key`, so a retry never moves the resource twice. `transitionErrors`: the error classes of
 * transition answers (a version with transitions passes `transitions.ts`'s, which make their 409 an
 * `InvalidTransitionError`).
 */
export function createNamespace<M>(
  t: Transport,
  version: string,
  spec: Record<keyof M & string, CollectionSpec>,
  transitionErrors?: Record<string, typeof ApiError>,
): Namespace<M> {
  const namespace: Record<string, Record<string, unknown>> = {};
  for (const [
    name,
    [ops, transitions = [], path = name],
  ] of Object.entries<CollectionSpec>(spec)) {
    const send: Send = (method, id, body, opts, suffix = "", errors) =>
      apiPromise(
        /^\.{0,2}$/.test(id)
          ? Promise.reject(new TypeError(`not an id: ${JSON.stringify(id)}`))
          : t(
              method,
              version,
              `${path}/${encodeURIComponent(id)}${suffix}`,
              body,
              opts,
              undefined,
              errors,
            ),
      );
    const list = (query = {}, opts?: RequestOptions): PagePromise<unknown> =>
      pagePromise(
        t("GET", version, path, undefined, opts, query) as Promise<
          WithResponse<Page<unknown>>
        >,
        (cursor) => list({ ...query, cursor }, opts),
      );
    const all: Record<OperationName, unknown> = {
      list,
      get: (id: string, opts?: RequestOptions) =>
        send("GET", id, undefined, opts),
      create: (body: unknown, opts?: RequestOptions) =>
        apiPromise(t("POST", version, path, body, opts)),
      replace: (id: string, body: unknown, opts?: RequestOptions) =>
        send("PUT", id, body, opts),
      update: (id: string, patch: unknown, opts?: RequestOptions) =>
        send("PATCH", id, patch, opts),
      delete: (id: string, opts?: RequestOptions) =>
        send("DELETE", id, undefined, opts),
    };
    const methods: Record<string, unknown> = (namespace[name] = {});
    for (const op of ops) methods[op] = all[op];
    for (const verb of transitions)
      methods[verb] = (id: string, input?: object, opts?: RequestOptions) =>
        send("POST", id, input ?? {}, opts, `:${verb}`, transitionErrors);
  }
  // The generated version module pairs each collection's types with its operations; the cast states that.
  return namespace as Namespace<M>;
}
