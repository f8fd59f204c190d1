/**
 * @module The migration hooks of a collection's server module: the plans of each version (which record the hooks
 * they call), and the `Migrations` type's members with their docs.
 */
import type { CollectionIR } from '../../model/ir.ts';
import { existsAt, shapeAt } from '../../model/project.ts';
import { t, type Type, type TypeMember } from '../../printer/ast.ts';
import { printKey } from '../../printer/literals.ts';
import { compactUp, planDown, planUp, HookNeeds, type HookNeed } from './migration-plan.ts';
import { valueText } from './ts-type.ts';

/** One field's hook in the `Migrations` type. */
interface HookFieldView {
  readonly key: string;
  readonly doc: string;
  /** The hook's member signatures. */
  readonly members: Type;
}

/** The hooks one version asks for, in the `Migrations` type. */
export interface MigrationView {
  readonly version: string;
  readonly key: string;
  readonly collection: string;
  readonly fields: readonly HookFieldView[];
}

/** What planning needs of the API: its versions and the collections each has (a `ServerContext` is one). */
export interface PlanContext {
  readonly versions: readonly string[];
  readonly projections: readonly { readonly byKey: ReadonlyMap<string, unknown> }[];
}

/** Index of the newest version a collection exists in (its handlers are typed with that version). */
function topOf(versions: readonly string[], c: CollectionIR): number {
  let top = -1;
  for (let i = 0; i < versions.length; i++) if (existsAt(versions, i, c.addedIn, c.removedIn)) top = i;
  return top;
}

/** Why a hook exists and what it converts, for its doc comment and the spec. */
export function hookDoc(versions: readonly string[], need: HookNeed): string {
  const before = versions[versions.indexOf(need.version) - 1]!;
  const where = `${need.collection}.${need.field}`;
  switch (need.kind) {
    case 'typeChange':
      return `${where} changed type in ${need.version}: up converts a ${before} value to ${need.version}, down a ${need.version} value back to ${before}.`;
    case 'removed':
      return `${where} was removed in ${need.version} without a fallback: the value ${before} and earlier answer for it, from the current resource.`;
    case 'madeOptional':
      return `${where} became optional in ${need.version}; ${before} and earlier require it: the value they answer when the resource has none.`;
  }
}

function hookMembers(versions: readonly string[], c: CollectionIR, need: HookNeed, resource: Type, param: string): TypeMember[] {
  const f = c.fields.find((x) => x.name === need.field)!;
  const k = versions.indexOf(need.version);
  const old = shapeAt(versions, k - 1, f);
  const oldType = valueText(old, versions, k - 1);
  const orUndefined = (type: Type, optional: boolean): Type => (optional ? t.union([type, t.ref('undefined')]) : type);
  const members: TypeMember[] = [];
  if (need.kind === 'typeChange') {
    const now = shapeAt(versions, k, f);
    const newType = valueText(now, versions, k);
    if (need.members.has('up')) members.push(t.method('up', [{ name: 'value', type: oldType }], orUndefined(newType, now.optional && !now.default)));
    if (need.members.has('down')) members.push(t.method('down', [{ name: 'value', type: newType }], orUndefined(oldType, old.optional)));
  } else if (need.kind === 'removed') members.push(t.method('value', [{ name: param, type: resource }], orUndefined(oldType, old.optional)));
  else members.push(t.method('whenMissing', [{ name: param, type: resource }], oldType));
  return members;
}

/** The versions a collection exists in and the migration plans of each (the plans record which hooks they call). */
export function plansOf(
  ctx: PlanContext,
  c: CollectionIR,
): { top: number; needs: HookNeeds; plans: Map<number, { up: ReturnType<typeof compactUp>; down: ReturnType<typeof planDown> }> } {
  const { versions, projections } = ctx;
  const top = topOf(versions, c);
  const needs = new HookNeeds();
  const plans = new Map<number, { up: ReturnType<typeof compactUp>; down: ReturnType<typeof planDown> }>();
  for (let at = 0; at < versions.length; at++) {
    if (!projections[at]!.byKey.has(c.name)) continue;
    plans.set(at, { up: at === top ? null : compactUp(planUp(versions, c, at, top, needs)), down: planDown(versions, c, at, top, needs) });
  }
  return { top, needs, plans };
}

/** The `Migrations` type's versions, each with its fields' hooks; `param` names the resource in their signatures. */
export function migrationsOf(versions: readonly string[], c: CollectionIR, hooks: readonly HookNeed[], resource: Type, param: string): MigrationView[] {
  return versions
    .filter((v) => hooks.some((h) => h.version === v))
    .map((version) => ({
      version,
      key: printKey(version),
      collection: c.name,
      fields: hooks
        .filter((h) => h.version === version)
        .map((h) => ({ key: h.field, doc: hookDoc(versions, h), members: t.lit(hookMembers(versions, c, h, resource, param)) })),
    }));
}
