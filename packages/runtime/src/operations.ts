/**
 * The operations table: what each of a collection's six operations is on the wire. The generator (routes,
 * OpenAPI, zod schemas), the diff engine (which routes a change touches) and this runtime (mounting, access)
 * all read it, so an operation's facts are written once.
 */

/** The six operations a collection can offer, in the order they are always listed. */
export const OPERATIONS = ['list', 'get', 'create', 'replace', 'update', 'delete'] as const;

/** One of the six operations. */
export type OperationName = (typeof OPERATIONS)[number];

/** What one operation is. */
export interface OperationFacts {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path it is served at: the collection (`/orders`) or one member (`/orders/{id}`). */
  readonly target: 'collection' | 'item';
  /** The request body it takes, by the schema that checks it, or null for none. */
  readonly body: 'create' | 'replace' | 'patch' | null;
  /** Whether it takes the list query (`limit`, `cursor`, filters). */
  readonly query: boolean;
  /** Its success status. */
  readonly status: 200 | 201 | 204;
  /** The access its scopes are checked for. */
  readonly access: 'read' | 'write';
  /**
   * Whether it takes an `Idempotency-Key`: the server runs a request once per key and replays its answer to a
   * repeat (lifecycle transitions take one too).
   */
  readonly idempotencyKey: boolean;
}

/** Every operation's facts. */
export const OPERATION_FACTS: {
  readonly [K in OperationName]: OperationFacts;
} = {
  list: {
    method: 'GET',
    target: 'collection',
    body: null,
    query: true,
    status: 200,
    access: 'read',
    idempotencyKey: false,
  },
  get: {
    method: 'GET',
    target: 'item',
    body: null,
    query: false,
    status: 200,
    access: 'read',
    idempotencyKey: false,
  },
  create: {
    method: 'POST',
    target: 'collection',
    body: 'create',
    query: false,
    status: 201,
    access: 'write',
    idempotencyKey: true,
  },
  replace: {
    method: 'PUT',
    target: 'item',
    body: 'replace',
    query: false,
    status: 200,
    access: 'write',
    idempotencyKey: false,
  },
  update: {
    method: 'PATCH',
    target: 'item',
    body: 'patch',
    query: false,
    status: 200,
    access: 'write',
    idempotencyKey: false,
  },
  delete: {
    method: 'DELETE',
    target: 'item',
    body: null,
    query: false,
    status: 204,
    access: 'write',
    idempotencyKey: false,
  },
};

/** Every method a served path answers, in the order its `Allow` header lists them. */
export const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The `Allow` header of a path that declares `methods`: HEAD wherever GET is, OPTIONS always. */
export const allowOf = (methods: ReadonlySet<string>): string =>
  ALL_METHODS.filter((x) => methods.has(x) || (x === 'HEAD' && methods.has('GET')) || x === 'OPTIONS').join(', ');
