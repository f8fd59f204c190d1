/**
 * @module The MCP tools of one version as its contract defines them: one per operation and one per lifecycle
 * transition, named `<collection>_<operation>` and `<collection>_<transition>`, each with the safety hints and the
 * scopes that follow from what the contract declares (the operations table, the lifecycle's states, the scopes and
 * public operations of the version), never from an HTTP method or a hand-written tag. The MCP emitter writes them,
 * the diff names them among what a change affects, and the lock judges every input they are derived from.
 */
import type { OperationFacts } from '@restgen/runtime/contract';
import { OPERATION_FACTS, OPERATIONS, takesCredentials, type ApiAt, type CollectionAt, type LifecycleAt, type OperationName, type TransitionAt } from './ir.ts';

/** What a tool calls: an operation of the collection, or one of its lifecycle transitions. */
export type ToolTarget = { readonly kind: 'operation'; readonly op: OperationName } | { readonly kind: 'transition'; readonly transition: TransitionAt };

/** The behaviour hints of a tool (MCP's `ToolAnnotations`), each a fact of the contract. */
export interface ToolHints {
  /** It changes nothing: list and get. */
  readonly readOnlyHint: boolean;
  /** It may destroy or overwrite data: replace, update, delete, and a transition into a state no transition leaves. */
  readonly destructiveHint: boolean;
  /** Repeating it with the same arguments changes nothing more (see {@link toolHints}). */
  readonly idempotentHint: boolean;
  /** Always false: a tool reaches the API's own resources only, never an open set of outside systems. */
  readonly openWorldHint: false;
}

/** The name of the tool of a collection's operation or transition: `orders_list`, `orders_cancel`. */
export const toolName = (collection: string, member: string): string => `${collection}_${member}`;

/** The name of a target's tool. */
export const toolNameOf = (c: CollectionAt, target: ToolTarget): string => toolName(c.name, target.kind === 'operation' ? target.op : target.transition.name);

/** The states of a version's lifecycle that no transition of that version leaves: a resource that reaches one stays there. */
export function terminalStates(lc: LifecycleAt): ReadonlySet<string> {
  const left = new Set(lc.transitions.flatMap((t) => t.from));
  return new Set(lc.states.filter((s) => !left.has(s)));
}

type OperationHints = Omit<ToolHints, 'openWorldHint'>;

const READ: OperationHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };
const OVERWRITE: OperationHints = { readOnlyHint: false, destructiveHint: true, idempotentHint: true };

/**
 * Each operation's hints, from its facts in the operations table. A create repeats without effect only when it takes
 * an `Idempotency-Key` (the tool then sends one derived from its arguments, so a repeat is answered the first
 * resource); a replace or an update sets the same values again, and a second delete finds nothing to delete. The
 * facts are read when a tool is made, not when this module loads: a loader that imports modules concurrently (jiti,
 * as the docs build runs it) may not have the operations table yet.
 */
const OPERATION_HINTS: { readonly [K in OperationName]: (facts: OperationFacts) => OperationHints } = {
  list: () => READ,
  get: () => READ,
  create: (facts) => ({ readOnlyHint: false, destructiveHint: false, idempotentHint: facts.idempotencyKey }),
  replace: () => OVERWRITE,
  update: () => OVERWRITE,
  delete: () => OVERWRITE,
};

/**
 * The hints of a tool. A transition is destructive when it leads into a state no transition of the version leaves
 * (the resource cannot move on from there); it is idempotent when it cannot start from the state it leads to, so a
 * repeat is refused (409 `invalid_transition`) and changes nothing.
 */
export function toolHints(c: CollectionAt, target: ToolTarget): ToolHints {
  if (target.kind === 'operation') return { ...OPERATION_HINTS[target.op](OPERATION_FACTS[target.op]), openWorldHint: false };
  const t = target.transition;
  const terminal = c.lifecycle !== undefined && terminalStates(c.lifecycle).has(t.to);
  return { readOnlyHint: false, destructiveHint: terminal, idempotentHint: !t.from.includes(t.to), openWorldHint: false };
}

/** The scopes a tool needs in version `api`, or null when it needs no credential there (a public operation, or an API without auth). */
export function toolScopes(api: ApiAt, c: CollectionAt, target: ToolTarget): readonly string[] | null {
  if (!takesCredentials(api.auth)) return null;
  if (target.kind === 'transition') return target.transition.scopes;
  return c.public.includes(target.op) ? null : c.scopes[OPERATION_FACTS[target.op].access];
}

/** Every tool target of a collection in its version: its operations in their fixed order, then its transitions as written. */
export function toolTargets(c: CollectionAt): ToolTarget[] {
  const ops = OPERATIONS.filter((op) => c.operations.includes(op));
  return [
    ...ops.map((op): ToolTarget => ({ kind: 'operation', op })),
    ...(c.lifecycle?.transitions ?? []).map((transition): ToolTarget => ({ kind: 'transition', transition })),
  ];
}
