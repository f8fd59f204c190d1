/**
 * @module How one collection's requests and responses move between a version and the newest version
 * that collection has: renames, dropped and defaulted fields, fallbacks, and the hooks a user must write
 * for what markers cannot express (a type change, a removal without fallback, a field made optional).
 */
import type { CollectionIR, FieldIR } from '../../model/ir.ts';
import { existsAt, nameAt, shapeAt } from '../../model/project.ts';

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

/** The up plan of the runtime (`UpPlan` in the generated `runtime.ts`). */
export interface UpPlan {
  readonly renames: Readonly<Record<string, string>>;
  readonly drop: readonly string[];
  readonly hooks: Readonly<Record<string, readonly string[]>>;
  readonly fill: Readonly<Record<string, unknown>>;
}

/** An up plan as generated: its empty parts left out (the runtime reads a missing part as empty). */
export type CompactUpPlan = { readonly [K in keyof UpPlan]?: UpPlan[K] };

/**
 * How one response field of a version is made when it is not a copy of the same newest key (`DownStep` in
 * the generated `runtime.ts`). Plain copies are not listed: the runtime takes the response schema's keys.
 */
export type DownStep =
  | { readonly key: string; readonly hooks?: readonly string[]; readonly whenMissing?: string }
  | { readonly fallback: unknown }
  | { readonly hook: string };

/** A down plan: the response fields that are not plain copies, by the version's name, in field order. */
export type DownPlan = Readonly<Record<string, DownStep>>;

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

/** Migrates a request (body or list query) of version index `at` up to version index `top`. */
export function planUp(versions: readonly string[], c: CollectionIR, at: number, top: number, needs: HookNeeds): UpPlan {
  const renames: Record<string, string> = {};
  const drop: string[] = [];
  const hooks: Record<string, readonly string[]> = {};
  const fill: Record<string, unknown> = {};
  for (const f of c.fields) {
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
      const changes = typeChangesBetween(versions, f, at, top);
      // A read-only field never arrives in a request; converting it up is never needed.
      if (changes.length > 0 && !shape.readOnly) hooks[newName] = changes.map((v) => needs.use(v, c.name, f.name, 'typeChange', 'up'));
    }
    // A default the older version does not apply itself (the field is new, or was optional there).
    const defaultedHere = here && shapeAt(versions, at, f).default !== undefined;
    if (there && !defaultedHere) {
      const newest = shapeAt(versions, top, f);
      if (newest.default && !newest.readOnly) fill[nameAt(versions, top, f.name, f.renames)] = newest.default.value;
    }
  }
  return { renames, drop, hooks, fill };
}

/** The plan without its empty parts; null when nothing is left (the version's requests already have the newest shape). */
export function compactUp(plan: UpPlan): CompactUpPlan | null {
  const out: { -readonly [K in keyof UpPlan]?: UpPlan[K] } = {};
  if (Object.keys(plan.renames).length > 0) out.renames = plan.renames;
  if (plan.drop.length > 0) out.drop = plan.drop;
  if (Object.keys(plan.hooks).length > 0) out.hooks = plan.hooks;
  if (Object.keys(plan.fill).length > 0) out.fill = plan.fill;
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * Migrates a resource of version index `top` down to the response of version index `at`. Lists only the
 * fields that are not plain copies; the response's fields are the readable fields of `at`, in field order,
 * which is the key order of the version's response schema.
 */
export function planDown(versions: readonly string[], c: CollectionIR, at: number, top: number, needs: HookNeeds): DownPlan {
  const steps: Record<string, DownStep> = {};
  for (const f of c.fields) {
    if (!exists(versions, at, f)) continue;
    const shape = shapeAt(versions, at, f);
    if (shape.writeOnly) continue;
    const name = nameAt(versions, at, f.name, f.renames);
    if (!exists(versions, top, f)) {
      const removed = f.removedIn!;
      steps[name] = removed.fallback ? { fallback: removed.fallback.value } : { hook: needs.use(removed.version, c.name, f.name, 'removed', 'value') };
      continue;
    }
    const key = nameAt(versions, top, f.name, f.renames);
    const hooks = typeChangesBetween(versions, f, at, top)
      .reverse()
      .map((v) => needs.use(v, c.name, f.name, 'typeChange', 'down'));
    const newest = shapeAt(versions, top, f);
    const requiredHere = !shape.optional || shape.default !== undefined;
    const mayBeMissing = newest.optional && newest.default === undefined;
    // The latest point where it became optional is where a value must be made up for older versions.
    const madeOptional = f.optionality.filter((o) => o.to === 'optional' && versions.indexOf(o.version) > at && versions.indexOf(o.version) <= top).pop();
    const whenMissing = requiredHere && mayBeMissing && madeOptional ? needs.use(madeOptional.version, c.name, f.name, 'madeOptional', 'whenMissing') : undefined;
    if (name !== key || hooks.length > 0 || whenMissing !== undefined)
      steps[name] = { key, ...(hooks.length > 0 ? { hooks } : {}), ...(whenMissing ? { whenMissing } : {}) };
  }
  return steps;
}
