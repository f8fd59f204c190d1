/**
 * @module The path items of one collection: `/vN/orders` (list, create) and `/vN/orders/{id}` (get,
 * replace, update, delete), with stable operationIds, parameters, bodies, security and every status the
 * generated server can answer.
 */
import { OPERATION_FACTS, OPERATIONS, takesCredentials, type ApiAt, type CollectionAt, type OperationName, type RateLimitIR } from '../../model/ir.ts';
import { humanName, pascalCase, singularize, withArticle } from '../../model/names.ts';
import { schemaNamesOf } from './collection-schemas.ts';
import type { FormatNames } from './field-schema.ts';
import { expandParameters, fieldsParameter, listQueryParameters } from './query-parameters.ts';
import { compact, ref, type Json, type JsonObject } from './json.ts';
import { formNamesOf, requestContent } from './file-schemas.ts';
import { ERRORS, RATE_LIMIT_HEADERS, SCHEME, errorResponseName, type ErrorKind, type ErrorVariant } from './shared-components.ts';
import { answersXml, withXmlMedia } from './xml.ts';

/** What the operations of a document refer to and record while they are built. */
export interface OperationContext {
  readonly api: ApiAt;
  readonly formats: FormatNames;
  /**
   * The collections (by key) the collection's expandable refs name whose reads need a scope: `?expand=` of one of
   * them answers 403 to a caller without it. Given, not looked up: a collection's part is built from the version
   * with that collection only ({@link guardedRefsOf} reads the whole version).
   */
  readonly guardedRefs: readonly string[];
  /** Error responses used so far, by component name (only those become response components). */
  readonly usedErrors: Map<string, { readonly kind: ErrorKind; readonly limited: boolean }>;
}

/** The operationId of an operation: `listOrders`, `getOrder`, `createOrder`, ... */
export function operationIdOf(c: CollectionAt, op: OperationName): string {
  return op === 'list' ? `list${pascalCase(c.name)}` : `${op}${c.typeName}`;
}

/** The prefix of every path: `/v2` with path versioning, nothing with header versioning. */
export function pathPrefix(api: ApiAt): string {
  return api.versioning.in === 'path' ? `/${api.version.name}` : '';
}

export { humanName } from '../../model/names.ts';

function summaryOf(c: CollectionAt, op: OperationName): string {
  const one = humanName(singularize(c.name));
  const a = withArticle(one);
  const summaries: { readonly [K in OperationName]: string } = {
    list: `List ${humanName(c.name)}`,
    get: `Get one ${one}`,
    create: `Create ${a}`,
    replace: `Replace ${a}`,
    update: `Update some fields of ${a}`,
    delete: `Delete ${a}`,
  };
  return summaries[op];
}

/** Whether the API takes no credential at all (then every operation is public). */
export function hasNoAuth(api: ApiAt): boolean {
  return !takesCredentials(api.auth);
}

function isPublic(api: ApiAt, c: CollectionAt, op: OperationName): boolean {
  return c.public.includes(op) || !takesCredentials(api.auth);
}

function scopesOf(c: CollectionAt, op: OperationName): readonly string[] {
  return op === 'list' || op === 'get' ? c.scopes.read : c.scopes.write;
}

/** The security requirement of an operation that needs `scopes` (none when it is public). */
export function securityWith(api: ApiAt, scopes: readonly string[] | null): Json {
  if (scopes === null) return [];
  // Scopes on non-OAuth schemes are the "role names" OpenAPI 3.1 allows there. With OAuth 2.0 the scopes
  // are listed once, under oauth2, where they are declared (linters check them against the flows).
  const out: JsonObject[] = [];
  if (api.auth.oauth2) out.push({ [SCHEME.oauth2]: [...scopes] });
  if (api.auth.bearer) out.push({ [SCHEME.bearer]: [...scopes] });
  if (api.auth.apiKey) out.push({ [SCHEME.apiKey]: api.auth.oauth2 ? [] : [...scopes] });
  return out;
}

function securityOf(api: ApiAt, c: CollectionAt, op: OperationName): Json {
  return securityWith(api, isPublic(api, c, op) ? null : scopesOf(c, op));
}

/** Whether a route of `c` counts against a rate limit or reads a credential (rejected ones are limited per address). */
export function isLimited(api: ApiAt, c: CollectionAt): boolean {
  return Boolean(api.rateLimit || c.rateLimit || takesCredentials(api.auth));
}

/** The collections (by key) `c`'s expandable refs name whose reads need a scope, in `api` (the whole version). */
export function guardedRefsOf(api: ApiAt, c: CollectionAt): string[] {
  const keys = new Set(c.query.expandable.map((x) => x.collection));
  return api.collections.filter((t) => keys.has(t.key) && !isPublic(api, t, 'get') && t.scopes.read.length > 0).map((t) => t.key);
}

/** The errors one operation can answer (what the generated server's runtime answers), by status. */
function errorKinds(ctx: OperationContext, c: CollectionAt, op: OperationName): ErrorKind[] {
  const api = ctx.api;
  const body = op === 'create' || op === 'replace' || op === 'update';
  const byId = op !== 'list' && op !== 'create';
  const unique = c.fields.some((f) => f.unique);
  const kinds: ErrorKind[] = [];
  // An id that is not a UUID answers 404, so a delete validates nothing but the version header.
  if (op !== 'delete' || api.versioning.in === 'header') kinds.push('BadRequest');
  // Every operation of a collection reads Accept before anything else (a delete too, though its 204 has no body).
  kinds.push('NotAcceptable');
  // A credential sent to a public operation must still be valid.
  if (takesCredentials(api.auth)) kinds.push('Unauthorized');
  if ((!isPublic(api, c, op) && scopesOf(c, op).length > 0) || (op !== 'delete' && ctx.guardedRefs.length > 0)) kinds.push('Forbidden');
  if (OPERATION_FACTS[op].idempotencyKey) kinds.push('IdempotencyKeyReused');
  if (byId) kinds.push('NotFound', 'PreconditionFailed');
  if (body && unique) kinds.push('Conflict');
  kinds.push(...retiredKinds(api));
  if (body) kinds.push('ContentTooLarge', 'UnsupportedMediaType');
  if (c.requireIfMatch && (op === 'replace' || op === 'update' || op === 'delete')) kinds.push('PreconditionRequired');
  if (isLimited(api, c)) kinds.push('TooManyRequests');
  // 503: the request timeout, and an idempotency store that is unavailable.
  kinds.push('InternalServerError', 'ServiceUnavailable');
  return sortKinds(kinds);
}

/** The 410 a version can answer: past its sunset, or also inside a brownout window. */
export function retiredKinds(api: ApiAt): ErrorKind[] {
  return api.version.brownouts ? ['Brownout'] : api.version.sunset ? ['Gone'] : [];
}

/** The lifecycle headers every answer of a version carries (see {@link ErrorVariant}), besides the rate limit's. */
export function variantOf(api: ApiAt): Omit<ErrorVariant, 'limited'> {
  const deprecated = api.version.deprecated !== undefined;
  return {
    deprecated,
    sunset: api.version.sunset !== undefined,
    link: deprecated && api.version.docs !== undefined,
    echo: api.versioning.in === 'header' ? api.versioning.header : null,
  };
}

/** Errors by status (two kinds of one status keep the order given). */
export function sortKinds(kinds: readonly ErrorKind[]): ErrorKind[] {
  return [...kinds].sort((a, b) => ERRORS[a].status - ERRORS[b].status);
}

/** Records the error responses of an operation and refers to them, by status; `limited`: it counts against a rate limit. */
export function errorResponses(
  ctx: OperationContext,
  c: CollectionAt,
  kinds: readonly ErrorKind[],
  limited = isRateLimited(ctx.api, c),
): Record<string, JsonObject> {
  const variant = { ...variantOf(ctx.api), limited };
  const out: Record<string, JsonObject> = {};
  for (const kind of kinds) {
    const name = errorResponseName(kind, variant);
    ctx.usedErrors.set(name, { kind, limited });
    out[String(ERRORS[kind].status)] = ref('responses', name);
  }
  return out;
}

/** A sentence on a rate limit: `scope` says what it covers (the API, or one collection on top of it). */
export function rateLimitSentence(limit: RateLimitIR | undefined, scope: string): string | undefined {
  if (!limit) return undefined;
  return `Rate limit ${scope}: ${limit.limit} requests per ${limit.window} per credential (per client IP when anonymous); answers carry RateLimit-* headers.`;
}

/** Whether an operation of `c` counts against a rate limit (then its answers carry the RateLimit headers). */
export function isRateLimited(api: ApiAt, c: CollectionAt): boolean {
  return api.rateLimit !== undefined || c.rateLimit !== undefined;
}

/** The headers of a success answer: `extra`, the rate limit's (when `limited`) and the version's lifecycle headers. */
export function successHeaders(api: ApiAt, c: CollectionAt, extra: Record<string, JsonObject>, limited = isRateLimited(api, c)): JsonObject | undefined {
  const headers: Record<string, JsonObject> = { ...extra };
  if (limited) for (const [wire, component] of RATE_LIMIT_HEADERS) if (wire !== 'Retry-After') headers[wire] = ref('headers', component);
  Object.assign(headers, lifecycleHeaders(api));
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/** The headers every answer of the version carries after its resolution: Deprecation, Sunset, Link, the echoed version. */
export function lifecycleHeaders(api: ApiAt): Record<string, JsonObject> {
  const headers: Record<string, JsonObject> = {};
  const lifecycle = variantOf(api);
  if (lifecycle.deprecated) {
    headers['Deprecation'] = ref('headers', 'Deprecation');
    if (lifecycle.sunset) headers['Sunset'] = ref('headers', 'Sunset');
    if (lifecycle.link) headers['Link'] = ref('headers', 'Link');
  }
  if (lifecycle.echo !== null) headers[lifecycle.echo] = ref('headers', 'Version');
  return headers;
}

/** An `application/json` body of a component schema, and its `application/xml` twin when the API answers XML. */
export function jsonContent(schemaName: string, api?: Pick<ApiAt, 'formats'>): JsonObject {
  const json = { 'application/json': { schema: ref('schemas', schemaName) } };
  return api && answersXml(api) ? withXmlMedia(json) : json;
}

/** The header that tags a single resource. */
export const ETAG = { ETag: ref('headers', 'ETag') } as const;

function successResponses(api: ApiAt, c: CollectionAt, op: OperationName): Record<string, JsonObject> {
  const names = schemaNamesOf(c);
  const one = humanName(singularize(c.name));
  switch (op) {
    case 'list':
      return { '200': compact({ description: `A page of ${humanName(c.name)}.`, headers: successHeaders(api, c, {}), content: jsonContent(names.list, api) }) };
    case 'create': {
      const headers = successHeaders(api, c, { ...ETAG, Location: ref('headers', 'Location'), 'Idempotent-Replayed': ref('headers', 'IdempotentReplayed') });
      return { '201': compact({ description: `The ${one} was created.`, headers, content: jsonContent(names.created, api) }) };
    }
    case 'delete':
      return { '204': compact({ description: `The ${one} was deleted.`, headers: successHeaders(api, c, {}) }) };
    case 'get': {
      const notModified = { description: `Not modified: the ${one} still has the ETag sent in \`If-None-Match\`.`, headers: successHeaders(api, c, ETAG)! };
      return {
        '200': compact({ description: `The ${one}.`, headers: successHeaders(api, c, ETAG), content: jsonContent(names.resource, api) }),
        '304': notModified,
      };
    }
    default:
      return { '200': compact({ description: `The ${one}.`, headers: successHeaders(api, c, ETAG), content: jsonContent(names.resource, api) }) };
  }
}

/** The precondition parameters of an operation (`If-Match` required when the collection says so). */
function conditionalParameters(c: CollectionAt, op: OperationName): JsonObject[] {
  if (op === 'get') return [ref('parameters', 'IfMatch'), ref('parameters', 'IfNoneMatch')];
  if (op === 'replace' || op === 'update' || op === 'delete') return [ref('parameters', c.requireIfMatch ? 'IfMatchRequired' : 'IfMatch')];
  return [];
}

function listParameters(c: CollectionAt, formats: FormatNames): JsonObject[] {
  const { defaultLimit, maxLimit } = c.pagination;
  return [
    {
      name: 'limit',
      in: 'query',
      description: `Items per page, at least 1 and at most ${maxLimit}; the server lowers a larger value to ${maxLimit} rather than refusing it.`,
      schema: { type: 'integer', minimum: 1, maximum: maxLimit, default: defaultLimit },
    },
    ref('parameters', 'Cursor'),
    ...listQueryParameters(c, formats),
    fieldsParameter(c),
    ...expandParameters(c),
  ];
}

/** The query parameters of an operation: a list's; a get's `fields` and `expand`; the writes' `expand`. */
function queryParameters(c: CollectionAt, op: OperationName, formats: FormatNames): JsonObject[] {
  if (op === 'list') return listParameters(c, formats);
  if (op === 'get') return [fieldsParameter(c), ...expandParameters(c)];
  return op === 'delete' ? [] : expandParameters(c);
}

function operationOf(ctx: OperationContext, c: CollectionAt, op: OperationName): JsonObject {
  const { api } = ctx;
  const names = schemaNamesOf(c);
  const responses = { ...successResponses(api, c, op), ...errorResponses(ctx, c, errorKinds(ctx, c, op)) };
  const bodySchema = op === 'create' ? names.create : op === 'replace' ? names.replace : op === 'update' ? names.patch : undefined;
  const form = op === 'update' ? formNamesOf(c).patch : formNamesOf(c).create;
  const keyed = OPERATION_FACTS[op].idempotencyKey ? [ref('parameters', 'IdempotencyKey')] : [];
  const headers = op === 'list' ? [] : [...keyed, ...conditionalParameters(c, op)];
  const parameters = [...queryParameters(c, op, ctx.formats), ...headers];
  return compact({
    operationId: operationIdOf(c, op),
    summary: summaryOf(c, op),
    tags: [c.name],
    deprecated: api.version.deprecated ? true : undefined,
    parameters: parameters.length > 0 ? parameters : undefined,
    requestBody: bodySchema ? { required: true, content: requestContent(api, c, bodySchema, form, op === 'update') } : undefined,
    responses,
    security: securityOf(api, c, op),
  });
}

/** The path items of one collection, keyed by path; only paths with at least one operation. */
export function buildCollectionPaths(ctx: OperationContext, c: CollectionAt): Record<string, JsonObject> {
  const base = `${pathPrefix(ctx.api)}/${c.path}`;
  const shared = ctx.api.versioning.in === 'header' ? [ref('parameters', 'ApiVersion')] : [];
  const ops = OPERATIONS.filter((op) => c.operations.includes(op));
  const collectionOps = ops.filter((op) => op === 'list' || op === 'create');
  const itemOps = ops.filter((op) => op !== 'list' && op !== 'create');
  const out: Record<string, JsonObject> = {};
  const item = (ops: readonly OperationName[], parameters: readonly JsonObject[]): JsonObject => {
    const entries: Record<string, Json> = {};
    if (parameters.length > 0) entries['parameters'] = [...parameters];
    for (const op of ops) entries[OPERATION_FACTS[op].method.toLowerCase()] = operationOf(ctx, c, op);
    return entries;
  };
  if (collectionOps.length > 0) out[base] = item(collectionOps, shared);
  if (itemOps.length > 0) out[`${base}/{id}`] = item(itemOps, [...shared, ref('parameters', 'Id')]);
  return out;
}
