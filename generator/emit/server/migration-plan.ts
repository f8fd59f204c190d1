/**
 * @module How one collection's requests and responses move between a version and the newest version
 * that collection has: renames, dropped and defaulted fields, fallbacks, and the hooks a user must write
 * for what markers cannot express (a type change, a removal without fallback, a field made optional).
 */
import type { DownStep, NestedDown, RouteSpec, UpPlan as RuntimeUpPlan } from '@restgen/runtime/contract';
import type { CollectionIR, FieldIR, TypeIR } from '../../model/ir.ts';
import { enumValueShownAt, existsAt, nameAt, shapeAt } from '../../model/project.ts';

export type { DownStep, NestedDown };

/** A hook the user supplies, identified as `<version>.<collection>.<field>` (newest names). */
export interface HookNeed {
  readonly id: string;
  readonly version: string;
  readonly collection: string;
  readonly field: string;
  readonly kind: 'typeChange' | 'removed' | 'madeOptional';
  /** The members the plans call: `up`/`down` (type change), `value` (removed), `whenMissing` (made optional). */
  readonly members: ReadonlySet<'up' | 'down' | 'value' | 'whenMissing'>;
}

/** An up plan while it is built: every part present (the runtime's `UpPlan`, from `runtime/server/spec.ts`). */
export type UpPlan = Required<RuntimeUpPlan>;

/** An up plan as generated: its empty parts left out (the runtime reads a missing part as empty). */
export type CompactUpPlan = RuntimeUpPlan;

/** A down plan: the response fields that are not plain copies, by the version's name, in field order. */
export type DownPlan = RouteSpec['down'];

/** Collects the hooks plans refer to, with the members each needs. */
export class HookNeeds {
  readonly #needs = new Map<string, HookNeed & { members: Set<'up' | 'down' | 'value' | 'whenMissing'> }>();

  /** Records that `member` of the hook for `field` at `version` is called; returns the hook id. */
  use(version: string, collection: string, field: string, kind: HookNeed['kind'], member: 'up' | 'down' | 'value' | 'whenMissing'): string {
    const id = `${version}.${collection}.${field}`;
    const need = this.#needs.get(id) ?? { id, version, collection, field, kind, members: new Set() };
    need.members.add(member);
    this.#needs.set(id, need);
    return id;
  }

  /** Every hook, sorted by id. */
  list(): HookNeed[] {
    return [...this.#needs.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}

/** Versions strictly after `from` up to and including `to` at which `field` changed type, oldest first. */
function typeChangesBetween(versions: readonly string[], field: FieldIR, from: number, to: number): string[] {
  return field.typeChanges.map((c) => c.version).filter((v) => versions.indexOf(v) > from && versions.indexOf(v) <= to);
}

const exists = (versions: readonly string[], at: number, f: FieldIR) => existsAt(versions, at, f.addedIn, f.removedIn?.version);

/** The fields of the object a type holds, itself or as the items of (nested) arrays; null for other types. */
function objectFields(type: FieldIR['type']): readonly FieldIR[] | null {
  if (type.kind === 'array') return objectFields(type.of);
  return type.kind === 'object' ? type.fields : null;
}

/**
 * The version index from which `field` keeps its newest type up to `top`: after its last type change in
 * (`at`, `top`], else `at`. Nested plans migrate between it and `top`; type-change hooks cover the rest.
 */
function sameTypeFrom(versions: readonly string[], field: FieldIR, at: number, top: number): number {
  const changes = typeChangesBetween(versions, field, at, top);
  return changes.length > 0 ? versions.indexOf(changes[changes.length - 1]!) : at;
}

/** Type-change hook ids of a field, or none inside nested objects (check RG164 keeps those out). */
type HookIds = (f: FieldIR, changes: readonly string[], member: 'up' | 'down') => string[];

/** Migrates fields of version index `at` up to `top`; `hookIds` names the type-change hooks a field needs. */
export function planFieldsUp(versions: readonly string[], fields: readonly FieldIR[], at: number, top: number, hookIds: HookIds): UpPlan {
  const renames: Record<string, string> = {};
  const drop: string[] = [];
  const hooks: Record<string, readonly string[]> = {};
  const fill: Record<string, unknown> = {};
  const nested: Record<string, CompactUpPlan> = {};
  for (const f of fields) {
    const here = exists(versions, at, f);
    const there = exists(versions, top, f);
    if (here) {
      const name = nameAt(versions, at, f.name, f.renames);
      if (!there) {
        drop.push(name);
        continue;
      }
      const newName = nameAt(versions, top, f.name, f.renames);
      if (name !== newName) renames[name] = newName;
      const shape = shapeAt(versions, at, f);
      // A read-only field never arrives in a request; converting it up is never needed.
      if (!shape.readOnly) {
        const ids = hookIds(f, typeChangesBetween(versions, f, at, top), 'up');
        if (ids.length > 0) hooks[newName] = ids;
        const inner = objectFields(shapeAt(versions, top, f).type);
        const plan = inner && compactUp(planFieldsUp(versions, inner, sameTypeFrom(versions, f, at, top), top, () => []));
        if (plan) nested[newName] = plan;
      }
    }
    // A default the older version does not apply itself (the field is new, or was optional there).
    const defaultedHere = here && shapeAt(versions, at, f).default !== undefined;
    if (there && !defaultedHere) {
      const newest = shapeAt(versions, top, f);
      if (newest.default && !newest.readOnly) fill[nameAt(versions, top, f.name, f.renames)] = newest.default.value;
      // Made required later with a fallback (issue #12): what a create of this version that left it out gets.
      else if (here && !newest.readOnly && shapeAt(versions, at, f).optional) {
        const made = f.optionality
          .filter((o) => o.to === 'required' && o.fallback && versions.indexOf(o.version) > at && versions.indexOf(o.version) <= top)
          .pop();
        if (made?.fallback) fill[nameAt(versions, top, f.name, f.renames)] = made.fallback.value;
      }
    }
  }
  return { renames, drop, hooks, fill, nested };
}

/** Migrates a request (body or list query) of version index `at` up to version index `top`. */
export function planUp(versions: readonly string[], c: CollectionIR, at: number, top: number, needs: HookNeeds): UpPlan {
  return planFieldsUp(versions, c.fields, at, top, (f, changes) => changes.map((v) => needs.use(v, c.name, f.name, 'typeChange', 'up')));
}

/** The plan without its empty parts; null when nothing is left (the version's requests already have the newest shape). */
export function compactUp(plan: UpPlan): CompactUpPlan | null {
  const out: { -readonly [K in keyof UpPlan]?: UpPlan[K] } = {};
  if (Object.keys(plan.renames).length > 0) out.renames = plan.renames;
  if (plan.drop.length > 0) out.drop = plan.drop;
  if (Object.keys(plan.hooks).length > 0) out.hooks = plan.hooks;
  if (Object.keys(plan.fill).length > 0) out.fill = plan.fill;
  if (Object.keys(plan.nested).length > 0) out.nested = plan.nested;
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * The enum values the newest type of a field has and version index `at` does not, each with the value
 * `at` shows instead (`valueAddedIn`); empty when the field is no enum (or array of enums).
 */
function valuesShown(versions: readonly string[], at: number, type: TypeIR): Record<string, string> {
  if (type.kind === 'array') return valuesShown(versions, at, type.of);
  if (type.kind !== 'enum') return {};
  const out: Record<string, string> = {};
  for (const value of type.values) {
    const shown = enumValueShownAt(versions, at, type, value);
    if (shown !== value) out[value] = shown;
  }
  return out;
}

/** The hooks a down plan may call; nested objects get none (check RG164 keeps changes that need one out). */
interface DownHooks {
  readonly typeChange: HookIds;
  readonly removed: (f: FieldIR) => string;
  readonly madeOptional: (f: FieldIR, version: string) => string;
}

/** The nested down plan of an object field, or undefined when the older objects are plain copies. */
function nestedDown(versions: readonly string[], f: FieldIR, at: number, top: number): NestedDown | undefined {
  const inner = objectFields(shapeAt(versions, top, f).type);
  if (!inner) return undefined;
  const from = sameTypeFrom(versions, f, at, top);
  const readable = (i: number) => inner.filter((x) => exists(versions, i, x) && !shapeAt(versions, i, x).writeOnly);
  const fields = readable(from).map((x) => nameAt(versions, from, x.name, x.renames));
  const down = planFieldsDown(versions, inner, from, top, null);
  const same =
    Object.keys(down).length === 0 &&
    fields.join('\0') ===
      readable(top)
        .map((x) => x.name)
        .join('\0');
  return same ? undefined : { fields, ...(Object.keys(down).length > 0 ? { down } : {}) };
}

/** The down plan of `fields` from version index `top` to `at` (`hooks` null: no hooks; event payloads need none). */
export function planFieldsDown(versions: readonly string[], fields: readonly FieldIR[], at: number, top: number, hooks: DownHooks | null): DownPlan {
  const steps: Record<string, DownStep> = {};
  for (const f of fields) {
    if (!exists(versions, at, f)) continue;
    const shape = shapeAt(versions, at, f);
    if (shape.writeOnly) continue;
    const name = nameAt(versions, at, f.name, f.renames);
    if (!exists(versions, top, f)) {
      const removed = f.removedIn!;
      if (removed.fallback) steps[name] = { fallback: removed.fallback.value };
      // Inside an object a removed field without fallback is optional (RG154): older versions answer none.
      else if (hooks) steps[name] = { hook: hooks.removed(f) };
      continue;
    }
    const key = nameAt(versions, top, f.name, f.renames);
    const ids = hooks ? hooks.typeChange(f, typeChangesBetween(versions, f, at, top).reverse(), 'down') : [];
    const newest = shapeAt(versions, top, f);
    const requiredHere = !shape.optional || shape.default !== undefined;
    const mayBeMissing = newest.optional && newest.default === undefined;
    // The latest point where it became optional is where a value must be made up for older versions.
    const madeOptional = f.optionality.filter((o) => o.to === 'optional' && versions.indexOf(o.version) > at && versions.indexOf(o.version) <= top).pop();
    const whenMissing = hooks && requiredHere && mayBeMissing && madeOptional ? hooks.madeOptional(f, madeOptional.version) : undefined;
    const nested = nestedDown(versions, f, at, top);
    // Values added later show as their fallbacks, unless a type change in between converts with a hook.
    const values = typeChangesBetween(versions, f, at, top).length === 0 ? valuesShown(versions, at, newest.type) : {};
    const mapped = Object.keys(values).length > 0;
    if (name !== key || ids.length > 0 || whenMissing !== undefined || nested || mapped)
      steps[name] = {
        key,
        ...(ids.length > 0 ? { hooks: ids } : {}),
        ...(whenMissing ? { whenMissing } : {}),
        ...(nested ? { nested } : {}),
        ...(mapped ? { values } : {}),
      };
  }
  return steps;
}

/**
 * Migrates a resource of version index `top` down to the response of version index `at`. Lists only the
 * fields that are not plain copies; the response's fields are the readable fields of `at`, in field order,
 * which is the key order of the version's response schema.
 */
export function planDown(versions: readonly string[], c: CollectionIR, at: number, top: number, needs: HookNeeds): DownPlan {
  return planFieldsDown(versions, c.fields, at, top, {
    typeChange: (f, changes) => changes.map((v) => needs.use(v, c.name, f.name, 'typeChange', 'down')),
    removed: (f) => needs.use(f.removedIn!.version, c.name, f.name, 'removed', 'value'),
    madeOptional: (f, version) => needs.use(version, c.name, f.name, 'madeOptional', 'whenMissing'),
  });
}
