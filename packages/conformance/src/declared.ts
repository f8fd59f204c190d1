/**
 * @module Which keys of an answer its version does not declare. Response schemas allow members they do not name (so
 * that a client keeps working when a later version adds one), so a schema check passes an answer that leaks a
 * column (`internal_score`); the generated server never sends one (it shapes every answer by the version's schema),
 * and this finds where something else did: every object key, at any depth, that no `properties` of the schema at
 * that place names. A place whose schema names no properties (a free-form object, a map) is not judged.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schemas a value at one place may match: the schema and its `allOf`, `anyOf` and `oneOf` branches, resolved. */
function branches(schema: Json | undefined, resolve: (value: unknown) => Json | undefined, depth = 0): Json[] {
  if (!schema || depth > 8) return [];
  const nested = ['allOf', 'anyOf', 'oneOf'].flatMap((k) => (Array.isArray(schema[k]) ? (schema[k] as unknown[]) : []));
  return [schema, ...nested.flatMap((b) => branches(resolve(b), resolve, depth + 1))];
}

/** JSON Pointer escaping of one key (RFC 6901). */
const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The pointers (`#/internal_score`, `#/data/0/internal_score`) of keys of `value` that `schema` does not declare.
 * `resolve` follows a `$ref` of the document.
 */
export function undeclaredKeys(schema: unknown, value: unknown, resolve: (value: unknown) => Json | undefined, at = '#'): string[] {
  const options = branches(resolve(schema), resolve);
  if (Array.isArray(value)) {
    const items = options.map((o) => o['items']).filter((i) => i !== undefined);
    if (items.length === 0) return [];
    return value.flatMap((item, i) => items.flatMap((s) => undeclaredKeys(s, item, resolve, `${at}/${i}`)));
  }
  if (!isObject(value)) return [];
  const declared = new Map<string, unknown[]>();
  for (const o of options)
    if (isObject(o['properties'])) for (const [key, s] of Object.entries(o['properties'])) declared.set(key, [...(declared.get(key) ?? []), s]);
  // A map (additionalProperties with a schema) or a free-form object names no keys to hold an answer to.
  if (declared.size === 0 || options.some((o) => isObject(o['additionalProperties']) || o['patternProperties'] !== undefined)) return [];
  const out: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    const schemas = declared.get(key);
    if (schemas === undefined) out.push(`${at}/${escape(key)}`);
    else {
      // Where several branches declare the key, a member is judged by the branch that finds least wrong with it.
      const found = schemas.map((s) => undeclaredKeys(s, member, resolve, `${at}/${escape(key)}`));
      out.push(...found.reduce((a, b) => (b.length < a.length ? b : a)));
    }
  }
  return out;
}
