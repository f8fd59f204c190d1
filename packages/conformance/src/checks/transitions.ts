/**
 * @module Lifecycle transitions: each one moves a record from a state it starts from to its target, and answers
 * 409 from a state it does not start from (changing nothing); concurrent transitions on one record end as
 * some sequential order of them would (N copies of one transition: one succeeds; two transitions that each
 * rule the other out: one of them succeeds).
 */
import type { TransitionAt } from 'restgen/contract';
import { operationOf } from '../client.js';
import { show } from '../compare.js';
import type { CheckContext } from '../context.js';
import type { Exchange } from '../types.js';
import type { CheckDefinition } from './definition.js';
import { explain } from './explain.js';
import { statusesOf } from './helpers.js';
import { inputOf, pathsFrom, reach, shownState } from './lifecycle.js';

const stateOf = (ctx: CheckContext, exchange: Exchange): unknown => {
  const body = exchange.answer?.body;
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[ctx.c.lifecycle!.field] : undefined;
};

async function currentState(ctx: CheckContext, id: string): Promise<unknown> {
  if (!ctx.c.operations.includes('get')) return undefined;
  const got = await ctx.api.get(id);
  ctx.succeeded(got, 'reading the record after its transitions');
  return stateOf(ctx, got);
}

const noLifecycle = (ctx: CheckContext) =>
  ctx.c.lifecycle && ctx.c.lifecycle.transitions.length > 0 ? undefined : `${ctx.c.name} has no transitions in ${ctx.v.name}`;

/** Each transition from a state it starts from (200, to its target) and from one it does not (409, unchanged). */
export const transitions: CheckDefinition = {
  needs: ['create'],
  applies: noLifecycle,
  async run(ctx) {
    const reachable = [...pathsFrom(ctx).keys()];
    for (const t of ctx.c.lifecycle!.transitions) {
      const from = reachable.find((s) => t.from.includes(s));
      if (from !== undefined) {
        const record = await reach(ctx, from);
        const moved = await ctx.api.transition(record.id, t.name, await inputOf(ctx, t));
        ctx.succeeded(moved, `:${t.name} from ${from}`);
        const to = shownState(ctx, t.to);
        if (stateOf(ctx, moved) !== to)
          ctx.fail(`:${t.name}`, `:${t.name} from ${from} answered the record in ${show(stateOf(ctx, moved))}; expected ${to}`, moved);
        const stored = await currentState(ctx, record.id);
        if (stored !== undefined && stored !== to) ctx.fail('get', `after :${t.name} from ${from}, the record is ${show(stored)}; expected ${to}`);
      }
      const other = reachable.find((s) => !t.from.includes(s));
      if (other === undefined) continue;
      const record = await reach(ctx, other);
      const refused = await ctx.api.transition(record.id, t.name, await inputOf(ctx, t));
      if (refused.answer?.status !== 409)
        ctx.fail(
          `:${t.name}`,
          `:${t.name} from ${other}, a state it does not start from, answered ${refused.answer?.status ?? 'nothing'}; expected 409`,
          refused,
        );
      const stored = await currentState(ctx, record.id);
      if (stored !== undefined && stored !== shownState(ctx, other)) ctx.fail('get', `a refused :${t.name} moved the record from ${other} to ${show(stored)}`);
    }
    const first = ctx.c.lifecycle!.transitions[0]!;
    const missing = await ctx.api.transition(crypto.randomUUID(), first.name, await inputOf(ctx, first), { ifMatch: null });
    if (missing.answer?.status !== 404 && !(ctx.c.requireIfMatch && missing.answer?.status === 428))
      ctx.fail(`:${first.name}`, `:${first.name} on a record that does not exist answered ${missing.answer?.status ?? 'nothing'}; expected 404`, missing);
  },
};

/** A set of concurrent transitions to try from `start`. */
interface Scenario {
  readonly start: string;
  readonly moves: readonly TransitionAt[];
}

/** N copies of one transition that cannot follow itself; and two that rule each other out (else every one open from the initial state). */
function scenarios(ctx: CheckContext): Scenario[] {
  const lc = ctx.c.lifecycle!;
  const reachable = [...pathsFrom(ctx).keys()];
  const n = ctx.concurrency;
  const out: Scenario[] = [];
  const open = (s: string) => lc.transitions.filter((t) => t.from.includes(s));
  for (const s of reachable) {
    const t = open(s).find((x) => !x.from.includes(x.to));
    if (t) {
      out.push({ start: s, moves: Array.from({ length: n }, () => t) });
      break;
    }
  }
  let pair: Scenario | undefined;
  for (const s of reachable) {
    const ts = open(s);
    for (const a of ts)
      for (const b of ts)
        if (!pair && a !== b && !b.from.includes(a.to) && !a.from.includes(b.to))
          pair = { start: s, moves: Array.from({ length: n }, (_, i) => (i % 2 === 0 ? a : b)) };
  }
  const all = open(lc.initial);
  if (!pair && all.length > 1) pair = { start: lc.initial, moves: Array.from({ length: n }, (_, i) => all[i % all.length]!) };
  if (pair) out.push(pair);
  return out;
}

/** Concurrent transitions on one record: the answers and the final state are explained by some sequential order. */
export const transitionsConcurrent: CheckDefinition = {
  needs: ['create', 'get'],
  applies: (ctx) => noLifecycle(ctx) ?? (scenarios(ctx).length === 0 ? `no transition of ${ctx.c.name} can conflict with another` : undefined),
  async run(ctx) {
    for (const { start, moves } of scenarios(ctx)) {
      const record = await reach(ctx, start);
      const inputs = await Promise.all(moves.map((t) => inputOf(ctx, t)));
      await ctx.warm(record.id);
      const answers = await Promise.all(moves.map((t, i) => ctx.api.transition(record.id, t.name, inputs[i])));
      const names = `[${moves.map((t) => `:${t.name}`).join(', ')}]`;
      const odd = answers.find((e) => e.answer?.status !== 200 && e.answer?.status !== 409);
      if (odd) {
        ctx.fail(operationOf(odd), `${moves.length} concurrent ${names} from ${start} answered ${statusesOf(answers)}; each should answer 200 or 409`, odd);
        continue;
      }
      answers.forEach((e, i) => {
        const to = shownState(ctx, moves[i]!.to);
        if (e.answer?.status === 200 && stateOf(ctx, e) !== to)
          ctx.fail(`:${moves[i]!.name}`, `a successful :${moves[i]!.name} answered the record in ${show(stateOf(ctx, e))}; expected ${to}`, e);
      });
      const end = await currentState(ctx, record.id);
      const versions = new Map([...pathsFrom(ctx).keys()].map((s) => [shownState(ctx, s), s]));
      const endState = typeof end === 'string' ? (versions.get(end) ?? end) : String(end);
      const order = explain(
        start,
        moves.map((t, i) => ({ from: t.from, to: t.to, succeeded: answers[i]!.answer?.status === 200 })),
        endState,
      );
      if (order === null) {
        const wrong = answers.find((e) => e.answer?.status === 200) ?? answers[0];
        ctx.fail(
          operationOf(wrong),
          `${moves.length} concurrent ${names} from ${start} answered ${statusesOf(answers)} and left the record ${show(end)}: no sequential order of them does that (a transition succeeded from a state it does not start from; make the write conditional on the state it read)`,
          wrong,
        );
      }
    }
  },
};
