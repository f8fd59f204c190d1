/**
 * @module The methods the generated server answers on every path without an operation declaring them: `HEAD`
 * wherever `GET` is (Fastify runs the `GET` route and sends its status and headers without the body; on an item,
 * `If-None-Match` answers 304), and `OPTIONS` on every path (204 with `Allow`, before credentials and rate limits: it
 * needs neither). HTTP defines both for every resource, so the documents leave them out unless the API asks for them
 * (`openapi: { implicitMethods: true }`): declared, they are a fifth of a document, shown as operations of their own
 * by documentation tools and generated as methods by client generators. And the route that serves the document
 * itself, `GET /<version>/openapi.json` (public).
 */
import { allowOf } from '@restgen/runtime/contract';
import { compact, type Json, type JsonObject } from './json.ts';

/** A response without its body: what a `HEAD` answers for the `GET` response `response` (a `$ref` stays as it is). */
function withoutBody(response: Json): Json {
  if (typeof response !== 'object' || response === null || Array.isArray(response) || '$ref' in response) return response;
  const { content: _content, ...rest } = response as JsonObject;
  return rest;
}

/** The `HEAD` operation the server answers for `get`: the same parameters, security and statuses, no bodies. */
function headOf(get: JsonObject): JsonObject {
  const responses = (get['responses'] ?? {}) as JsonObject;
  return compact({
    operationId: typeof get['operationId'] === 'string' ? `${get['operationId']}Head` : undefined,
    summary: typeof get['summary'] === 'string' ? `${get['summary']}: status and headers only` : undefined,
    description: 'The status and headers `GET` answers, without the body.',
    tags: get['tags'],
    parameters: get['parameters'],
    responses: Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, withoutBody(response)])),
    security: get['security'],
    deprecated: get['deprecated'],
  });
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The `OPTIONS` operation of a path item: 204 with `Allow` naming every method the path accepts. */
function optionsOf(item: JsonObject): JsonObject {
  const declared = METHODS.filter((m) => m in item);
  const first = declared.map((m) => item[m] as JsonObject).find((op) => typeof op['operationId'] === 'string');
  // What the server's Allow says, from the same function.
  const allow = allowOf(new Set(declared.map((m) => m.toUpperCase())));
  return compact({
    operationId: first ? `${String(first['operationId'])}Options` : undefined,
    summary: 'The methods this path accepts',
    description: 'Answered before credentials and rate limits: it needs neither.',
    tags: first?.['tags'],
    responses: {
      '204': {
        description: 'No content; `Allow` lists the methods.',
        headers: {
          Allow: {
            description: 'The methods this path accepts.',
            schema: { type: 'string', example: allow },
          },
        },
      },
    },
    security: [],
  });
}

/** `paths` with `head` beside every `get` and `options` on every path item (key order: the declared ones first). */
export function withImplicitMethods(paths: Readonly<Record<string, JsonObject>>): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const [path, item] of Object.entries(paths)) {
    const get = item['get'];
    out[path] = { ...item, ...(get && typeof get === 'object' && !Array.isArray(get) ? { head: headOf(get as JsonObject) } : {}), options: optionsOf(item) };
  }
  return out;
}

/** The path item of the route that serves a version's document (`/<version>/openapi.json`, or `/openapi.json`); `implicit`: with HEAD and OPTIONS. */
export function documentPath(parameters: readonly JsonObject[], headers: Readonly<Record<string, JsonObject>>, implicit: boolean): JsonObject {
  const get = compact({
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    description:
      'The document of this version, as generated (served under a prefix, and without `servers` declared, `servers[0].url` is the prefix). Public: no credential, no rate limit.',
    responses: {
      '200': compact({
        description: 'The OpenAPI 3.1 document.',
        headers: Object.keys(headers).length > 0 ? headers : undefined,
        content: { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document.' } } },
      }),
    },
    security: [],
  });
  const item: JsonObject = parameters.length > 0 ? { parameters: [...parameters], get } : { get };
  return implicit ? withImplicitMethods({ doc: item })['doc']! : item;
}
