/**
 * A list's query between the wire and the handler: the output of the version's query schema (flat, in the
 * version's names: `status`, `total[gte]`, `sort`) becomes the {@link ListQuery} a handler reads (filters by
 * field and operator, the sort as an ordered list ending with the id, the mask and expansions, all in the newest
 * version's names, filter values converted by type-change hooks); cursors carry the digest of the sort and filters
 * they were issued for, so one sent with another answers 400 `cursor_mismatch`; and a query the schema refuses
 * is worded per parameter (`/query/sort`), with what the list takes.
 */
import type { z } from 'zod';
import type { AnyFn } from './guards.js';
import type { Hooks } from './migrate.js';
import { HttpProblem, issuesOf, type ProblemIssue } from './problems.js';
import type { QuerySpec, RouteSpec } from './spec.js';
import type { FilterOf, ListQuery, SortKey } from './types.js';

/** A list query in the newest version's names, as every list handler receives it. */
export type AnyListQuery = ListQuery;

/** The parameters that are not filters. */
const OWN = new Set(['limit', 'cursor', 'sort', 'fields', 'expand']);

/** The newest key of a readable field named `name` in the route's version. */
export const keyOf = (spec: QuerySpec, name: string): string => (spec.renamed !== undefined && Object.hasOwn(spec.renamed, name) ? spec.renamed[name]! : name);

/**
 * Builds the function that turns the query schema's output into the handler's query. `id` is the newest name
 * of the id field (the last sort key). Null values never reach it: the schema gave every present parameter.
 */
export function createListQuery(route: RouteSpec, id: string, hooks: Hooks): (flat: Record<string, unknown>) => ListQuery | HttpProblem {
  const spec = route.query;
  const { filters = {}, sort: sortable = {}, expand: expandable = {} } = spec;
  // Filter values of a field whose type changed since this version are converted as its request values are.
  const converts = new Map<string, AnyFn[]>();
  for (const [key, ids] of Object.entries(route.up?.hooks ?? {}))
    converts.set(
      key,
      ids.map((h) => hooks.get(h)!['up']!),
    );
  const convert = (key: string, value: unknown): unknown => {
    const fns = converts.get(key);
    if (fns === undefined) return value;
    const one = (v: unknown) => fns.reduce((x, fn) => fn(x), v);
    return Array.isArray(value) ? value.map(one) : one(value);
  };
  const defaultSort: SortKey[] = (spec.defaultSort ?? []).map(([field, direction]) => ({ field, direction }));
  // A field an older version computes from the whole resource (a hook, `whenMissing`): its mask asks for all.
  const whole = (name: string): boolean => {
    const step = Object.hasOwn(route.down, name) ? route.down[name] : undefined;
    return step !== undefined && ('hook' in step || ('key' in step && step.whenMissing !== undefined));
  };
  return (flat) => {
    const filter: Record<string, Record<string, unknown>> = {};
    for (const param of Object.keys(flat)) {
      if (OWN.has(param) || !Object.hasOwn(filters, param)) continue;
      const value = flat[param];
      if (value === undefined) continue;
      const [key, op] = filters[param]!;
      const ops = (filter[key] ??= {});
      // `status` and `status[eq]` are one operator: sent both, the query is ambiguous.
      if (Object.hasOwn(ops, op)) return twice(param, key, op);
      ops[op] = convert(key, value);
    }
    const named = flat['sort'] as readonly { field: string; direction: 'asc' | 'desc' }[] | undefined;
    // A sort key of a field the newest version no longer stores cannot order anything: it is left out.
    const order =
      named === undefined
        ? defaultSort
        : named.flatMap((k) => (Object.hasOwn(sortable, k.field) ? [{ field: sortable[k.field]!, direction: k.direction }] : []));
    // Ties are always broken by the id (ascending), so that pages are stable.
    const sort = order.length === 0 ? [] : [...order.filter((k) => k.field !== id), { field: id, direction: 'asc' as const }];
    const expand = ((flat['expand'] as readonly string[] | undefined) ?? []).map((name) => expandable[name]![0]);
    const mask = flat['fields'] as readonly string[] | undefined;
    const fields = mask === undefined || mask.some(whole) ? null : [...new Set([id, ...mask.map((name) => keyOf(spec, name)), ...expand])];
    const cursor = flat['cursor'];
    return {
      limit: flat['limit'] as number,
      ...(typeof cursor === 'string' ? { cursor } : {}),
      filter: filter as { readonly [field: string]: FilterOf<unknown> },
      sort,
      fields,
      expand,
    };
  };
}

function twice(param: string, key: string, op: string): HttpProblem {
  const detail = `the ${op} filter on ${key} is given twice (as ${key} and ${key}[eq]); send one`;
  return new HttpProblem(400, 'validation_failed', 'The query string is invalid (1 issue).', {
    errors: [{ pointer: `/query/${param}`, detail, parameter: param }],
  });
}

/**
 * A short stable digest of what a cursor's position depends on: the filters and the sort. It tells a cursor sent
 * with another query from one sent with its own (a client's mistake, answered `cursor_mismatch`); it guards nothing
 * (a handler's cursor must not trust its text), so a fast 53-bit hash of the query's canonical text does.
 */
export function queryDigest(query: Pick<ListQuery, 'filter' | 'sort'>): string {
  let text = '';
  for (const key of Object.keys(query.filter).sort()) {
    const ops = query.filter[key] as Record<string, unknown>;
    text += `\u0001${key}`;
    for (const op of Object.keys(ops).sort()) if (ops[op] !== undefined) text += `\u0002${op}\u0003${JSON.stringify(ops[op])}`;
  }
  for (const k of query.sort) text += `\u0004${k.field}\u0005${k.direction}`;
  return hash53(text).toString(36).padStart(11, '0');
}

/** cyrb53 (public domain): a fast, well-mixed 53-bit string hash. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The cursor sent to the client: the handler's, behind the digest of the query it was issued for. */
export const wrapCursor = (digest: string, inner: string): string => `${digest}.${inner}`;

const CURSOR = /^([0-9a-z]{11})\.(.+)$/s;

/** The handler's cursor inside a client's, or the 400 it answers: not one of ours, or issued for another query. */
export function unwrapCursor(cursor: string, digest: string): string | HttpProblem {
  const match = CURSOR.exec(cursor);
  const issue = (detail: string): ProblemIssue[] => [{ pointer: '/query/cursor', detail, parameter: 'cursor' }];
  if (match === null)
    return new HttpProblem(400, 'invalid_cursor', 'The cursor is not one this server issued; start the list again without a cursor.', {
      errors: issue('not a cursor of this list'),
    });
  if (match[1] !== digest)
    return new HttpProblem(
      400,
      'cursor_mismatch',
      'The cursor was issued for another sort or other filters; send it with the sort and filters of the request that returned it, or start again without a cursor.',
      { errors: issue('issued for another sort or other filters') },
    );
  return match[2]!;
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
