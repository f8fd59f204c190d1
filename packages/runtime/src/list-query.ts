/**
 * A list's query between the wire and the handler: the output of the version's query schema (flat, in the
 * version's names: `status`, `total[gte]`, `sort`) becomes the {@link ListQuery} a handler reads (filters by
 * field and operator, the sort as an ordered list ending with the id, the mask and expansions, all in the newest
 * version's names, filter values converted by type-change hooks; cursors bound to it are `list-cursor.ts`'s); and a
 * query the schema refuses is worded per parameter (`/query/sort`), with what the list takes.
 */
import type { z } from 'zod';
import type { Hooks } from './migrate.js';
import { HttpProblem, issuesOf, type ProblemIssue } from './problems.js';
import type { QuerySpec, RouteSpec } from './spec.js';
import type { ListQuery, SortKey } from './types.js';

/** A list query in the newest version's names, as every list handler receives it. */
export type AnyListQuery = ListQuery;

/** The parameters that are not filters. */
const OWN = new Set(['limit', 'cursor', 'sort', 'fields', 'expand']);

/** The newest key of a readable field named `name` in the route's version. */
export const keyOf = (spec: QuerySpec, name: string): string => (spec.renamed !== undefined && Object.hasOwn(spec.renamed, name) ? spec.renamed[name]! : name);

/** One filter parameter of a route, as its query is structured: where its value goes, and how it is converted. */
interface FilterParameter {
  readonly param: string;
  readonly key: string;
  readonly op: string;
  /** The type-change hooks its values go through (the request's direction), or null. */
  readonly convert: ((value: unknown) => unknown) | null;
}

/**
 * Builds the function that turns the query schema's output into the handler's query. `id` is the newest name
 * of the id field (the last sort key). Null values never reach it: the schema gave every present parameter.
 * What a route's queries can hold is known at mount (its filter parameters, sort keys, expansions), so a request
 * only looks up the parameters it can have, in the schema's order.
 */
export function createListQuery(route: RouteSpec, id: string, hooks: Hooks): (flat: Record<string, unknown>) => ListQuery | HttpProblem {
  const spec = route.query;
  const { filters = {}, sort: sortable = {}, expand: expandable = {} } = spec;
  // Filter values of a field whose type changed since this version are converted as its request values are.
  const convertOf = (key: string): FilterParameter['convert'] => {
    const ids = route.up?.hooks !== undefined && Object.hasOwn(route.up.hooks, key) ? route.up.hooks[key]! : [];
    if (ids.length === 0) return null;
    const fns = ids.map((h) => hooks.get(h)!['up']!);
    const one = (v: unknown) => fns.reduce((x, fn) => fn(x), v);
    return (value) => (Array.isArray(value) ? value.map(one) : one(value));
  };
  // In the schema's order, which is the order of the parsed query's keys.
  const shape = (route.schemas.query as unknown as { shape?: Record<string, unknown> } | undefined)?.shape ?? filters;
  const params: FilterParameter[] = [...Object.keys(shape), ...Object.keys(filters)]
    .filter((param, i, all) => all.indexOf(param) === i && !OWN.has(param) && Object.hasOwn(filters, param))
    .map((param) => {
      const [key, op] = filters[param]!;
      return { param, key, op, convert: convertOf(key) };
    });
  const defaultSort = spec.defaultSort ?? [];
  // A field an older version computes from the whole resource (a hook, `whenMissing`): its mask asks for all.
  const whole = (name: string): boolean => {
    const step = Object.hasOwn(route.down, name) ? route.down[name] : undefined;
    return step !== undefined && ('hook' in step || ('key' in step && step.whenMissing !== undefined));
  };
  return (flat) => {
    const filter: Record<string, Record<string, unknown>> = {};
    for (const { param, key, op, convert } of params) {
      const value = flat[param];
      if (value === undefined) continue;
      const ops = (filter[key] ??= {});
      // `status` and `status[eq]` are one operator: sent both, the query is ambiguous.
      if (Object.hasOwn(ops, op)) return twice(param, key, op);
      ops[op] = convert === null ? value : convert(value);
    }
    const named = flat['sort'] as readonly { field: string; direction: 'asc' | 'desc' }[] | undefined;
    // Ties are always broken by the id (ascending), so that pages are stable.
    const sort: SortKey[] = [];
    let keys = 0;
    if (named === undefined)
      for (const [field, direction] of defaultSort) {
        keys++;
        if (field !== id) sort.push({ field, direction });
      }
    else
      for (const k of named) {
        // A sort key of a field the newest version no longer stores cannot order anything: it is left out.
        if (!Object.hasOwn(sortable, k.field)) continue;
        const field = sortable[k.field]!;
        keys++;
        if (field !== id) sort.push({ field, direction: k.direction });
      }
    if (keys > 0) sort.push({ field: id, direction: 'asc' });
    const names = flat['expand'] as readonly string[] | undefined;
    const expand = names === undefined ? [] : names.map((name) => expandable[name]![0]);
    const mask = flat['fields'] as readonly string[] | undefined;
    const fields = mask === undefined || mask.some(whole) ? null : [...new Set([id, ...mask.map((name) => keyOf(spec, name)), ...expand])];
    const limit = flat['limit'] as number;
    const cursor = flat['cursor'];
    const query: ListQuery =
      typeof cursor === 'string'
        ? { limit, cursor, filter: filter as ListQuery['filter'], sort, fields, expand }
        : { limit, filter: filter as ListQuery['filter'], sort, fields, expand };
    return query;
  };
}

function twice(param: string, key: string, op: string): HttpProblem {
  const detail = `the ${op} filter on ${key} is given twice (as ${key} and ${key}[eq]); send one`;
  return new HttpProblem(400, 'validation_failed', 'The query string is invalid (1 issue).', {
    errors: [{ pointer: `/query/${param}`, detail, parameter: param }],
  });
}

/** A query parameter as a JSON pointer into the request: `/query/sort`. */
const pointerOf = (param: string): string => `/query/${param.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * The issues of a query (`sent`) its schema refused, each at `/query/<parameter>`: an unknown parameter says what
 * the list takes (an unknown operator, which operators the field takes), a value given twice says so, and the
 * schema's own messages (which list what a sort, mask or expansion may name) say the rest.
 */
export function queryIssuesOf(error: z.ZodError, schema: z.ZodType, sent: unknown, what = 'this list'): ProblemIssue[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  const params = Object.keys(shape);
  const filters = params.filter((p) => !OWN.has(p));
  const out: ProblemIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const param of issue.keys) out.push(unknownParameter(param, params, filters, what));
      continue;
    }
    const param = String(issue.path[0] ?? '');
    const allowed = (issue as { params?: { allowed?: unknown } }).params?.allowed;
    // A parameter sent twice arrives as a list, whatever the schema then says of it.
    const repeated = typeof sent === 'object' && sent !== null && Array.isArray((sent as Record<string, unknown>)[param]);
    const [worded] = issuesOf({ issues: [issue] } as z.ZodError, 'query');
    const detail = repeated ? 'given more than once; send it once (an in filter takes comma-separated values)' : (worded?.detail ?? issue.message);
    out.push({ pointer: pointerOf(param), detail, parameter: param, ...(Array.isArray(allowed) ? { allowed } : {}) });
  }
  // One issue per parameter: a list of several items refused for one reason says it once.
  return out.filter((i, n) => out.findIndex((j) => j.parameter === i.parameter && j.detail === i.detail) === n);
}

function unknownParameter(param: string, params: readonly string[], filters: readonly string[], what: string): ProblemIssue {
  const op = /^(.*)\[(\w*)\]$/.exec(param);
  const field = op ? op[1]! : param;
  const ofField = filters.filter((p) => p === field || p.startsWith(`${field}[`));
  const detail =
    ofField.length > 0
      ? `${field} has no ${op ? `'${op[2]}' operator` : 'equality filter'}; its filters are ${ofField.join(', ')}`
      : filters.length > 0
        ? `unknown parameter; ${what} reads ${params.filter((p) => OWN.has(p)).join(', ')} and the filters ${filters.join(', ')}`
        : params.length > 0
          ? `unknown parameter; ${what} reads ${params.join(', ')}`
          : `unknown parameter; ${what} reads no query parameter`;
  return { pointer: pointerOf(param), detail, parameter: param, allowed: ofField.length > 0 ? ofField : [...params] };
}
