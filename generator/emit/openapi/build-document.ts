/**
 * @module Assembles the OpenAPI 3.1 document of one version: info (with the version's lifecycle),
 * servers, tags, paths and the components they use. The writer later puts its `x-restgen` header
 * member first; nothing here depends on it.
 */
import { buildWebhooks } from './webhooks.ts';
import { buildEventStreamPath, EVENTS_PATH } from './event-stream.ts';
import { oneCollection } from '../file.ts';
import { renderer, type RenderUse } from '../types.ts';
import type { ErrorKind } from './shared-components.ts';
import type { ApiAt, CollectionAt, VersionIR } from '../../model/ir.ts';
import { buildCollectionSchemas } from './collection-schemas.ts';
import { endpointRequestView, withSecretName } from '../../model/webhook-endpoints.ts';
import { buildFormatSchema, FORMAT_NAMES, formatRef, type FormatKind, type FormatNames } from './field-schema.ts';
import { inputTypeName } from '../zod/emit-zod.ts';
import { compact, PrintedJson, ref, sortedKeys, type Json, type JsonObject } from './json.ts';
import { printJsonAt } from './print-json.ts';
import { documentPath, withImplicitMethods } from './implicit-methods.ts';
import { buildCollectionPaths, guardedRefsOf, lifecycleHeaders, pathPrefix, rateLimitSentence, variantOf, type OperationContext } from './operations.ts';
import { buildErrorResponse, buildHeaders, buildProblemSchema, buildSecuritySchemes } from './shared-components.ts';
import { addLifecycleSchemas, buildTransitionPaths } from './transitions.ts';
import { buildDownloadPaths } from './files.ts';
import { answersXml, withXmlObjects } from './xml.ts';

/** RFC 9457 Appendix B: the namespace of a problem document in XML (RFC 7807's, kept). */
const PROBLEM_NAMESPACE = 'urn:ietf:rfc:7807';

/** A component name not taken by a collection's schemas: `Problem`, else `RestgenProblem`, ... */
function freeName(preferred: string, taken: ReadonlySet<string>): string {
  let name = preferred;
  while (taken.has(name)) name = `Restgen${name}`;
  return name;
}

/** The collections' schema names (transition inputs included), which the shared schemas must not collide with. */
function collectionSchemaNames(api: ApiAt): Set<string> {
  const suffixes = ['', 'Create', 'Replace', 'Patch', 'List', 'CreateForm', 'PatchForm'];
  return new Set(
    api.collections.flatMap((c) => [...suffixes.map((s) => `${c.typeName}${s}`), ...(c.lifecycle?.transitions ?? []).map((t) => inputTypeName(c, t.name))]),
  );
}

/** Every `$ref` a JSON value holds, added to `found`. */
function refsIn(value: Json, found: Set<string>): Set<string> {
  if (value === null || typeof value !== 'object') return found;
  if (value instanceof PrintedJson) {
    for (const r of value.refs) found.add(r);
    return found;
  }
  if (Array.isArray(value)) {
    for (const v of value as readonly Json[]) refsIn(v, found);
    return found;
  }
  for (const key in value) {
    const v = (value as JsonObject)[key]!;
    if (key === '$ref' && typeof v === 'string') found.add(v);
    else refsIn(v, found);
  }
  return found;
}

/**
 * The members of `all` that `refs` (every `$ref` of their users) name: a component nothing uses is noise,
 * and linters say so.
 */
function referenced(all: Record<string, JsonObject>, refs: ReadonlySet<string>, section: string): Record<string, JsonObject> {
  return Object.fromEntries(Object.entries(all).filter(([name]) => refs.has(`#/components/${section}/${name}`)));
}

const FORMAT_KINDS: readonly FormatKind[] = ['datetime', 'date', 'uuid', 'email'];

/** The sentences info.description gives about a version's lifecycle. */
export function lifecycleSentences(v: VersionIR): string[] {
  if (!v.released) return [`Version ${v.name} is not released yet and may still change.`];
  const out = [`Version ${v.name} was released on ${v.released}.`];
  if (v.deprecated) out.push(`It is deprecated since ${v.deprecated}; move to a newer version.`);
  if (v.sunset) out.push(`It stops being served on ${v.sunset} (sunset) and answers 410 from then on.`);
  for (const w of v.brownouts ?? []) out.push(`It is browned out from ${w.start} to ${w.end}: it answers 410 (\`version_brownout\`) meanwhile.`);
  if (v.docs && v.deprecated) out.push(`Read ${v.docs} for how to move off it.`);
  return out;
}

function tagOf(api: ApiAt, c: CollectionAt): JsonObject {
  const scope = api.rateLimit ? `for ${c.name}, besides the API's` : `for ${c.name}`;
  const parts = [c.description ?? `The ${c.name} collection.`, rateLimitSentence(c.rateLimit, scope)];
  return { name: c.name, description: parts.filter(Boolean).join(' ') };
}

/** The shared parameters every version's document may use, by component name (all but the version header). */
export function commonParameters(formats: FormatNames): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {
    Id: { name: 'id', in: 'path', required: true, description: 'The id of the resource.', schema: formatRef('uuid', formats) },
    Cursor: {
      name: 'cursor',
      in: 'query',
      description:
        'The `next_cursor` of the previous page, sent with the sort and filters of the request that returned it: another sort or filter answers 400 `cursor_mismatch`, an invalid cursor 400 `invalid_cursor`.',
      schema: { type: 'string', minLength: 1 },
    },
  };
  out['IdempotencyKey'] = {
    name: 'Idempotency-Key',
    in: 'header',
    description: 'Makes a retried create (or transition) safe: the same key with the same body replays the first answer (kept 24 hours by default).',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  };
  const ifMatch = (required: boolean): JsonObject =>
    compact({
      name: 'If-Match',
      in: 'header',
      required: required ? true : undefined,
      description: `${required ? 'Required: ' : ''}the ETag of the resource as the client last read it (or \`*\`): the request answers 412 when the resource has changed since.${required ? ' Without it the request answers 428.' : ''}`,
      schema: { type: 'string' },
    });
  out['IfMatch'] = ifMatch(false);
  out['IfMatchRequired'] = ifMatch(true);
  out['Range'] = {
    name: 'Range',
    in: 'header',
    description: 'One range of bytes, `bytes=<first>-<last>`, `bytes=<first>-` or `bytes=-<length>`: a 206 carries it, a range past the end answers 416.',
    schema: { type: 'string' },
  };
  out['IfRange'] = {
    name: 'If-Range',
    in: 'header',
    description: 'The ETag of the file a partial copy came from: the `Range` is served only while the file still has it (else the whole file, 200).',
    schema: { type: 'string' },
  };
  out['IfNoneMatch'] = {
    name: 'If-None-Match',
    in: 'header',
    description: 'The ETag of a copy the client holds (or `*`): the request answers 304 Not Modified while the resource still has it.',
    schema: { type: 'string' },
  };
  return out;
}

function sharedParameters(api: ApiAt, formats: FormatNames): Record<string, JsonObject> {
  const out = commonParameters(formats);
  if (api.versioning.in === 'header') {
    const fallback = api.versioning.default;
    const without =
      fallback === undefined
        ? ''
        : ` Without it, the server answers in the version the caller is pinned to, else in \`${fallback}\`${fallback === api.version.name ? ' (this one)' : ''}.`;
    out['ApiVersion'] = compact({
      name: api.versioning.header,
      in: 'header',
      required: fallback === api.version.name ? undefined : true,
      description: `Selects the API version: \`${api.version.name}\` for this document.${without} Every answer names the version that served it in the same header.`,
      schema: { type: 'string', enum: [api.version.name] },
    });
  }
  return out;
}

function infoOf(api: ApiAt): JsonObject {
  const v = api.version;
  const notes = answersXml(api)
    ? [
        'Bodies and answers are JSON or XML: `Content-Type: application/xml` bodies are read as their JSON twins are, and `Accept` chooses the answer (by q-value; JSON on a tie). Errors are `application/problem+json` or `application/problem+xml` (RFC 9457).',
        'An `Accept` that allows neither answers 406.',
        'A method a path does not offer answers 405 with an `Allow` header; an unknown path answers 404.',
      ]
    : ['Errors are `application/problem+json` (RFC 9457).', 'A method a path does not offer answers 405 with an `Allow` header; an unknown path answers 404.'];
  const description = [api.description, ...lifecycleSentences(v), rateLimitSentence(api.rateLimit, 'over the whole API'), ...notes]
    .filter((s): s is string => Boolean(s))
    .join(' ');
  return compact({
    title: api.title,
    version: v.name,
    description,
    'x-released': v.released,
    'x-deprecated': v.deprecated,
    'x-sunset': v.sunset,
  });
}

/** What one collection adds to a document: its paths, its schemas, and the error responses they use. */
interface CollectionPart {
  readonly paths: Record<string, Json>;
  readonly schemas: Record<string, Json>;
  readonly errors: OperationContext['usedErrors'];
}

function buildCollectionPart(api: ApiAt, formats: FormatNames, c: CollectionAt, guardedRefs: readonly string[]): CollectionPart {
  const ctx: OperationContext = { api, formats, guardedRefs, usedErrors: new Map() };
  const req = endpointRequestView(api, c);
  const built = buildCollectionSchemas(c, formats, req);
  addLifecycleSchemas(api, req, built, formats);
  // XML writes every component but the multipart bodies: their roots named, their arrays wrapped. The endpoint with
  // its secret is written as the endpoint is (the root element names the resource, not the answer's type).
  const rootOf = (name: string): string => (name === withSecretName(c) ? c.typeName : name);
  const schemas = answersXml(api)
    ? Object.fromEntries(Object.entries(built).map(([name, schema]) => [name, name.endsWith('Form') ? schema : withXmlObjects(rootOf(name), schema)]))
    : built;
  const paths = { ...buildCollectionPaths(ctx, c), ...buildDownloadPaths(ctx, c), ...buildTransitionPaths(ctx, c) };
  return { paths: api.openapi.implicitMethods ? withImplicitMethods(paths) : paths, schemas, errors: ctx.usedErrors };
}

/** One collection's part of a version's document as plain JSON, with the shared parameters and format schemas it refers to. */
export interface CollectionDocument {
  readonly paths: Readonly<Record<string, JsonObject>>;
  readonly schemas: Readonly<Record<string, JsonObject>>;
  /** The shared parameters (`Id`, `Cursor`, `IfMatch`, ...), by component name. */
  readonly parameters: Readonly<Record<string, JsonObject>>;
  /** The shared format schemas' component names in this document. */
  readonly formats: FormatNames;
}

const plainObjects = (map: Record<string, Json>): Record<string, JsonObject> => {
  const out: Record<string, JsonObject> = {};
  for (const [key, value] of Object.entries(map))
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof PrintedJson)) out[key] = value as JsonObject;
  return out;
};

/**
 * One collection's paths and schemas exactly as its version's OpenAPI document holds them (built here, not read back
 * from print), for what is derived from the document: the MCP tools' schemas. `formats` are the names the whole
 * version's document gives the format schemas ({@link formatNamesOf}); `api` may then hold `c` alone.
 */
export function collectionDocument(api: ApiAt, c: CollectionAt, formats: FormatNames = formatNamesOf(api)): CollectionDocument {
  // Which expansions need a read scope only changes the 403 a path declares; `api` holding `c` alone finds none.
  // Tools speak JSON: the schemas come without the OpenAPI-only `xml` objects (JSON Schema validators refuse them).
  const json: ApiAt = { ...api, formats: ['json'] };
  const part = buildCollectionPart(json, formats, c, guardedRefsOf(json, c));
  return { paths: plainObjects(part.paths), schemas: plainObjects(part.schemas), parameters: sharedParameters(api, formats), formats };
}

/**
 * A collection's part as text for the cache: a one-line JSON header (each path and schema's key, the length
 * of its printed JSON and its `$ref`s; the error responses), then every printed JSON, one after the other. The
 * printed texts are not escaped into a JSON string: a document's parts are megabytes, read on every change.
 */
type PartHeader = { paths: [string, number, string[]][]; schemas: [string, number, string[]][]; errors: [string, { kind: ErrorKind; limited: boolean }][] };

function printPart(part: CollectionPart): string {
  const texts: string[] = [];
  const printed =
    (depth: number) =>
    ([key, value]: [string, Json]): [string, number, string[]] => {
      const refs = new Set<string>();
      const text = printJsonAt(value as JsonObject, depth, refs);
      texts.push(text);
      return [key, text.length, [...refs]];
    };
  // `paths` members sit at depth 2 of the document, `components.schemas` members at depth 3.
  const header: PartHeader = {
    paths: Object.entries(part.paths).map(printed(2)),
    schemas: Object.entries(part.schemas).map(printed(3)),
    errors: [...part.errors],
  };
  return `${JSON.stringify(header)}\n${texts.join('')}`;
}

function readPart(text: string): CollectionPart {
  const end = text.indexOf('\n');
  const header = JSON.parse(text.slice(0, end)) as PartHeader;
  let at = end + 1;
  const placed = (entries: PartHeader['paths']) =>
    Object.fromEntries(entries.map(([key, length, refs]) => [key, new PrintedJson(text.slice(at, (at += length)), refs)]));
  const paths = placed(header.paths);
  const schemas = placed(header.schemas);
  if (at !== text.length) throw new Error('internal error: a cached OpenAPI part is not as long as its header says');
  return { paths, schemas, errors: new Map(header.errors) };
}

/** The document's `servers`: those the API declares, else `/` (the host serving the document). */
function serversOf(api: ApiAt): JsonObject[] {
  if (api.servers.length === 0) return [{ url: '/', description: 'The host serving this API.' }];
  return api.servers.map((s) => compact({ url: s.url, description: s.description }));
}

/** The shared format schemas' names in one version's document (renamed where a collection's type takes one). */
export function formatNamesOf(api: ApiAt): FormatNames {
  const taken = collectionSchemaNames(api);
  return {
    datetime: freeName(FORMAT_NAMES.datetime, taken),
    date: freeName(FORMAT_NAMES.date, taken),
    uuid: freeName(FORMAT_NAMES.uuid, taken),
    email: freeName(FORMAT_NAMES.email, taken),
  };
}

/**
 * What a collection's part of a document is built from: its version with only that collection, the format names,
 * and which collections its expansions name need a read scope.
 */
interface PartData {
  readonly api: ApiAt;
  readonly formats: FormatNames;
  readonly guardedRefs: readonly string[];
}

const PART = renderer('openapi collection', ({ api, formats, guardedRefs }: PartData) =>
  printPart(buildCollectionPart(api, formats, api.collections[0]!, guardedRefs)),
);

/** Each collection's part of one version's document (its paths and schemas, printed), through `use`. */
export function openApiParts(api: ApiAt, use: RenderUse): string[] {
  const formats = formatNamesOf(api);
  return api.collections.map((c) => use.call(PART, { api: oneCollection(api, c), formats, guardedRefs: guardedRefsOf(api, c) }));
}

/**
 * The OpenAPI 3.1 document of one version, as a plain JSON object, assembled from its collections' parts: the
 * texts of {@link openApiParts} when given (in the same order), else built here.
 */
export function buildOpenApiDocument(api: ApiAt, parts?: readonly string[]): JsonObject {
  const taken = collectionSchemaNames(api);
  const formats = formatNamesOf(api);
  const problem = freeName('Problem', taken);
  // The event stream's operation has no refs to expand: no guarded refs.
  const ctx: OperationContext = { api, formats, guardedRefs: [], usedErrors: new Map() };
  const usedErrors = ctx.usedErrors;
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = {};
  api.collections.forEach((c, i) => {
    const text = parts?.[i];
    const part = text !== undefined ? readPart(text) : buildCollectionPart(api, formats, c, guardedRefsOf(api, c));
    Object.assign(paths, part.paths);
    Object.assign(schemas, part.schemas);
    for (const [name, error] of part.errors) usedErrors.set(name, error);
  });
  const lifecycle = variantOf(api);
  const stream = buildEventStreamPath(ctx, problem);
  if (stream !== undefined) paths[`${pathPrefix(api)}${EVENTS_PATH}`] = api.openapi.implicitMethods ? withImplicitMethods({ stream })['stream']! : stream;
  // The document's route answers with the version's headers too (Deprecation, Sunset, Link, the echoed version).
  paths[`${pathPrefix(api)}/openapi.json`] = documentPath(
    api.versioning.in === 'header' ? [ref('parameters', 'ApiVersion')] : [],
    lifecycleHeaders(api),
    api.openapi.implicitMethods,
  );
  const webhooks = buildWebhooks(api, formats);
  if (usedErrors.size > 0) schemas[problem] = answersXml(api) ? withXmlObjects(problem, buildProblemSchema(), PROBLEM_NAMESPACE) : buildProblemSchema();
  // The paths are most of the document: they are walked once, and what else refers is added as it comes.
  const refs = refsIn(paths, new Set());
  const parameters = referenced(sharedParameters(api, formats), refs, 'parameters');
  const formatSchemas = Object.fromEntries(FORMAT_KINDS.map((k) => [formats[k], buildFormatSchema(k)]));
  Object.assign(schemas, referenced(formatSchemas, refsIn([schemas, parameters, webhooks ?? null], refs), 'schemas'));
  const responses: Record<string, JsonObject> = {};
  for (const [name, { kind, limited }] of usedErrors) responses[name] = buildErrorResponse(kind, problem, api.auth, { ...lifecycle, limited }, answersXml(api));
  const headers = referenced(buildHeaders(api.versioning.in === 'header' ? api.version.name : undefined), refsIn(responses, refs), 'headers');
  const securitySchemes = buildSecuritySchemes(api.auth);
  const nonEmpty = (map: Record<string, Json>): JsonObject | undefined => (Object.keys(map).length > 0 ? sortedKeys(map) : undefined);
  return compact({
    openapi: '3.1.1',
    info: infoOf(api),
    externalDocs: api.version.docs ? { description: `How to move off ${api.version.name}.`, url: api.version.docs } : undefined,
    servers: serversOf(api),
    tags: [
      ...api.collections.map((c) => tagOf(api, c)),
      ...(stream !== undefined && !api.collections.some((c) => c.name === 'events')
        ? [{ name: 'events', description: 'The event stream: every event as it happens, resumable.' }]
        : []),
    ],
    paths,
    webhooks: webhooks ? sortedKeys(webhooks) : undefined,
    components: compact({
      schemas: nonEmpty(schemas),
      responses: nonEmpty(responses),
      headers: nonEmpty(headers),
      parameters: nonEmpty(parameters),
      securitySchemes: nonEmpty(securitySchemes),
    }),
  });
}
