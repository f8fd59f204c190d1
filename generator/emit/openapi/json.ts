/**
 * @module JSON value types for the OpenAPI emitter, and a helper that drops absent members so that
 * optional keywords can be written inline (`maxLength: t.max`) without ever emitting `undefined`.
 */

/** Any JSON value (or one already printed). */
export type Json = string | number | boolean | null | readonly Json[] | JsonObject | PrintedJson;

/**
 * A JSON object already printed at the depth it sits at (by `printJsonAt`), with the `$ref`s it holds: a
 * piece of a document kept in the pipeline's cache, placed into a document without being built again.
 */
export class PrintedJson {
  constructor(
    readonly text: string,
    readonly refs: readonly string[],
  ) {}
}

/** A JSON object. */
export interface JsonObject {
  readonly [key: string]: Json;
}

/** A JSON object under construction: members that are `undefined` or `false`-by-choice are dropped by {@link compact}. */
export type JsonDraft = { readonly [key: string]: Json | undefined };

/** The object without its `undefined` members, insertion order kept (it is the order a reader sees). */
export function compact(draft: JsonDraft): JsonObject {
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(draft)) if (value !== undefined) out[key] = value;
  return out;
}

/** The same object with its keys sorted: for maps whose order carries no meaning (components). */
export function sortedKeys(map: JsonObject): JsonObject {
  const out: Record<string, Json> = {};
  for (const key of Object.keys(map).sort()) out[key] = map[key]!;
  return out;
}

/** A `$ref` to a component. */
export function ref(section: 'schemas' | 'responses' | 'headers' | 'parameters', name: string): JsonObject {
  return { $ref: `#/components/${section}/${name}` };
}
