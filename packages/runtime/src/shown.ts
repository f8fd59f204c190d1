/**
 * A route's view of its answers, as the request's query asks for it: the fields a mask (`?fields=`) shows and
 * the refs it expands (`?expand=`), read from the query before the handler runs (400 for what the version does
 * not offer, 401/403 for a collection the caller may not read), and applied to the handler's resources.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { reject, type Broken } from './answer.js';
import { createRequestParser } from './checked-read.js';
import type { ExpandFailure, Expander, Expansion } from './expand.js';
import { answerFailure } from './invoke.js';
import { queryIssuesOf } from './list-query.js';
import { problem, send } from './problems.js';
import type { RouteSpec } from './spec.js';
import type { View } from './view.js';

/** What a request asked to see: the mask's names (this version's, the id and expanded refs among them; null: all) and the expansions. */
export interface Asked {
  readonly names: readonly string[] | null;
  readonly expansions: readonly Expansion[];
}

/** Every field, nothing expanded: what a request without a query sees. */
export const ALL: Asked = { names: null, expansions: [] };

/** The mask of a query's `fields` (this version's names): the id and the expanded refs are always shown. */
export const maskOf = (route: RouteSpec, fields: readonly string[] | undefined, expansions: readonly Expansion[]): readonly string[] | null =>
  fields === undefined ? null : [route.id, ...fields, ...expansions.map((x) => x.name)];

/**
 * The reader of what a get (`schema`: `fields`, `expand`) or a write (`expand`) asks to see; undefined
 * `schema`: the route reads no query (the collection has no expandable ref), and every request sees it all.
 * Answers 400, 401 or 403 itself (and returns the reply) when the query cannot be served.
 */
export function createAskedReader(
  route: RouteSpec,
  schema: z.ZodType | undefined,
  expander: Expander,
  what: string,
): (request: FastifyRequest, reply: FastifyReply) => Asked | FastifyReply {
  if (schema === undefined) return () => ALL;
  const parse = createRequestParser(schema);
  return (request, reply) => {
    const query = request.query;
    // Most requests send no query at all.
    if (query === null || typeof query !== 'object' || Object.keys(query).length === 0) return ALL;
    const parsed = parse(query);
    if (!parsed.success) {
      const errors = queryIssuesOf(parsed.error, schema, query, what);
      return send(
        reply,
        problem(400, 'validation_failed', `The query string is invalid (${errors.length} issue${errors.length === 1 ? '' : 's'}).`, { errors }),
      );
    }
    const expansions = expander.named(route, parsed.data['expand'] as readonly string[] | undefined);
    const refused = expansions.length > 0 ? expander.admit(request, reply, expansions) : undefined;
    if (refused !== undefined) return refused;
    return { names: maskOf(route, parsed.data['fields'] as readonly string[] | undefined, expansions), expansions };
  };
}

/** A resource shown with its refs expanded, as JSON text; or why it cannot be. */
export async function expandedText(
  request: FastifyRequest,
  expander: Expander,
  view: View,
  value: unknown,
  expansions: readonly Expansion[],
): Promise<{ readonly ok: true; readonly text: string; readonly from: unknown } | Broken | ExpandFailure> {
  const shown = view.value()(value, '#', request.log);
  if (!shown.ok) return shown;
  const item = { ...(shown.value as Record<string, unknown>) };
  const failed = await expander.fill(request, [item], expansions);
  return failed ?? { ok: true, text: JSON.stringify(item), from: item };
}

/** Answers a value that cannot be shown: 500 for a broken value or a failed call (logged), the problem of a referenced handler. */
export function answerUnshown(request: FastifyRequest, reply: FastifyReply, version: string, timeout: number, why: Broken | ExpandFailure): FastifyReply {
  if (!('kind' in why)) return reject(request, reply, version, why);
  if (why.kind === 'problem') return send(reply, why.problem.toProblem());
  if (why.kind === 'broken') return reject(request, reply, version, why.broken);
  return answerFailure(request, reply, why.source, why.outcome, timeout);
}
