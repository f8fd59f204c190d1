/**
 * @module The query parameters of a collection's operations in one version: a list's filters (a field with only
 * equality stays `?field=value`; one with more operators is one `deepObject` parameter whose properties are its
 * operators, `?price[gte]=10&price[lt]=20`), `sort`, and the `fields` and `expand` that get, list and the writes
 * read, each an array of enums sent comma-separated (`style: form`, `explode: false`), as the server reads them.
 */
import { FILTER_OP_FACTS, type CollectionAt, type FieldAt, type FilterAt } from '../../model/ir.ts';
import { humanName } from '../../model/names.ts';
import { formatRef, typeSchema, type FormatNames } from './field-schema.ts';
import { compact, type JsonObject } from './json.ts';

/** A comma-separated list of names (`?sort=-published,title`): an array of enums, each name once. */
const names = (name: string, values: readonly string[], description: string): JsonObject => ({
  name,
  in: 'query',
  description,
  style: 'form',
  explode: false,
  schema: { type: 'array', items: { type: 'string', enum: [...values] }, uniqueItems: true },
});

/** The schema a range operator's bound takes: the field's kind, without its bounds. */
function boundSchema(field: FieldAt, formats: FormatNames): JsonObject {
  switch (field.type.kind) {
    case 'int':
      return { type: 'integer' };
    case 'number':
      return { type: 'number' };
    case 'date':
      return formatRef('date', formats);
    case 'datetime':
      return formatRef('datetime', formats);
    default:
      return { type: 'string' };
  }
}

/** The parameter of one field's filter. */
function filterParameter(c: CollectionAt, filter: FilterAt, formats: FormatNames): JsonObject {
  const field = c.fields.find((f) => f.name === filter.name)!;
  const value = typeSchema(field.type, 'response', formats);
  const which = humanName(c.name);
  // The query text is read as the field's type; a filter never matches null.
  if (filter.ops.length === 1 && filter.ops[0] === 'eq')
    return compact({
      name: field.name,
      in: 'query',
      description: `Only ${which} whose \`${field.name}\` equals this value.`,
      deprecated: field.deprecated ? true : undefined,
      schema: value,
    });
  const properties: Record<string, JsonObject> = {};
  for (const op of filter.ops)
    properties[op] =
      op === 'in'
        ? { type: 'string', description: `Comma-separated values (at most 100), each read as \`${field.name}\` is: one of them.` }
        : FILTER_OP_FACTS[op].ordered
          ? boundSchema(field, formats)
          : value;
  const ops = filter.ops.map((op) => `\`${field.name}[${op}]\` (${FILTER_OP_FACTS[op].reads})`).join(', ');
  const eq = filter.ops.includes('eq') ? ` \`?${field.name}=value\` is \`${field.name}[eq]\`.` : '';
  return compact({
    name: field.name,
    in: 'query',
    description: `Only ${which} whose \`${field.name}\` passes every operator given: ${ops}; records without a value never match.${eq}`,
    deprecated: field.deprecated ? true : undefined,
    style: 'deepObject',
    explode: true,
    schema: { type: 'object', properties, additionalProperties: false },
  });
}

/** A list's filter and `sort` parameters. */
export function listQueryParameters(c: CollectionAt, formats: FormatNames): JsonObject[] {
  const q = c.query;
  const sortable = q.sortable.flatMap((f) => [f.name, `-${f.name}`]);
  const byDefault =
    q.defaultSort.length > 0
      ? `Without it: \`${q.defaultSort.map((k) => (k.direction === 'desc' ? '-' : '') + k.name).join(',')}\`.`
      : 'Without it, the order of creation.';
  return [
    ...q.filters.map((f) => filterParameter(c, f, formats)),
    ...(sortable.length > 0
      ? [
          names(
            'sort',
            sortable,
            `The order: comma-separated keys, \`-\` before a descending one; ties are broken by the id, so pages are stable. ${byDefault} A cursor is valid only with the sort and filters it came with.`,
          ),
        ]
      : []),
  ];
}

/** The `fields` parameter (get and list): a mask of the readable fields. */
export const fieldsParameter = (c: CollectionAt): JsonObject =>
  names(
    'fields',
    c.query.fields.map((f) => f.name),
    'Only these fields in the answer (and always the id).',
  );

/** The `expand` parameter, or none when the version has no expandable ref. */
export function expandParameters(c: CollectionAt): JsonObject[] {
  const refs = c.query.expandable;
  if (refs.length === 0) return [];
  const targets = refs.map((x) => `\`${x.name}\` (${humanName(x.collection)})`).join(', ');
  return [
    names(
      'expand',
      refs.map((x) => x.name),
      `References to answer as the resources they name, as this version shows them (null when it no longer exists), one level deep: ${targets}. The caller needs read access to those collections (else 401 or 403).`,
    ),
  ];
}
