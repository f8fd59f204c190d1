/**
 * @module The JSON Schemas of a collection's MCP tools, taken from its version's OpenAPI document rather than written
 * a second time: a tool's arguments are its operation's parameters (the path's `id`, a list's query, `If-Match`,
 * `Idempotency-Key`) and its request body (`body`), its result the schema of the success answer. `$ref`s to the
 * document's schemas stay as they are here; `schema-source.ts` makes them references between generated constants.
 */
import { OPERATION_FACTS, type ApiAt, type CollectionAt } from '../../model/ir.ts';
import type { ToolTarget } from '../../model/mcp-tools.ts';
import { pathPrefix } from '../openapi/operations.ts';
import type { CollectionDocument } from '../openapi/build-document.ts';
import { compact, type Json, type JsonObject } from '../openapi/json.ts';
import { SHARED_REF, type SharedArgument } from './shared-arguments.ts';

/** A tool's schemas and the operation's summary in the document. */
export interface ToolSchemas {
  readonly input: JsonObject;
  /** The answer's schema, or null when the operation answers nothing (a delete's 204). */
  readonly output: JsonObject | null;
  readonly summary: string;
}

/**
 * The argument each shared parameter becomes (by component name) and the shared schema it takes, or null: not an
 * argument (the server pins the version; a tool never asks for a 304).
 */
const SHARED_PARAMETERS: Readonly<
  Record<string, { readonly name: string; readonly required: boolean; readonly schema: (target: ToolTarget) => SharedArgument } | null>
> = {
  Id: { name: 'id', required: true, schema: () => 'id' },
  Cursor: { name: 'cursor', required: false, schema: () => 'cursor' },
  IfMatch: { name: 'ifMatch', required: false, schema: () => 'ifMatch' },
  IfMatchRequired: { name: 'ifMatch', required: true, schema: () => 'ifMatchRequired' },
  // A create derives its key from the arguments (so it is idempotent); a transition makes a new one per call.
  IdempotencyKey: { name: 'idempotencyKey', required: false, schema: (target) => (target.kind === 'operation' ? 'createKey' : 'transitionKey') },
  IfNoneMatch: null,
  ApiVersion: null,
};

const PARAMETER_REF = '#/components/parameters/';
/** The query parameters that change an answer's shape, which tools do not take. */
const UNSHAPED: readonly string[] = ['fields', 'expand'];

const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The document's operation of a target: its path item's and its own parameters, body and answers. */
function operationOf(doc: CollectionDocument, api: ApiAt, c: CollectionAt, target: ToolTarget): { parameters: Json[]; operation: JsonObject } {
  const base = `${pathPrefix(api)}/${c.path}`;
  const [path, method] =
    target.kind === 'transition'
      ? [`${base}/{id}:${target.transition.name}`, 'post']
      : [OPERATION_FACTS[target.op].target === 'item' ? `${base}/{id}` : base, OPERATION_FACTS[target.op].method.toLowerCase()];
  const item = doc.paths[path];
  const operation = item?.[method];
  if (!item || !isObject(operation)) throw new Error(`internal error: the OpenAPI document of ${api.version.name} has no ${method} ${path}`);
  const shared = Array.isArray(item['parameters']) ? (item['parameters'] as Json[]) : [];
  const own = Array.isArray(operation['parameters']) ? (operation['parameters'] as Json[]) : [];
  return { parameters: [...shared, ...own], operation };
}

/** One argument's schema: the parameter's schema with its description. */
function argumentSchema(parameter: JsonObject): JsonObject {
  const schema = isObject(parameter['schema']) ? parameter['schema'] : {};
  return compact({ ...schema, description: parameter['description'], deprecated: parameter['deprecated'] });
}

/** The schemas of one tool of collection `c`, from the collection's part of its version's document. */
export function toolSchemas(doc: CollectionDocument, api: ApiAt, c: CollectionAt, target: ToolTarget): ToolSchemas {
  const { parameters, operation } = operationOf(doc, api, c, target);
  const reads = target.kind === 'operation' && OPERATION_FACTS[target.op].access === 'read';
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  const add = (name: string, schema: JsonObject, must: boolean): void => {
    properties[name] = schema;
    if (must) required.push(name);
  };
  for (const p of parameters) {
    if (!isObject(p)) continue;
    const ref = p['$ref'];
    if (typeof ref === 'string') {
      const name = ref.startsWith(PARAMETER_REF) ? ref.slice(PARAMETER_REF.length) : ref;
      const argument = SHARED_PARAMETERS[name];
      if (argument === undefined) throw new Error(`internal error: no MCP argument for the parameter ${ref}`);
      // A read answers no precondition failure worth asking for: only writes take `ifMatch`.
      if (argument === null || (argument.name === 'ifMatch' && reads)) continue;
      add(argument.name, { $ref: `${SHARED_REF}${argument.schema(target)}` }, argument.required);
    } else if (p['in'] === 'query' && typeof p['name'] === 'string') {
      // A tool answers whole resources, as its output schema declares them: a mask (`fields`) would leave required
      // members out and an expansion (`expand`) would put objects where ids are, so tools take neither. (No filter
      // takes either name: RG347.)
      if (!UNSHAPED.includes(p['name'])) add(p['name'], argumentSchema(p), p['required'] === true);
    } else throw new Error(`internal error: no MCP argument for the ${String(p['in'])} parameter ${String(p['name'])}`);
  }
  const body = operation['requestBody'];
  const bodySchema = isObject(body) && isObject(body['content']) ? (body['content']['application/json'] as JsonObject | undefined)?.['schema'] : undefined;
  // A body that can hold nothing (a transition without input) is no argument.
  if (isObject(bodySchema) && !isEmptyBody(doc, bodySchema)) add('body', bodySchema, isObject(body) && body['required'] === true);
  const input = compact({
    type: 'object',
    properties,
    required: required.length > 0 ? required : undefined,
    additionalProperties: false,
  });
  const summary = operation['summary'];
  if (typeof summary !== 'string') throw new Error(`internal error: an operation of ${c.name} has no summary`);
  return { input, output: successSchema(operation), summary };
}

/** Whether a body schema (a reference to a component) admits no property at all. */
function isEmptyBody(doc: CollectionDocument, schema: JsonObject): boolean {
  const ref = schema['$ref'];
  const target = typeof ref === 'string' ? doc.schemas[ref.slice(ref.lastIndexOf('/') + 1)] : schema;
  const properties = target?.['properties'];
  return isObject(properties) && Object.keys(properties).length === 0;
}

/** The schema of the success answer's JSON body, or null when it has none. */
function successSchema(operation: JsonObject): JsonObject | null {
  const responses = operation['responses'];
  if (!isObject(responses)) return null;
  for (const status of ['200', '201']) {
    const answer = responses[status];
    const content = isObject(answer) ? answer['content'] : undefined;
    const json = isObject(content) ? content['application/json'] : undefined;
    const schema = isObject(json) ? json['schema'] : undefined;
    if (isObject(schema)) return schema;
  }
  return null;
}
