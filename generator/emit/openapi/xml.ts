/**
 * @module XML in the OpenAPI documents of an API with `formats: ['json', 'xml']`: every JSON body and answer
 * gains an `application/xml` twin (problems, `application/problem+xml`) with the same schema, and the schemas
 * gain the `xml` objects that say how the runtime writes them: the root element of each component (`order`,
 * `orderList`, RFC 9457's `problem` in its namespace), and every array wrapped, its items `<i>` elements.
 */
import type { ApiAt } from '../../model/ir.ts';
import type { Json, JsonObject } from './json.ts';

/** The element of an array's items, as the runtime writes them (`xml-write.ts`). */
const ITEM = 'i';

/** Whether the API answers XML besides JSON. */
export const answersXml = (api: Pick<ApiAt, 'formats'>): boolean => api.formats?.includes('xml') === true;

/** A content map with an XML twin of each JSON media type (`application/json`, `application/problem+json`). */
export function withXmlMedia(content: JsonObject): JsonObject {
  const out: Record<string, Json> = { ...content };
  if (content['application/json'] !== undefined) out['application/xml'] = content['application/json'];
  if (content['application/problem+json'] !== undefined) out['application/problem+xml'] = content['application/problem+json'];
  return out;
}

/** The root element name of a component schema: its name with a lower-case first letter (`OrderList` is `orderList`). */
export const rootElementOf = (component: string): string => component[0]!.toLowerCase() + component.slice(1);

const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A schema with `xml` objects on every array in it (wrapped, `<i>` items), at any depth. */
function wrapArrays(schema: Json): Json {
  if (!isObject(schema)) return schema;
  const out: Record<string, Json> = { ...schema };
  const { properties, anyOf, items, type } = schema;
  if (isObject(properties)) out['properties'] = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, wrapArrays(v)]));
  if (Array.isArray(anyOf)) out['anyOf'] = (anyOf as readonly Json[]).map(wrapArrays);
  if (isObject(items)) out['items'] = wrapArrays(items);
  if (type === 'array' || (Array.isArray(type) && (type as readonly Json[]).includes('array'))) {
    out['xml'] = { wrapped: true };
    if (isObject(out['items'])) out['items'] = { ...out['items'], xml: { name: ITEM } };
  }
  return out;
}

/** A component schema as XML writes it: its root element named, its arrays wrapped (`namespace`: the root's, for problems). */
export function withXmlObjects(component: string, schema: JsonObject, namespace?: string): JsonObject {
  // A component that is a reference to another (a replace body) is named by that one.
  if (Object.hasOwn(schema, '$ref')) return schema;
  const wrapped = wrapArrays(schema) as JsonObject;
  return { ...wrapped, xml: namespace === undefined ? { name: rootElementOf(component) } : { name: 'problem', namespace } };
}
