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
 * The types of a collection in a version (those of its operations), its operations, its transitions (by name:
 * their input), its id field's name, the resource each expandable ref holds when expanded, and the answers that
 * show more than `item`, by operation or transition name (the webhook endpoints' create and rotateSecret answer
 * the signing secret).
 */
export interface CollectionTypes {
  item: unknown;
  create?: unknown;
  replace?: unknown;
  patch?: unknown;
  query?: object;
  ops: OperationName;
  transitions?: object;
  id?: string;
  expand?: object;
  answers?: object;
}

/** The names a request's `fields` or `expand` (`K`) lists, or never when it lists none. */
type Named<P, K extends string> = P extends { [Q in K]?: readonly (infer N)[] }
  ? string extends N
    ? never
    : N
  : never;

/** What `K` (an operation or a transition) of a collection answers: its own answer type, else `item`. */
export type AnswerOf<C extends { item: unknown }, K> = C extends {
  answers: infer A;
}
  ? K extends keyof A
    ? A[K]
    : C["item"]
  : C["item"];

/** The refs a collection can expand. */
type ExpandName<C extends CollectionTypes> = keyof C["expand"] & string;

/**
 * The resource as a request with `P` (its `fields` and `expand`) shows it: only the fields named, the id and the
 * expanded refs (all without `fields`), each expanded ref as the resource it names in this version (null when
 * that no longer exists).
 */
export type Shown<C extends CollectionTypes, P> = Expanded<
  [Named<P, "fields">] extends [never]
    ? C["item"]
    : Pick<
        C["item"],
        Extract<
          keyof C["item"],
          Named<P, "fields"> | C["id"] | Named<P, "expand">
        >
      >,
  Named<P, "expand">,
  C["expand"]
>;
/** `T` with the refs `E` as the resources `X` maps them to (an optional ref stays optional). */
type Expanded<T, E, X> = [E] extends [never]
  ? T
  : Omit<T, E & keyof X> & {
      [K in keyof Pick<T, E & keyof X & keyof T>]: X[K & keyof X] | null;
    };

/** What `K` (create or a transition) answers when `V` asks for refs expanded: its answer type, those refs expanded. */
type Written<C extends CollectionTypes, K, V> = Expanded<
  AnswerOf<C, K>,
  Named<V, "expand">,
  C["expand"]
>;

/** What a get may ask for: some fields only, refs expanded. */
export interface ReadView<C extends CollectionTypes> {
  fields?: readonly (keyof C["item"] & string)[];
  expand?: readonly ExpandName<C>[];
}
/** What a write or a transition may ask for: refs of its answer expanded. */
export interface WriteView<C extends CollectionTypes> {
  expand?: readonly ExpandName<C>[];
}

/**
 * A transition's method, `POST <collection>/{id}:<name>`; an input without required fields may be left out.
 * `opts.expand` expands refs of the answer.
 */
export type TransitionMethod<C extends CollectionTypes, K, I> = {} extends I
  ? <const V extends WriteView<C> = {}>(
      id: string,
      input?: I,
      opts?: RequestOptions & V,
    ) => ApiPromise<Written<C, K, V>>
  : <const V extends WriteView<C> = {}>(
      id: string,
      input: I,
      opts?: RequestOptions & V,
    ) => ApiPromise<Written<C, K, V>>;

/**
 * Every method a collection can have; {@link Resource} keeps those its version offers. A list's `fields` and
 * `expand`, and `opts.fields` and `opts.expand` of the others, narrow the type of what they answer.
 */
export interface ResourceMethods<C extends CollectionTypes> {
  /** One page (`await`), or every item of every page (`for await`); the pages after the first keep the query. */
  list<const Q extends NonNullable<C["query"]> = {}>(
    query?: Q,
    opts?: RequestOptions,
  ): PagePromise<Shown<C, Q>>;
  /** One resource by id; a missing one throws NotFoundError. */
  get<const V extends ReadView<C> = {}>(
    id: string,
    opts?: RequestOptions & V,
  ): ApiPromise<Shown<C, V>>;
  /** Creates a resource; retried safely with one `Idempotency-Key` per call. */
  create<const V extends WriteView<C> = {}>(
    body: C["create"],
    opts?: RequestOptions & V,
  ): ApiPromise<Written<C, "create", V>>;
  /** Replaces every writable field of a resource. */
  replace<const V extends WriteView<C> = {}>(
    id: string,
    body: C["replace"],
    opts?: RequestOptions & V,
  ): ApiPromise<Shown<C, V>>;
  /** Changes the fields given, keeps the rest. */
  update<const V extends WriteView<C> = {}>(
    id: string,
    patch: C["patch"],
    opts?: RequestOptions & V,
  ): ApiPromise<Shown<C, V>>;
  /** Deletes a resource. */
  delete(id: string, opts?: RequestOptions): ApiPromise<void>;
}

/** A collection's methods in one version: only the operations and transitions that version offers. */
export type Resource<C extends CollectionTypes> = Pick<
  ResourceMethods<C>,
  C["ops"]
> &
  (C extends { transitions: infer X extends object }
    ? { readonly [K in keyof X]: TransitionMethod<C, K, X[K]> }
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
        // The next page keeps the filters and the sort: its cursor is valid only with them.
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
