/**
 * @module The operations of one collection in one version, as HTTP requests: the version's path or header,
 * the item and transition URLs, and `If-Match: *` on writes where the collection requires If-Match (unless a
 * check sends its own, or none on purpose). Every exchange goes to the observer, which judges it against the
 * version's document.
 */
import type { ApiAt, CollectionAt } from '../model/ir.ts';
import type { VersionDocument } from './documents.ts';
import type { Http, HttpRequest } from './http.ts';
import type { Exchange } from './types.ts';

/** One version as the run calls it. */
export interface VersionScope {
  readonly name: string;
  readonly api: ApiAt;
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
  /** Query parameters (`fields`, `expand`) for a call other than list, whose query is its own argument. */
  readonly query?: Readonly<Record<string, string>>;
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

/** The client of `c` in `v`; `observe` sees every exchange (null: a request nobody judges, like cleanup). */
export function createClient(http: Http, v: VersionScope, c: CollectionAt, observe: ((target: Target, exchange: Exchange) => void) | null): CollectionClient {
  const base = `${v.prefix}/${c.path}`;
  const call = async (
    operation: string,
    method: string,
    template: string,
    request: Omit<HttpRequest, 'method'>,
    options: CallOptions | undefined,
    write: boolean,
  ) => {
    const headers: Record<string, string> = { ...v.headers, ...(options?.headers ?? {}) };
    if (options?.ifMatch) headers['if-match'] = options.ifMatch;
    else if (options?.ifMatch === undefined && write && c.requireIfMatch) headers['if-match'] = '*';
    const query = { ...(options?.query ?? {}), ...(request.query ?? {}) };
    const exchange: Exchange = { operation, ...(await http.send({ ...request, method, headers, ...(Object.keys(query).length > 0 ? { query } : {}) })) };
    observe?.({ v, c, operation, method, template }, exchange);
    return exchange;
  };
  const item = (id: string) => `${base}/${encodeURIComponent(id)}`;
  return {
    v,
    c,
    create: (body, o) => call('create', 'POST', base, { path: base, body }, o, false),
    get: (id, o) => call('get', 'GET', `${base}/{id}`, { path: item(id) }, o, false),
    list: (query, o) => call('list', 'GET', base, { path: base, query }, o, false),
    update: (id, body, o) => call('update', 'PATCH', `${base}/{id}`, { path: item(id), body }, o, true),
    replace: (id, body, o) => call('replace', 'PUT', `${base}/{id}`, { path: item(id), body }, o, true),
    remove: (id, o) => call('delete', 'DELETE', `${base}/{id}`, { path: item(id) }, o, true),
    transition: (id, name, body, o) => call(`:${name}`, 'POST', `${base}/{id}:${name}`, { path: `${item(id)}:${name}`, body }, o, true),
  };
}
