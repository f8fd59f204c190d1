/**
 * @module The operations of one collection in one version, as HTTP requests: the version's path or header,
 * the item and transition URLs, and `If-Match: *` on writes where the collection requires If-Match (unless a
 * check sends its own, or none on purpose). Every exchange goes to the observer, which judges it against the
 * version's document.
 */
import { OPERATION_FACTS, type OperationName } from '@restgen/runtime/contract';
import type { ApiAt, CollectionAt, ConformanceVersion } from 'restgen/contract';
import type { VersionDocument } from './documents.js';
import type { Http, HttpRequest } from './http.js';
import type { Exchange } from './types.js';

/** One version as the run calls it. */
export interface VersionScope {
  readonly name: string;
  readonly api: ApiAt;
  /** What the contract says of the version besides its projection (fills, shown states). */
  readonly contract: ConformanceVersion;
  readonly doc: VersionDocument;
  /** `/v2` with path versioning, empty with header versioning. */
  readonly prefix: string;
  /** The version header with header versioning. */
  readonly headers: Readonly<Record<string, string>>;
}

/** What an exchange was: the operation and the document path and method it answers to. */
export interface Target {
  readonly v: VersionScope;
  readonly c: CollectionAt;
  /** `create`, `get`, ..., or a transition as `:pay`. */
  readonly operation: string;
  readonly method: string;
  readonly template: string;
}

/** Options of one call. */
export interface CallOptions {
  readonly headers?: Readonly<Record<string, string>>;
  /** An If-Match to send; null sends none even where the collection requires it. */
  readonly ifMatch?: string | null;
}

/** The HTTP operations of a collection in a version. */
export interface CollectionClient {
  readonly v: VersionScope;
  readonly c: CollectionAt;
  create(body: unknown, options?: CallOptions): Promise<Exchange>;
  get(id: string, options?: CallOptions): Promise<Exchange>;
  list(query: Readonly<Record<string, string>>, options?: CallOptions): Promise<Exchange>;
  update(id: string, body: unknown, options?: CallOptions): Promise<Exchange>;
  replace(id: string, body: unknown, options?: CallOptions): Promise<Exchange>;
  remove(id: string, options?: CallOptions): Promise<Exchange>;
  transition(id: string, name: string, body: unknown, options?: CallOptions): Promise<Exchange>;
}

/** The operation an exchange was (`-` for one no collection's client sent). */
export const operationOf = (exchange: Exchange | undefined): string => exchange?.operation ?? '-';

/** An operation of the operations table, or a transition as `:pay`. */
export type Operation = OperationName | `:${string}`;

const isTransition = (operation: Operation): operation is `:${string}` => operation.startsWith(':');

/**
 * The route of `operation` on `c` in `v`: its method and the document's path for it. Operations are read from the
 * runtime's operations table; a transition is a custom method, `POST` to `{id}:name` (the web API conventions).
 */
export function routeOf(v: VersionScope, c: CollectionAt, operation: Operation): { readonly method: string; readonly template: string } {
  const base = `${v.prefix}/${c.path}`;
  if (isTransition(operation)) return { method: 'POST', template: `${base}/{id}${operation}` };
  const facts = OPERATION_FACTS[operation];
  return { method: facts.method, template: facts.target === 'item' ? `${base}/{id}` : base };
}

/** The HTTP method of `operation`, as the operations table says. */
export const methodOf = (operation: OperationName): string => OPERATION_FACTS[operation].method;

/** The status `operation` answers when it succeeds (a transition: 200, the resource in its new state). */
export const successOf = (operation: string): number => (operation in OPERATION_FACTS ? OPERATION_FACTS[operation as OperationName].status : 200);

/** The client of `c` in `v`; `observe` sees every exchange (null: a request nobody judges, like cleanup). */
export function createClient(http: Http, v: VersionScope, c: CollectionAt, observe: ((target: Target, exchange: Exchange) => void) | null): CollectionClient {
  const item = (id: string) => `${v.prefix}/${c.path}/${encodeURIComponent(id)}`;
  const call = async (operation: Operation, id: string | null, request: Pick<HttpRequest, 'query' | 'body'>, options: CallOptions | undefined) => {
    const { method, template } = routeOf(v, c, operation);
    // Writes to a resource carry If-Match where the collection requires it (a transition is one).
    const write = isTransition(operation) || (OPERATION_FACTS[operation].access === 'write' && OPERATION_FACTS[operation].target === 'item');
    const headers: Record<string, string> = { ...v.headers, ...(options?.headers ?? {}) };
    if (options?.ifMatch) headers['if-match'] = options.ifMatch;
    else if (options?.ifMatch === undefined && write && c.requireIfMatch) headers['if-match'] = '*';
    const path = id === null ? template : `${item(id)}${isTransition(operation) ? operation : ''}`;
    const exchange: Exchange = { operation, ...(await http.send({ ...request, path, method, headers })) };
    observe?.({ v, c, operation, method, template }, exchange);
    return exchange;
  };
  return {
    v,
    c,
    create: (body, o) => call('create', null, { body }, o),
    get: (id, o) => call('get', id, {}, o),
    list: (query, o) => call('list', null, { query }, o),
    update: (id, body, o) => call('update', id, { body }, o),
    replace: (id, body, o) => call('replace', id, { body }, o),
    remove: (id, o) => call('delete', id, {}, o),
    transition: (id, name, body, o) => call(`:${name}`, id, { body }, o),
  };
}
