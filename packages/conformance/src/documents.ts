/**
 * @module What each version documents: the OpenAPI document `restgen generate` writes for it, as the contract
 * carries it (so the judge is the published contract, not a copy of it): the statuses of every operation, the
 * content type and JSON Schema of each answer's body (checked with ajv, draft 2020-12), and the headers. Request
 * bodies the run generates are checked against the same document before they are sent, so a value the run could
 * not make valid is never blamed on the server.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { undeclaredKeys } from './declared.js';
import type { Exchange } from './types.js';

/** Headers a documented answer always carries; any other documented header is checked only when present. */
const ALWAYS_SENT = new Set(['etag', 'location', 'deprecation', 'sunset', 'retry-after']);
/** A strong entity tag (RFC 9110 section 8.8.3). */
const STRONG_ETAG = /^"[\x21\x23-\x7e\x80-\xff]*"$/;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** One version's document and the validators compiled from it. */
export interface VersionDocument {
  /** What is wrong with an answer to `method template` (the document's path, `/v2/orders/{id}`); empty when nothing is. */
  judge(method: string, template: string, exchange: Exchange): string[];
  /** What is wrong with a JSON body the run is about to send to `method template`. */
  requestProblems(method: string, template: string, body: unknown): string[];
  /** The pointers of keys a successful JSON answer to `method template` carries that its schema does not declare. */
  undeclared(method: string, template: string, exchange: Exchange): string[];
  /** The schemas of the top-level members of the JSON body `method template` takes, resolved (empty without one). */
  requestMembers(method: string, template: string): ReadonlyMap<string, Readonly<Record<string, unknown>>>;
}

function errorsText(errors: readonly ErrorObject[] | null | undefined, max = 4): string {
  const list = (errors ?? []).map(
    (e) =>
      `${e.instancePath === '' ? '#' : `#${e.instancePath}`} ${e.message ?? 'is invalid'}${e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})` : ''}`,
  );
  return list.length <= max ? list.join('; ') : `${list.slice(0, max).join('; ')}; and ${list.length - max} more`;
}

/** The media type of a Content-Type header, lowercased, without parameters. */
const mediaOf = (type: string | undefined): string => (type ?? '').split(';')[0]!.trim().toLowerCase();

// A contract is built once per API, so a process that runs several checks of one API (tests, a watch) compiles
// each version's schemas once.
const documents = new WeakMap<object, VersionDocument>();
let ids = 0;

/** The validators of `source` (one version's OpenAPI document); compiled once per document. */
export function createVersionDocument(source: Readonly<Record<string, unknown>>): VersionDocument {
  let document = documents.get(source);
  if (!document) documents.set(source, (document = buildVersionDocument(source)));
  return document;
}

function buildVersionDocument(doc: Readonly<Record<string, unknown>>): VersionDocument {
  const components = (doc['components'] ?? {}) as Record<string, Json | undefined>;
  const id = `urn:restgen:conformance:${++ids}`;
  // Refs point into the document; the schemas are registered under `$defs` of one schema with an id, so a
  // compiled body schema resolves them there.
  const rewrite = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${id}#/$defs/`)) as unknown;
  // The document is restgen's own output (its tests validate it): compiling the meta-schema to check it again
  // would cost more than every body schema of a run together. Formats are checked by their patterns.
  const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true, validateFormats: false, validateSchema: false });
  ajv.addSchema({ $id: id, $defs: rewrite(components['schemas'] ?? {}) as Json });
  const compiled = new Map<string, ValidateFunction>();
  const validator = (schema: unknown): ValidateFunction => {
    const text = JSON.stringify(rewrite(schema));
    let fn = compiled.get(text);
    if (!fn) compiled.set(text, (fn = ajv.compile(JSON.parse(text) as Json)));
    return fn;
  };
  const resolve = (value: unknown): Json | undefined => {
    if (!isObject(value)) return undefined;
    const ref = value['$ref'];
    if (typeof ref !== 'string') return value;
    const [, section, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(ref) ?? [];
    return section && name ? resolve(components[section]?.[name]) : undefined;
  };
  const requestSchemaOf = (op: Json | undefined): unknown => resolve(resolve(resolve(op?.['requestBody'])?.['content'])?.['application/json'])?.['schema'];
  const operationOf = (method: string, template: string): Json | undefined => {
    const paths = doc['paths'] as Record<string, Json | undefined>;
    return resolve(paths[template]?.[method.toLowerCase()]);
  };

  return {
    judge(method, template, exchange) {
      const answer = exchange.answer;
      if (answer === null) return [];
      const op = operationOf(method, template);
      if (!op) return [`the document has no ${method} ${template}`];
      const responses = (op['responses'] ?? {}) as Json;
      const response = resolve(responses[String(answer.status)]);
      if (!response) return [`answered ${answer.status}, which ${method} ${template} does not document (it documents ${Object.keys(responses).join(', ')})`];
      const problems: string[] = [];
      const content = resolve(response['content']);
      const media = mediaOf(answer.headers['content-type']);
      if (content) {
        const entry = resolve(content[media]);
        if (!entry)
          problems.push(`Content-Type is ${JSON.stringify(answer.headers['content-type'] ?? '')}; the document says ${Object.keys(content).join(' or ')}`);
        else if (answer.body === undefined || typeof answer.body === 'string')
          problems.push(`the body is not JSON: ${JSON.stringify(String(answer.body ?? '')).slice(0, 120)}`);
        else {
          const validate = validator(entry['schema'] ?? {});
          if (!validate(answer.body)) problems.push(`the body does not match the documented schema: ${errorsText(validate.errors)}`);
        }
      } else if (answer.body !== undefined) problems.push(`${answer.status} documents no body, but one came`);
      for (const [name, raw] of Object.entries(resolve(response['headers']) ?? {})) {
        const header = resolve(raw);
        const value = answer.headers[name.toLowerCase()];
        if (value === undefined) {
          if (ALWAYS_SENT.has(name.toLowerCase())) problems.push(`the documented ${name} header is missing`);
          continue;
        }
        const schema = resolve(header?.['schema']);
        if (schema?.['type'] === 'integer' && !/^\d+$/.test(value)) problems.push(`${name}: ${JSON.stringify(value)} is not a whole number`);
        if (Array.isArray(schema?.['enum']) && !schema['enum'].includes(value))
          problems.push(`${name}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema['enum'])}`);
      }
      const etag = answer.headers['etag'];
      if (etag !== undefined && !STRONG_ETAG.test(etag)) problems.push(`ETag ${etag} is not a strong entity tag ("...")`);
      return problems;
    },
    requestProblems(method, template, body) {
      const op = operationOf(method, template);
      const schema = requestSchemaOf(op);
      if (schema === undefined) return op ? [] : [`the document has no ${method} ${template}`];
      const validate = validator(schema);
      return validate(body) ? [] : [errorsText(validate.errors)];
    },
    undeclared(method, template, exchange) {
      const answer = exchange.answer;
      if (!answer || answer.status < 200 || answer.status > 299 || answer.body === undefined || typeof answer.body === 'string') return [];
      const response = resolve(resolve(operationOf(method, template)?.['responses'])?.[String(answer.status)]);
      const schema = resolve(resolve(response?.['content'])?.[mediaOf(answer.headers['content-type'])])?.['schema'];
      return schema === undefined ? [] : undeclaredKeys(schema, answer.body, resolve);
    },
    requestMembers(method, template) {
      const schema = resolve(requestSchemaOf(operationOf(method, template)));
      const properties = resolve(schema?.['properties']) ?? {};
      return new Map(Object.entries(properties).flatMap(([name, member]) => (resolve(member) ? [[name, resolve(member)!] as const] : [])));
    },
  };
}
