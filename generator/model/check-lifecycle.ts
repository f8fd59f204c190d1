/**
 * @module Rules of a lifecycle that need the versions: the state field exists unchanged in every version,
 * the initial state exists in every version, each transition's states exist wherever the transition does,
 * every state can be reached, and each transition's input fields follow the field rules over the
 * versions the transition exists in.
 */
import { checkField, checkNamesPerVersion, checkNestedChanges, type Ctx } from './check-field.ts';
import { isComplete } from './build-lifecycle.ts';
import { atPath } from './diagnostics.ts';
import type { CollectionIR, FieldIR, LifecycleIR, TransitionIR } from './ir.ts';
import { emptyRange, enumValuesAt, existsAt, shapeAt } from './project.ts';

/** Version indexes at which the collection exists. */
function collectionLife(ctx: Ctx, c: CollectionIR): number[] {
  return ctx.versions.map((_, i) => i).filter((i) => existsAt(ctx.versions, i, c.addedIn, c.removedIn));
}

/** The state field must be in every version of the collection, with one type (renames are fine). */
function checkStateField(ctx: Ctx, c: CollectionIR, field: FieldIR): void {
  const where = `${c.name}.${field.name}`;
  const why = 'it holds the lifecycle state, which every version shows';
  if (field.addedIn)
    ctx.d.error(
      'RG328',
      `${where}: addedIn('${field.addedIn}') is not allowed on the lifecycle field (${why}); remove the marker.`,
      field.calls['addedIn'] ?? field.loc,
    );
  if (field.removedIn)
    ctx.d.error(
      'RG328',
      `${where}: removedIn('${field.removedIn.version}') is not allowed on the lifecycle field (${why}); remove the marker.`,
      field.calls['removedIn'] ?? field.loc,
    );
  for (const t of field.typeChanges)
    ctx.d.error(
      'RG328',
      `${where}: typeChangedFrom('${t.version}') is not allowed on the lifecycle field (${why}, always as an enum); use valueAddedIn for states added later.`,
      t.loc,
    );
}

/** The states of the field at version index `at`. */
function statesAt(ctx: Ctx, field: FieldIR, at: number): string[] {
  const type = shapeAt(ctx.versions, at, field).type;
  return type.kind === 'enum' ? enumValuesAt(ctx.versions, at, type) : [];
}

/** Each version the transition exists in must know its target state and at least one of its source states. */
function checkTransitionStates(ctx: Ctx, c: CollectionIR, field: FieldIR, t: TransitionIR, life: readonly number[]): void {
  const where = `${c.name}:${t.name}`;
  const empty = emptyRange(ctx.versions, t.addedIn, t.removedIn);
  if (empty) ctx.d.error(empty.code, `${where} ${empty.text}.`, atPath(t.loc, [...(t.loc.path ?? []), 'removedIn']));
  const alive = life.filter((i) => existsAt(ctx.versions, i, t.addedIn, t.removedIn));
  const lacking = alive.filter((i) => {
    const states = statesAt(ctx, field, i);
    return !states.includes(t.to) || !t.from.some((s) => states.includes(s));
  });
  if (lacking.length === 0) return;
  const first = alive.find((i) => !lacking.includes(i) && i > lacking[lacking.length - 1]!);
  const states = statesAt(ctx, field, lacking[0]!);
  const missing = [t.to, ...t.from].filter((s) => !states.includes(s));
  const fix =
    first === undefined ? 'add those states in the versions it exists in, or remove the transition' : `add addedIn: '${ctx.versions[first]}' to the transition`;
  ctx.d.error(
    'RG327',
    `${where} exists in ${lacking.map((i) => ctx.versions[i]).join(', ')}, which ${lacking.length === 1 ? 'does' : 'do'} not have the state${missing.length === 1 ? '' : 's'} ${missing.map((s) => `'${s}'`).join(', ')} it moves ${missing.includes(t.to) ? 'to' : 'from'}; ${fix}.`,
    t.loc,
  );
}

/** The states no transition (of any version) leads to from the initial state. */
function unreachable(lc: LifecycleIR, states: readonly string[]): string[] {
  const reached = new Set([lc.initial]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of lc.transitions)
      if (!reached.has(t.to) && t.from.some((s) => reached.has(s))) {
        reached.add(t.to);
        grew = true;
      }
  }
  return states.filter((s) => !reached.has(s));
}

/** Runs the lifecycle rules of collection `c`. */
export function checkLifecycle(ctx: Ctx, c: CollectionIR, lc: LifecycleIR): void {
  const field = c.fields.find((f) => f.name === lc.field);
  if (field?.type.kind !== 'enum') return;
  checkStateField(ctx, c, field);
  const initialAdded = field.type.added?.find((a) => a.value === lc.initial);
  if (initialAdded)
    ctx.d.error(
      'RG323',
      `${c.name}: the initial state '${lc.initial}' is only added in ${initialAdded.version}, so older versions would create resources in a state they do not have; start in a state every version has.`,
      atPath(lc.loc, [...(lc.loc.path ?? []), 'initial']),
    );
  const life = collectionLife(ctx, c);
  for (const t of lc.transitions) {
    checkTransitionStates(ctx, c, field, t, life);
    const alive = life.filter((i) => existsAt(ctx.versions, i, t.addedIn, t.removedIn));
    for (const f of t.input) {
      const where = `${c.name}:${t.name}.${f.name}`;
      checkField(
        ctx,
        alive[0] ?? 0,
        f,
        where,
        alive.filter((i) => existsAt(ctx.versions, i, f.addedIn, f.removedIn?.version)),
        true,
      );
      checkNestedChanges(ctx, f, where);
    }
    checkNamesPerVersion(ctx, t.input, `${c.name}:${t.name}`);
  }
  // A transition written with a mistake (reported) is not in the IR: the states it leads to are not lost.
  const lost = isComplete(lc) ? unreachable(lc, field.type.values) : [];
  if (lost.length > 0)
    ctx.d.error(
      'RG324',
      `${c.name}: no transition leads from the initial state '${lc.initial}' to ${lost.map((s) => `'${s}'`).join(', ')}; add a transition to ${lost.length === 1 ? 'it' : 'them'} or remove ${lost.length === 1 ? 'the state' : 'those states'} from the enum.`,
      atPath(lc.loc, [...(lc.loc.path ?? []), 'transitions']),
    );
}
