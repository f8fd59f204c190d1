/**
 * @module JSON Schemas as TypeScript source for the MCP tool tables. A `$ref` becomes a reference to the constant that
 * holds its target (a collection's schema, or a shared format schema of `formats.ts`), with the members written beside
 * it spread over it; what only OpenAPI reads is left out (`x-` extensions, and `xml`, the element names of an API that
 * serves XML: JSON Schema validators in MCP hosts refuse a keyword they do not know). The source holds each schema once, and the JSON a server
 * lists is still self-contained: a reference is the very object it names.
 */
import { e, type Expr, type Prop } from '../../printer/ast.ts';
import type { Json, JsonObject } from '../openapi/json.ts';

/** What a `$ref` stands for: the expression that names its target, and the target itself. */
export interface RefTarget {
  readonly expr: Expr;
  readonly schema: JsonObject;
}

/** Finds what a `$ref` stands for (and records that it is used). */
export type ResolveRef = (ref: string) => RefTarget;

const same = (a: Json | undefined, b: Json | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Keywords whose value maps names (of properties, definitions) to schemas: those names are the API's, kept as they are. */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** A keyword of a schema that only OpenAPI reads. */
const openApiOnly = (key: string): boolean => key.startsWith('x-') || key === 'xml';

/**
 * A JSON Schema (or any JSON value inside one) as source, its `$ref`s resolved by `resolve`; `names`: `value` maps
 * names to schemas (the value of `properties`), so its own keys are not keywords.
 */
export function schemaSource(value: Json, resolve: ResolveRef, names = false): Expr {
  if (value === null || typeof value !== 'object') return e.json(value);
  if (Array.isArray(value)) return e.arr((value as readonly Json[]).map((v) => schemaSource(v, resolve)));
  const object = value as JsonObject;
  if (names) return e.obj(Object.entries(object).map(([key, v]) => e.prop(key, schemaSource(v, resolve))));
  const ref = object['$ref'];
  const entries = Object.entries(object).filter(([key]) => key !== '$ref' && !openApiOnly(key));
  if (typeof ref !== 'string') return e.obj(entries.map(([key, v]) => e.prop(key, schemaSource(v, resolve, NAMED_SCHEMAS.has(key)))));
  const target = resolve(ref);
  // A member that only repeats the target's own (a format's example, written beside its references) adds nothing.
  const added = entries.filter(([key, v]) => !same(v, target.schema[key]));
  if (added.length === 0) return target.expr;
  return e.obj([e.spread(target.expr), ...added.map(([key, v]): Prop => e.prop(key, schemaSource(v, resolve, NAMED_SCHEMAS.has(key))))]);
}
