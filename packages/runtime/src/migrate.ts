/**
 * Migrations between versions: finds the hooks a user passed for changes the version markers cannot
 * express, and compiles each route's up plan (older request -> newest) and down plan (newest -> older answer).
 */
import type { z } from 'zod';
import { isFn, isRecord, type AnyFn } from './guards.js';
import type { Reader, Readers } from './json-text.js';
import type { MountedSpec, DownStep, NestedDown, RouteSpec, UpPlan } from './spec.js';

/** The resolved hooks by id (`<version>.<collection>.<field>`), each member bound to its object. */
export type Hooks = ReadonlyMap<string, Readonly<Record<string, AnyFn>>>;

/** Finds every hook the collections need in `migrations`; a missing one is a startup error naming all of them. */
export function resolveHooks(spec: MountedSpec, migrations: unknown): Hooks {
  const found = new Map<string, Record<string, AnyFn>>();
  const missing: string[] = [];
  const needed = new Map(spec.versions.flatMap((v) => v.routes.flatMap((r) => r.collection.hooks.map((h) => [h.id, h] as const))));
  for (const hook of [...needed.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    let node: unknown = migrations;
    for (const part of hook.id.split('.')) node = isRecord(node) ? node[part] : undefined;
    const members: Record<string, AnyFn> = {};
    for (const member of hook.members) {
      const fn = isRecord(node) ? node[member] : undefined;
      if (isFn(fn)) members[member] = fn.bind(node);
      else missing.push(`  migrations.${hook.id}.${member}(): ${hook.why}`);
    }
    found.set(hook.id, members);
  }
  if (missing.length > 0)
    throw new Error(`register${spec.name}Api: options.migrations lacks conversions the version markers cannot express:\n${missing.join('\n')}`);
  return found;
}

const cloneValue = (value: unknown): unknown => (typeof value === 'object' && value !== null ? structuredClone(value) : value);

/** Applies `fn` to an object, or to each object of a (nested) array; other values (null) pass through. */
const eachObject = (fn: (o: Record<string, unknown>) => Record<string, unknown>) => {
  const apply = (value: unknown): unknown => (Array.isArray(value) ? value.map(apply) : isRecord(value) ? fn(value) : value);
  return apply;
};

/** What becomes of one key of an older version's request: dropped, or set under its newest name (converted). */
type UpStep = null | {
  readonly key: string;
  readonly convert: readonly AnyFn[];
  readonly migrate: ((value: unknown) => unknown) | undefined;
};

/** Compiles an up plan: a request body (or list query) of an older version to the newest names and types. */
export function compileUp(plan: UpPlan, hooks: Hooks): (input: Record<string, unknown>, complete: boolean) => Record<string, unknown> {
  // One lookup per key of the request: a key the plan does not name is copied as it is.
  const steps = new Map<string, UpStep>();
  const stepOf = (name: string): Exclude<UpStep, null> => {
    const found = steps.get(name);
    if (found) return found;
    const made = { key: name, convert: [], migrate: undefined };
    steps.set(name, made);
    return made;
  };
  const renames = plan.renames ?? {};
  const keyOf = (name: string): string => (Object.hasOwn(renames, name) ? renames[name]! : name);
  // The request keys that arrive as the newest key `key` (conversions are keyed by the newest name): its
  // old names, and itself unless it is renamed away.
  const namesOf = (key: string): string[] => [...Object.keys(renames).filter((n) => renames[n] === key), ...(Object.hasOwn(renames, key) ? [] : [key])];
  for (const name of Object.keys(renames)) steps.set(name, { key: renames[name]!, convert: [], migrate: undefined });
  for (const [key, ids] of Object.entries(plan.hooks ?? {}))
    for (const name of namesOf(key)) {
      const step = stepOf(name);
      steps.set(name, {
        ...step,
        key: keyOf(name),
        convert: ids.map((id) => hooks.get(id)!['up']!),
      });
    }
  // A nested object arrives whole (its request schema applies its defaults), so it always takes its fills.
  for (const [key, p] of Object.entries(plan.nested ?? {})) {
    const migrate = compileUp(p, hooks);
    const each = eachObject((o) => migrate(o, true));
    for (const name of namesOf(key)) steps.set(name, { ...stepOf(name), key: keyOf(name), migrate: each });
  }
  for (const name of plan.drop ?? []) steps.set(name, null);
  const fill = Object.entries(plan.fill ?? {});
  return (input, complete) => {
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(input)) {
      const step = steps.get(name);
      if (step === undefined) {
        out[name] = input[name];
        continue;
      }
      if (step === null) continue;
      let value = input[name];
      if (value !== undefined) for (const convert of step.convert) value = convert(value);
      if (step.migrate) value = step.migrate(value);
      out[step.key] = value;
    }
    // Only complete bodies (create, replace) take defaults; a patch leaves absent fields alone.
    if (complete) for (const [key, value] of fill) if (out[key] === undefined) out[key] = cloneValue(value);
    return out;
  };
}

/** Enum values an older version lacks shown as their fallbacks, in a value or in each item of (nested) arrays. */
function showValues(values: Readonly<Record<string, string>>): (value: unknown) => unknown {
  const apply = (value: unknown): unknown =>
    typeof value === 'string' ? (Object.hasOwn(values, value) ? values[value] : value) : Array.isArray(value) ? value.map(apply) : value;
  return apply;
}

/** The reader of each of `names` (an older version's fields, in order) from the newest fields. */
function readersOf(names: readonly string[], down: Readonly<Record<string, DownStep>>, hooks: Hooks): Reader[] {
  return names.map((name): Reader => {
    // Own keys only: a field may be called `constructor`.
    const step = Object.hasOwn(down, name) ? down[name] : undefined;
    if (step === undefined) return (r) => r[name];
    if ('fallback' in step) return () => cloneValue(step.fallback);
    if ('hook' in step) return hooks.get(step.hook)!['value']! as Reader;
    const key = step.key;
    const convert = (step.hooks ?? []).map((id) => hooks.get(id)!['down']!);
    const fill = step.whenMissing === undefined ? undefined : hooks.get(step.whenMissing)!['whenMissing']!;
    const nested = step.nested === undefined ? undefined : compileNested(step.nested, hooks);
    const shown = step.values === undefined ? undefined : showValues(step.values);
    if (!fill && !nested && convert.length === 0 && !shown) return (r) => r[key];
    return (r) => {
      let value = r[key];
      if (value === undefined) return fill ? fill(r) : undefined;
      // The nested plan leads to the last type change; the hooks convert from there.
      if (nested) value = nested(value);
      for (const c of convert) value = c(value);
      return shown ? shown(value) : value;
    };
  });
}

/** Compiles the steps of `names` (an older version's fields, in order) from the newest fields. */
function compileFields(
  names: readonly string[],
  down: Readonly<Record<string, DownStep>>,
  hooks: Hooks,
): (resource: Record<string, unknown>) => Record<string, unknown> {
  const steps = readersOf(names, down, hooks);
  return (resource) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const value = steps[i]!(resource);
      if (value !== undefined) out[names[i]!] = value;
    }
    return out;
  };
}

/** Whether a step (or a nested plan inside it) calls a migration hook, which is user code. */
function callsHooks(step: DownStep): boolean {
  if ('fallback' in step) return false;
  if ('hook' in step) return true;
  if ((step.hooks ?? []).length > 0 || step.whenMissing !== undefined) return true;
  return Object.values(step.nested?.down ?? {}).some(callsHooks);
}

/**
 * The reader of each field of a route's response schema from a newest resource: what {@link compileDown}
 * sets each key to (left out where a reader gives undefined), so that an answer can be written from the
 * newest resource without building the older one first. Null when a step calls a migration hook: hooks run
 * once per answer, and a failed check builds the older resource to let zod word the failure.
 */
export function compileDownReaders(route: RouteSpec, hooks: Hooks): Readers | null {
  if (Object.values(route.down).some(callsHooks)) return null;
  const names = Object.keys(route.schemas.response.shape);
  const readers = readersOf(names, route.down, hooks);
  return new Map(names.map((name, i) => [name, readers[i]!]));
}

function compileNested(plan: NestedDown, hooks: Hooks): (value: unknown) => unknown {
  return eachObject(compileFields(plan.fields, plan.down ?? {}, hooks));
}

/** Compiles a down plan: a resource of the newest version to the fields (the response schema's keys) and names of an older one. */
export function compileDown(route: RouteSpec, hooks: Hooks): (resource: Record<string, unknown>) => Record<string, unknown> {
  return compileObjectDown(route.schemas.response, route.down, hooks);
}

/** Compiles a down plan into the keys of `schema` (an event payload's, or a response's). */
export function compileObjectDown(
  schema: z.ZodObject,
  down: Readonly<Record<string, DownStep>>,
  hooks: Hooks,
): (resource: Record<string, unknown>) => Record<string, unknown> {
  return compileFields(Object.keys(schema.shape), down, hooks);
}
