/**
 * @module The component schemas of one collection, named like the generated zod schemas: `Order` (the
 * resource as answered), `OrderCreate`, `OrderReplace`, `OrderPatch` (bodies) and `OrderList` (a page).
 * Each one says what the zod schema of the same name accepts (see `templates/zod/schemas.hbs`).
 */
import type { CollectionAt, FieldAt, OperationName } from '../../model/ir.ts';
import { SECRET_ANSWERS, WITH_SECRET_DOC, withSecretName } from '../../model/webhook-endpoints.ts';
import type { SchemaMode } from '../schema-mode.ts';
import { isMember, isRequired, propertySchema, type FormatNames } from './field-schema.ts';
import { compact, ref, type Json, type JsonObject } from './json.ts';

/** The names of a collection's component schemas. */
export interface SchemaNames {
  readonly resource: string;
  /** What create answers: the resource, or the webhook endpoint with its signing secret. */
  readonly created: string;
  readonly create: string;
  readonly replace: string;
  readonly patch: string;
  readonly list: string;
}

/** The component names of a collection, from its generated type name. */
export function schemaNamesOf(c: CollectionAt): SchemaNames {
  const t = c.typeName;
  return { resource: t, created: withSecretName(c) ?? t, create: `${t}Create`, replace: `${t}Replace`, patch: `${t}Patch`, list: `${t}List` };
}

interface BodyRules {
  readonly mode: SchemaMode;
  /** Create and replace apply defaults (the key may be left out); patch does not. */
  readonly withDefaults: boolean;
  /** Patch: every key may be left out. */
  readonly partial: boolean;
  /** Requests reject unknown keys (`z.strictObject`); responses strip them (`z.object`). */
  readonly strict: boolean;
}

function objectOf(fields: readonly FieldAt[], rules: BodyRules, formats: FormatNames, description: string): JsonObject {
  const members = fields.filter((f) => isMember(f, rules.mode));
  const properties: Record<string, Json> = {};
  for (const f of members) properties[f.name] = propertySchema(f, { mode: rules.mode, withDefault: rules.withDefaults, formats });
  const required = rules.partial ? [] : members.filter((f) => isRequired(f, rules.mode, rules.withDefaults)).map((f) => f.name);
  return compact({
    type: 'object',
    description,
    properties,
    required: required.length > 0 ? required : undefined,
    additionalProperties: rules.strict ? false : undefined,
  });
}

const RESOURCE: BodyRules = { mode: 'response', withDefaults: false, partial: false, strict: false };
const CREATE: BodyRules = { mode: 'request', withDefaults: true, partial: false, strict: true };
const PATCH: BodyRules = { mode: 'request', withDefaults: false, partial: true, strict: true };

/** Which of a collection's schemas its operations use (an unused component is noise, and linters say so). */
function usedSchemas(ops: readonly OperationName[]): Readonly<Record<keyof SchemaNames, boolean>> {
  const has = (op: OperationName) => ops.includes(op);
  return {
    resource: ops.some((op) => op !== 'delete'),
    created: has('create'),
    create: has('create'),
    replace: has('replace'),
    patch: has('update'),
    list: has('list'),
  };
}

/**
 * The component schemas of one collection, keyed by name; request bodies from `req`, the collection as
 * requests see it (the built-in webhook endpoints carry request-only bounds), by default the collection.
 */
export function buildCollectionSchemas(c: CollectionAt, formats: FormatNames, req: CollectionAt = c): Record<string, JsonObject> {
  const names = schemaNamesOf(c);
  const used = usedSchemas(c.operations);
  const what = c.description ? `${c.description} ` : '';
  const out: Record<string, JsonObject> = {};
  if (used.resource) out[names.resource] = objectOf(c.fields, RESOURCE, formats, `${what}As responses carry it.`);
  if (names.created !== names.resource) {
    const shown = c.fields.map((f) => (f.name === SECRET_ANSWERS.field ? { ...f, optional: false } : f));
    out[names.created] = objectOf(shown, RESOURCE, formats, WITH_SECRET_DOC);
  }
  const createDoc = 'Read-only and unknown fields are rejected; defaults are applied.';
  if (used.create) out[names.create] = objectOf(req.fields, CREATE, formats, `The body of a create. ${createDoc}`);
  if (used.replace) {
    const doc = `The body of a replace: the complete resource. ${createDoc}`;
    // The zod schema is the create schema under a second name; a reference says exactly that.
    out[names.replace] = used.create ? { $ref: ref('schemas', names.create)['$ref']!, description: doc } : objectOf(req.fields, CREATE, formats, doc);
  }
  if (used.patch) {
    const doc = 'The body of an update: only the fields to change. Read-only and unknown fields are rejected.';
    out[names.patch] = objectOf(req.fields, PATCH, formats, doc);
  }
  if (used.list) {
    out[names.list] = {
      type: 'object',
      description: `A page of ${c.name}.`,
      properties: {
        data: { type: 'array', items: ref('schemas', names.resource), maxItems: c.pagination.maxLimit },
        next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` to get the next page; null on the last page.' },
      },
      required: ['data', 'next_cursor'],
    };
  }
  return out;
}
