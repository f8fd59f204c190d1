/**
 * @module JSON Schema 2020-12 of a field, one writer per type kind (a new kind without a writer fails to
 * compile). The schemas say exactly what the generated zod schemas accept: formats carry zod's own
 * regular expression as `pattern`, because in OpenAPI 3.1 `format` is only an annotation and many
 * validators (and ajv-formats) are looser or stricter than zod. Those long patterns live once per
 * document, in shared format schemas that fields refer to.
 */
import type { FieldAt, TypeIR, TypeKind } from '../../model/ir.ts';
import { exampleOfPattern } from '../../model/pattern-example.ts';
import { ZOD_FORMAT_PATTERNS } from '../../model/zod-formats.ts';
import { compact, ref, type Json, type JsonObject } from './json.ts';
import type { SchemaMode } from '../schema-mode.ts';

/** The formats that get a shared component schema (their patterns are long; fields refer to them). */
export type FormatKind = 'datetime' | 'date' | 'uuid' | 'email';

/** The component name of each shared format schema in one document. */
export type FormatNames = { readonly [K in FormatKind]: string };

/** The preferred component names of the format schemas (a document renames one that a collection's type already uses). */
export const FORMAT_NAMES: FormatNames = { datetime: 'DateTime', date: 'Date', uuid: 'Uuid', email: 'Email' };

/** The example of each format: in its shared schema, and beside every `$ref` to it (see {@link formatRef}). */
const FORMAT_EXAMPLES: { readonly [K in FormatKind]: string } = {
  datetime: '2026-01-15T09:30:00Z',
  date: '2026-01-15',
  uuid: '0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e',
  email: 'someone@example.com',
};

/**
 * A reference to a shared format schema, with the format's example beside it. OpenAPI 3.1 allows keywords beside
 * `$ref`, and example generators need this one there: Scalar's (the API reference people open these documents in)
 * does not follow a `$ref` found inside a schema it reached through another `$ref` under array `items` (a list's
 * `data`, an event's `data`), so without it those fields showed `null` where the format schema has an example.
 */
export function formatRef(kind: FormatKind, names: FormatNames): JsonObject {
  return { ...ref('schemas', names[kind]), examples: [FORMAT_EXAMPLES[kind]] };
}

/** The shared format schemas; the expressions are the ones the zod emitter writes (zod-expression.ts). */
export function buildFormatSchema(kind: FormatKind): JsonObject {
  switch (kind) {
    case 'datetime':
      return {
        type: 'string',
        format: 'date-time',
        pattern: ZOD_FORMAT_PATTERNS.datetime,
        description: 'An RFC 3339 date-time with seconds and an offset (`Z` or `+hh:mm`).',
        examples: [FORMAT_EXAMPLES.datetime],
      };
    case 'date':
      return {
        type: 'string',
        format: 'date',
        pattern: ZOD_FORMAT_PATTERNS.date,
        description: 'A calendar date, `YYYY-MM-DD`.',
        examples: [FORMAT_EXAMPLES.date],
      };
    case 'uuid':
      return { type: 'string', format: 'uuid', pattern: ZOD_FORMAT_PATTERNS.uuid, description: 'An RFC 9562 UUID.', examples: [FORMAT_EXAMPLES.uuid] };
    case 'email':
      return { type: 'string', format: 'email', pattern: ZOD_FORMAT_PATTERNS.email, description: 'An email address.', examples: [FORMAT_EXAMPLES.email] };
  }
}

/** `z.int()` accepts safe integers only; an integer schema says so where the field sets no bound. */
const SAFE = Number.MAX_SAFE_INTEGER;

type Writers = {
  [K in TypeKind]: (type: Extract<TypeIR<FieldAt>, { kind: K }>, mode: SchemaMode, formats: FormatNames) => JsonObject;
};

const writers: Writers = {
  string: (t) => {
    // A pattern gets an example that matches it (a field's own example() replaces it; RG190 asks for one
    // where none can be derived).
    const example = t.pattern === undefined ? null : exampleOfPattern(t.pattern, t.min, t.max);
    return compact({ type: 'string', minLength: t.min, maxLength: t.max, pattern: t.pattern, examples: example === null ? undefined : [example] });
  },
  int: (t) => ({ type: 'integer', minimum: t.min ?? -SAFE, maximum: t.max ?? SAFE }),
  number: (t) => compact({ type: 'number', minimum: t.min, maximum: t.max }),
  boolean: () => ({ type: 'boolean' }),
  enum: (t) => ({ type: 'string', enum: [...t.values] }),
  datetime: (_t, _m, names) => formatRef('datetime', names),
  date: (_t, _m, names) => formatRef('date', names),
  uuid: (_t, _m, names) => formatRef('uuid', names),
  email: (_t, _m, names) => formatRef('email', names),
  // zod checks a URL with the WHATWG parser; no pattern says the same, so `format` is all there is.
  url: () => ({ type: 'string', format: 'uri' }),
  id: (_t, _m, names) => formatRef('uuid', names),
  ref: (_t, _m, names) => formatRef('uuid', names),
  array: (t, mode, names) => {
    const items = typeSchema(t.of, mode, names);
    return compact({ type: 'array', items: t.itemsNullable ? withNull(items) : items, minItems: t.min, maxItems: t.max });
  },
  object: (t, mode, names) => objectSchema(t.fields, mode, names),
};

/** The schema of a type, without the field's modifiers. */
export function typeSchema(type: TypeIR<FieldAt>, mode: SchemaMode, formats: FormatNames): JsonObject {
  return (writers[type.kind] as (t: TypeIR<FieldAt>, m: SchemaMode, f: FormatNames) => JsonObject)(type, mode, formats);
}

/** Adds `null` to a schema's type (and to its enum, which would otherwise still reject it). */
export function withNull(schema: JsonObject): JsonObject {
  const type = schema['type'];
  // A reference (a shared format) cannot take a second type: it becomes one branch of two.
  if (typeof type !== 'string') return { anyOf: [schema, { type: 'null' }] };
  const out: Record<string, Json> = { ...schema, type: [type, 'null'] };
  const values = schema['enum'];
  if (Array.isArray(values)) out['enum'] = [...(values as readonly Json[]), null];
  return out;
}

/** What a property schema documents besides the type: the field's annotations in this mode. */
export interface PropertyOptions {
  readonly mode: SchemaMode;
  /** Document the default (where zod applies it: create and replace bodies, nested request objects). */
  readonly withDefault: boolean;
  readonly formats: FormatNames;
}

/** The schema of a field as an object property: type, null, description, default, example, flags. */
export function propertySchema(field: FieldAt, options: PropertyOptions): JsonObject {
  const base = typeSchema(field.type, options.mode, options.formats);
  const typed = field.nullable ? withNull(base) : base;
  return compact({
    ...typed,
    description: field.description,
    default: options.withDefault && field.default ? (field.default.value as Json) : undefined,
    // The field's own example wins over one derived from its pattern.
    examples: field.example ? [field.example.value as Json] : typed['examples'],
    deprecated: field.deprecated ? true : undefined,
    readOnly: options.mode === 'response' && field.readOnly ? true : undefined,
    writeOnly: options.mode === 'request' && field.writeOnly ? true : undefined,
  });
}

/** True when a field is one key of an object in this mode (write-only fields are never answered, read-only never sent). */
export function isMember(field: FieldAt, mode: SchemaMode): boolean {
  return mode === 'response' ? !field.writeOnly : !field.readOnly;
}

/** True when an object of this mode must carry the field (as `z.input` of the schema sees it). */
export function isRequired(field: FieldAt, mode: SchemaMode, withDefaults: boolean): boolean {
  if (field.optional) return false;
  // A default makes a key optional only where zod applies it (requests); responses always carry it.
  return !(mode === 'request' && withDefaults && field.default);
}

/** An object of fields; nested objects follow the rules of the top-level object they sit in. */
export function objectSchema(fields: readonly FieldAt[], mode: SchemaMode, formats: FormatNames): JsonObject {
  const members = fields.filter((f) => isMember(f, mode));
  const properties: Record<string, Json> = {};
  for (const f of members) properties[f.name] = propertySchema(f, { mode, withDefault: mode === 'request', formats });
  const required = members.filter((f) => isRequired(f, mode, true)).map((f) => f.name);
  return compact({
    type: 'object',
    properties,
    required: required.length > 0 ? required : undefined,
    additionalProperties: mode === 'request' ? false : undefined,
  });
}
