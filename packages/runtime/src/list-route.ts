/**
 * The list operation, `GET /vN/<collection>`: the query parsed by the version's schema (400 per parameter, with
 * what the list takes), structured for the handler in the newest version's names (`list-query.ts`), its cursor
 * checked against the sort and filters it was issued for (400 `cursor_mismatch`), expansions admitted (401, 403)
 * before the handler runs; then the page: each item shaped (and checked) as the version shows it, masked to the
 * fields asked for, its refs expanded (each referenced collection loaded once for the page), and the handler's
 * next cursor sent behind the query's digest.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { reject } from './answer.js';
import { createRequestParser } from './checked-read.js';
import type { Expander, Expansion } from './expand.js';
import { isRecord } from './guards.js';
import { answerFailure, invoke, whenSettled, type Outcome } from './invoke.js';
import { createQueryDigest, unwrapCursor, wrapCursor } from './list-cursor.js';
import { createListQuery, queryIssuesOf } from './list-query.js';
import { HttpProblem, isProblem, problem, send } from './problems.js';
import { acceptable, sendJsonText } from './representation.js';
import { maskOf } from './shown.js';
import type { RouteSpec, VersionSpec } from './spec.js';
import { contextOf, type Handle, type Mount } from './state.js';
import type { AnyFn } from './guards.js';
import type { View } from './view.js';

/** The JSON pointers of a page's items (`#/data/3`), written once each: a page is at most a few hundred. */
const ITEM_POINTERS: string[] = [];
const itemPointer = (i: number): string => (i < 1000 ? (ITEM_POINTERS[i] ??= `#/data/${i}`) : `#/data/${i}`);

/** Nothing when the route answered already (Fastify then waits on no promise), else the promise of its answer. */
const handled = (answer: unknown): Promise<unknown> | undefined => (answer instanceof Promise ? answer : undefined);

/** The list handler of `route` in `version`; `views` shows its items, `expander` expands their refs. */
export function createListHandle(
  m: Mount,
  version: VersionSpec,
  route: RouteSpec,
  views: (names: readonly string[] | null) => View,
  expander: Expander,
): Handle {
  const key = route.collection.key;
  const source = `handlers.${key}.list`;
  const fn: AnyFn = m.handlers[key]!['list']!;
  const timeout = m.requestTimeout;
  const schema = route.schemas.query!;
  const parse = createRequestParser(schema);
  const structure = createListQuery(route, m.newest.get(key)!.id, m.hooks);
  const digestOf = createQueryDigest(route.query);
  const broken = (request: FastifyRequest, reply: FastifyReply, pointer: string, detail: string) =>
    reject(request, reply, version.name, { ok: false, source, pointer, detail });

  /** The items of a page as text, each shown by `view` (and expanded); or the reply already sent. */
  const itemsText = async (request: FastifyRequest, reply: FastifyReply, data: readonly unknown[], view: View, expansions: readonly Expansion[]) => {
    const shown: Record<string, unknown>[] = [];
    for (let i = 0; i < data.length; i++) {
      const one = view.value()(data[i], itemPointer(i), request.log);
      if (!one.ok) return reject(request, reply, version.name, one);
      shown.push({ ...(one.value as Record<string, unknown>) });
    }
    const failed = await expander.fill(request, shown, expansions);
    if (failed === undefined) return shown.map((item) => JSON.stringify(item)).join(',');
    if (failed.kind === 'problem') return send(reply, failed.problem.toProblem());
    if (failed.kind === 'broken') return reject(request, reply, version.name, failed.broken);
    return answerFailure(request, reply, failed.source, failed.outcome, timeout);
  };

  /**
   * Answers a list handler's outcome: each item shaped (and checked) as the version shows it; with checks on, a
   * page of more than the `limit` asked for (at most the `maxItems` the document declares) is refused; the next
   * cursor goes behind the query's `digest`.
   */
  const answerPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    limit: number,
    outcome: Outcome<unknown>,
    view: View,
    expansions: readonly Expansion[],
    digest: string,
  ): FastifyReply | Promise<FastifyReply> => {
    if (outcome.kind !== 'value') return answerFailure(request, reply, source, outcome, timeout);
    const page = outcome.value;
    if (isProblem(page)) return send(reply, page.toProblem());
    const data = isRecord(page) ? page['data'] : undefined;
    const next = isRecord(page) ? page['next_cursor'] : undefined;
    if (!Array.isArray(data)) return broken(request, reply, '#/data', 'not an array');
    if (m.validateResponses && data.length > limit) return broken(request, reply, '#/data', `${data.length} items, but the request asked for at most ${limit}`);
    if (next !== null && typeof next !== 'string') return broken(request, reply, '#/next_cursor', 'neither a string nor null');
    const cursor = next === null ? 'null' : JSON.stringify(wrapCursor(digest, next));
    const sendPage = (items: string) => sendJsonText(reply, `{"data":[${items}],"next_cursor":${cursor}}`, route.xml?.list);
    if (expansions.length > 0) return itemsText(request, reply, data, view, expansions).then((items) => (typeof items === 'string' ? sendPage(items) : items));
    // `JSON.stringify({ data, next_cursor })`, written from each item's text.
    let items = '';
    for (let i = 0; i < data.length; i++) {
      const shown = view.text(data[i], itemPointer(i), request.log);
      if (!shown.ok) return reject(request, reply, version.name, shown);
      items += (i === 0 ? '' : ',') + shown.text;
    }
    return sendPage(items);
  };

  return (request, reply) => {
    if (!acceptable(m, request, reply)) return undefined;
    const parsed = parse(request.query);
    if (!parsed.success) {
      const errors = queryIssuesOf(parsed.error, schema, request.query);
      return handled(
        send(reply, problem(400, 'validation_failed', `The query string is invalid (${errors.length} issue${errors.length === 1 ? '' : 's'}).`, { errors })),
      );
    }
    const query = structure(parsed.data);
    if (query instanceof HttpProblem) return handled(send(reply, query.toProblem()));
    const digest = digestOf(query);
    let asked = query;
    if (query.cursor !== undefined) {
      const inner = unwrapCursor(query.cursor, digest);
      if (inner instanceof HttpProblem) return handled(send(reply, inner.toProblem()));
      asked = { ...query, cursor: inner };
    }
    const expansions = expander.named(route, parsed.data['expand'] as readonly string[] | undefined);
    if (expansions.length > 0) {
      const refused = expander.admit(request, reply, expansions);
      if (refused !== undefined) return handled(refused);
    }
    const view = views(maskOf(route, parsed.data['fields'] as readonly string[] | undefined, expansions));
    const outcome = invoke(request, source, timeout, () => fn(asked, contextOf(m, request, version.name)));
    return handled(whenSettled(outcome, (o) => answerPage(request, reply, query.limit, o, view, expansions, digest)));
  };
}
