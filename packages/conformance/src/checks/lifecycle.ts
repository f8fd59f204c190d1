/**
 * @module A collection's lifecycle as the checks use it: the shortest way from the initial state to each state
 * (with this version's transitions), a record brought into a state, valid transition inputs, and states as
 * the version shows them (a state added later shows as its fallback).
 */
import type { TransitionAt } from 'restgen/contract';
import type { CheckContext } from '../context.js';
import { bodyOf } from '../context.js';

/** The transitions that lead from the initial state to each state the version can reach, shortest first. */
export function pathsFrom(ctx: CheckContext): Map<string, readonly TransitionAt[]> {
  const lc = ctx.c.lifecycle;
  const paths = new Map<string, readonly TransitionAt[]>();
  if (!lc) return paths;
  paths.set(lc.initial, []);
  const queue = [lc.initial];
  for (let state = queue.shift(); state !== undefined; state = queue.shift())
    for (const t of lc.transitions)
      if (t.from.includes(state) && !paths.has(t.to)) {
        paths.set(t.to, [...paths.get(state)!, t]);
        queue.push(t.to);
      }
  return paths;
}

/** A state as the version shows it. */
export function shownState(ctx: CheckContext, state: string): string {
  return ctx.v.contract.states[ctx.c.key]?.[state] ?? state;
}

/** A valid input of transition `t` (its refs made first). */
export async function inputOf(ctx: CheckContext, t: TransitionAt): Promise<Record<string, unknown>> {
  const refs = new Map<string, string>();
  for (const f of t.input) if (f.type.kind === 'ref') refs.set(f.type.collection, await ctx.parent(f.type.collection));
  const input = bodyOf(ctx.values, t.input, 'all', (key) => refs.get(key) ?? '');
  ctx.ensureValid(`:${t.name}`, input);
  return input;
}

/** Creates a record (with `overrides`) and moves it into `state`; its id and ETag there. */
export async function reach(
  ctx: CheckContext,
  state: string,
  overrides: Readonly<Record<string, unknown>> = {},
): Promise<{ id: string; etag: string | undefined }> {
  const path = pathsFrom(ctx).get(state);
  if (path === undefined) return ctx.skip(`no transition of ${ctx.v.name} leads to ${state}`);
  const made = await ctx.create(overrides);
  let etag = made.etag;
  for (const t of path) {
    const moved = await ctx.api.transition(made.id, t.name, await inputOf(ctx, t));
    etag = ctx.succeeded(moved, `moving a new record to ${state} (${path.map((p) => `:${p.name}`).join(', ')})`).headers['etag'];
  }
  return { id: made.id, etag };
}
