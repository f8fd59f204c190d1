/**
 * @module Compares the lifecycle of one collection between two projections: transitions added or removed,
 * `from` states narrowed or widened, a target state changed, scopes and rate limits of a transition, the
 * initial state, the input fields of each transition (by the request rules), and whether writes need
 * If-Match. States added and removed are the state field's enum values (see `diff-types.ts`).
 */
import { atPath } from '../model/diagnostics.ts';
import type { CollectionAt, RateLimitIR, SourceRef, TransitionAt } from '../model/ir.ts';
import { touchesOf, transitionOp, type RouteOp, type Touches } from './collector.ts';
import { compareInputFields, type FieldDiffContext } from './diff-fields.ts';

const list = (xs: readonly string[]) => xs.map((x) => `'${x}'`).join(', ');
const sorted = (xs: readonly string[]) => [...xs].sort();

/** Where a transition is written (its entry in `lifecycle.transitions`), or the collection. */
function transitionLoc(c: CollectionAt, t: TransitionAt | undefined): SourceRef {
  return t?.loc ?? c.lifecycle?.loc ?? c.loc;
}

/** The writes that check If-Match: replace, update, delete and every transition. */
function conditionalWrites(c: CollectionAt): RouteOp[] {
  return [
    ...c.operations.filter((op) => op === 'replace' || op === 'update' || op === 'delete'),
    ...(c.lifecycle?.transitions ?? []).map((t) => transitionOp(t.name)),
  ];
}

function compareTransition(ctx: FieldDiffContext, b: TransitionAt, a: TransitionAt): void {
  const { out, after } = ctx;
  const c = after.collection;
  const at = `${c.name}:${a.name}`;
  const op = transitionOp(a.name);
  const both: Touches = { request: touchesOf(after.api, c, [op]), response: touchesOf(after.api, c, [op]) };
  const request: Touches = { request: both.request, response: [] };
  const loc = transitionLoc(c, a);
  const lost = b.from.filter((s) => !a.from.includes(s));
  const gained = a.from.filter((s) => !b.from.includes(s));
  const from = { aspect: 'from', before: sorted(b.from), after: sorted(a.from) };
  if (lost.length)
    out.add(
      'transition-from-narrowed',
      at,
      `${at} no longer starts from ${list(lost)}: such calls now answer 409`,
      request,
      atPath(loc, [...(loc.path ?? []), 'from']),
      from,
    );
  if (gained.length)
    out.add('transition-from-widened', at, `${at} now also starts from ${list(gained)}`, request, atPath(loc, [...(loc.path ?? []), 'from']), from);
  if (b.to !== a.to)
    out.add('transition-target-changed', at, `${at} now leads to '${a.to}' instead of '${b.to}'`, both, atPath(loc, [...(loc.path ?? []), 'to']), {
      aspect: 'to',
      before: b.to,
      after: a.to,
    });
  const more = a.scopes.filter((s) => !b.scopes.includes(s));
  const fewer = b.scopes.filter((s) => !a.scopes.includes(s));
  const scopes = { aspect: 'scopes', before: sorted(b.scopes), after: sorted(a.scopes) };
  const scopeLoc = atPath(loc, [...(loc.path ?? []), 'scopes']);
  if (more.length) out.add('scope-added', at, `${at} now also needs scope ${list(more)}`, request, scopeLoc, scopes);
  if (fewer.length) out.add('scope-removed', at, `${at} no longer needs scope ${list(fewer)}`, request, scopeLoc, scopes);
  const rate = (r: RateLimitIR | undefined) => (r ? r.limit / r.windowMs : Infinity);
  const text = (r: RateLimitIR | undefined) => (r ? `${r.limit} per ${r.window}` : 'no limit of its own');
  if (rate(b.rateLimit) !== rate(a.rateLimit))
    out.add(
      rate(a.rateLimit) < rate(b.rateLimit) ? 'rate-limit-lowered' : 'rate-limit-raised',
      at,
      `${at}: rate limit ${text(b.rateLimit)} → ${text(a.rateLimit)}`,
      request,
      atPath(loc, [...(loc.path ?? []), 'rateLimit']),
      {
        aspect: 'rateLimit',
        before: text(b.rateLimit),
        after: text(a.rateLimit),
      },
    );
  compareInputFields(ctx, b.input, a.input, at, op, loc);
}

/** Compares the lifecycles (and the If-Match requirement) of `ctx.before.collection` and `ctx.after.collection`. */
export function compareLifecycles(ctx: FieldDiffContext): void {
  const { out, before, after } = ctx;
  const cb = before.collection;
  const ca = after.collection;
  const tb = cb.lifecycle?.transitions ?? [];
  const ta = ca.lifecycle?.transitions ?? [];
  for (const b of tb) {
    const a = ta.find((t) => t.name === b.name);
    if (a) compareTransition(ctx, b, a);
    else {
      const touches = touchesOf(before.api, cb, [transitionOp(b.name)]);
      out.add(
        'transition-removed',
        `${ca.name}:${b.name}`,
        `${ca.name}:${b.name} was removed (POST .../{id}:${b.name})`,
        { request: touches, response: touches },
        ca.lifecycle?.loc ?? ca.loc,
        { aspect: 'transition', before: b.name },
      );
    }
  }
  for (const a of ta.filter((t) => !tb.some((b) => b.name === t.name))) {
    const touches = touchesOf(after.api, ca, [transitionOp(a.name)]);
    out.add(
      'transition-added',
      `${ca.name}:${a.name}`,
      `${ca.name}:${a.name} was added (${a.from.join(', ')} → ${a.to})`,
      { request: touches, response: touches },
      transitionLoc(ca, a),
      { aspect: 'transition', after: a.name },
    );
  }
  const [lb, la] = [cb.lifecycle, ca.lifecycle];
  if (lb && la && lb.initial !== la.initial) {
    const creates = touchesOf(
      after.api,
      ca,
      ca.operations.filter((op) => op === 'create'),
    );
    out.add(
      'initial-state-changed',
      `${ca.name}.${la.field}`,
      `new ${ca.name} start as '${la.initial}' instead of '${lb.initial}'`,
      { request: [], response: creates },
      atPath(la.loc, [...(la.loc.path ?? []), 'initial']),
      { aspect: 'initial', before: lb.initial, after: la.initial },
    );
  }
  if (cb.requireIfMatch !== ca.requireIfMatch) {
    const writes = touchesOf(after.api, ca, conditionalWrites(ca));
    const required = ca.requireIfMatch;
    out.add(
      required ? 'if-match-required' : 'if-match-no-longer-required',
      ca.name,
      `${ca.name}: writes ${required ? 'now need If-Match (without it they answer 428)' : 'no longer need If-Match'}`,
      { request: writes, response: [] },
      atPath(ca.loc, ['requireIfMatch']),
      { aspect: 'requireIfMatch', before: cb.requireIfMatch, after: required },
    );
  }
}
