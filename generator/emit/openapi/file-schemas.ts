/**
 * @module The request bodies of writes: JSON (and XML, for an API that answers it), and for a collection with file
 * fields multipart bodies (`OrderCreateForm`, `OrderPatchForm`: its JSON body's fields beside a binary property
 * per file, with `encoding` giving each file's media types and each object's JSON).
 */
import type { ApiAt, CollectionAt, FieldAt } from '../../model/ir.ts';
import { kindOf } from '../../model/kinds.ts';
import { afterDescription, fileUploadSchema } from './field-schema.ts';
import { compact, ref, type Json, type JsonObject } from './json.ts';
import { answersXml, withXmlMedia } from './xml.ts';

/** The file fields of a collection in a version. */
export const fileFieldsOf = (c: CollectionAt): FieldAt[] => c.fields.filter((f) => kindOf(f.type).file);

/** The names of a collection's multipart body schemas. */
export const formNamesOf = (c: CollectionAt): { readonly create: string; readonly patch: string } => ({
  create: `${c.typeName}CreateForm`,
  patch: `${c.typeName}PatchForm`,
});

/**
 * The multipart body schemas of a collection with file fields: its JSON body schema (`json`, already built)
 * with each file field a binary property (required in a create when the field is).
 */
export function formSchemaOf(c: CollectionAt, json: JsonObject, partial: boolean): JsonObject {
  const files = fileFieldsOf(c);
  const properties: Record<string, Json> = { ...((json['properties'] as JsonObject | undefined) ?? {}) };
  for (const f of files) {
    const upload = fileUploadSchema(f.type as Extract<FieldAt['type'], { kind: 'file' }>);
    // The field's own words first; the types and the size limit stay said either way.
    properties[f.name] = { ...upload, description: afterDescription(f.description, String(upload['description'])) };
  }
  const required = [...((json['required'] as readonly string[] | undefined) ?? []), ...(partial ? [] : files.filter((f) => !f.optional).map((f) => f.name))];
  return compact({
    ...json,
    description: `${String(json['description'] ?? '')} As a multipart/form-data body: a part per field, each file a part with its file name and type.`.trim(),
    properties,
    required: required.length > 0 ? required : undefined,
  });
}

/** The `encoding` of a multipart body: each file's media types, each object or array field as JSON. */
function encodingOf(c: CollectionAt): JsonObject {
  const out: Record<string, Json> = {};
  for (const f of c.fields) {
    if (f.readOnly) continue;
    const wire = kindOf(f.type);
    if (wire.file && f.type.kind === 'file') out[f.name] = { contentType: f.type.types.join(', ') };
    else if (wire.wire === 'object' || wire.wire === 'array') out[f.name] = { contentType: 'application/json' };
  }
  return out;
}

/**
 * The request body content of a write: the JSON (and XML) body `schema`, and for a collection with file
 * fields the multipart body `form`; JSON only where the body needs no file (a required one in a create).
 */
export function requestContent(api: ApiAt, c: CollectionAt, schema: string, form: string | null, partial: boolean): JsonObject {
  const json = { 'application/json': { schema: ref('schemas', schema) } };
  const plain = answersXml(api) ? withXmlMedia(json) : json;
  if (form === null || fileFieldsOf(c).length === 0) return plain;
  const multipart = { 'multipart/form-data': { schema: ref('schemas', form), encoding: encodingOf(c) } };
  const needsFile = !partial && fileFieldsOf(c).some((f) => !f.optional && !f.nullable);
  return needsFile ? multipart : { ...plain, ...multipart };
}
