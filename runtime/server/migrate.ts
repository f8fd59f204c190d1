/**
 * Migrations between versions: finds the hooks a user passed for changes the version markers cannot
 * express, and compiles each route's up plan (older request -> newest) and down plan (newest -> older answer).
 */
import type { z } from "zod";
import { isFn, isRecord, type AnyFn } from "./guards.js";
import type {
  ApiSpec,
  DownStep,
  NestedDown,
  RouteSpec,
  UpPlan,
} from "./spec.js";

/** The resolved hooks by id (`<version>.<collection>.<field>`), each member bound to its object. */
export type Hooks = ReadonlyMap<string, Readonly<Record<string, AnyFn>>>;

/** Finds every hook the collections need in `migrations`; a missing one is a startup error naming all of them. */
export function resolveHooks(spec: ApiSpec, migrations: unknown): Hooks {
  const found = new Map<string, Record<string, AnyFn>>();
  const missing: string[] = [];
  const needed = new Map(
    spec.versions.flatMap((v) =>
      v.routes.flatMap((r) =>
        r.collection.hooks.map((h) => [h.id, h] as const),
      ),
    ),
  );
  for (const hook of [...needed.values()].sort((a, b) =>
    a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  )) {
    let node: unknown = migrations;
    for (const part of hook.id.split("."))
      node = isRecord(node) ? node[part] : undefined;
    const members: Record<string, AnyFn> = {};
    for (const member of hook.members) {
      const fn = isRecord(node) ? node[member] : undefined;
      if (isFn(fn)) members[member] = fn.bind(node);
      else missing.push(`  migrations.${hook.id}.${member}(): ${hook.why}`);
    }
    found.set(hook.id, members);
  }
  if (missing.length > 0)
    throw new Error(
      `register${spec.name}Api: options.migrations lacks conversions the version markers cannot express:\n${missing.join("\n")}`,
    );
  return found;
}

const cloneValue = (value: unknown): unknown =>
  typeof value === "object" && value !== null ? structuredClone(value) : value;

/** Applies `fn` to an object, or to each object of a (nested) array; other values (null) pass through. */
const eachObject = (
  fn: (o: Record<string, unknown>) => Record<string, unknown>,
) => {
  const apply = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(apply)
      : isRecord(value)
        ? fn(value)
        : value;
  return apply;
};

/** Compiles an up plan: a request body (or list query) of an older version to the newest names and types. */
export function compileUp(
  plan: UpPlan,
  hooks: Hooks,
): (
  input: Record<string, unknown>,
  complete: boolean,
) => Record<string, unknown> {
  const drop = new Set(plan.drop);
  const renames = new Map(Object.entries(plan.renames ?? {}));
  const convert = new Map(
    Object.entries(plan.hooks ?? {}).map(([key, ids]) => [
      key,
      ids.map((id) => hooks.get(id)!["up"]!),
    ]),
  );
  // A nested object arrives whole (its request schema applies its defaults), so it always takes its fills.
  const nested = new Map(
    Object.entries(plan.nested ?? {}).map(([key, p]) => {
      const migrate = compileUp(p, hooks);
      return [key, eachObject((o) => migrate(o, true))] as const;
    }),
  );
  const fill = Object.entries(plan.fill ?? {});
  return (input, complete) => {
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(input)) {
      if (drop.has(name)) continue;
      const key = renames.get(name) ?? name;
      let value = input[name];
      const steps = convert.get(key);
      if (steps && value !== undefined)
        for (const step of steps) value = step(value);
      const migrate = nested.get(key);
      if (migrate) value = migrate(value);
      out[key] = value;
    }
    // Only complete bodies (create, replace) take defaults; a patch leaves absent fields alone.
    if (complete)
      for (const [key, value] of fill)
        if (out[key] === undefined) out[key] = cloneValue(value);
    return out;
  };
}

/** Enum values an older version lacks shown as their fallbacks, in a value or in each item of (nested) arrays. */
function showValues(
  values: Readonly<Record<string, string>>,
): (value: unknown) => unknown {
  const apply = (value: unknown): unknown =>
    typeof value === "string"
      ? Object.hasOwn(values, value)
        ? values[value]
        : value
      : Array.isArray(value)
        ? value.map(apply)
        : value;
  return apply;
}

/** Compiles the steps of `names` (an older version's fields, in order) from the newest fields. */
function compileFields(
  names: readonly string[],
  down: Readonly<Record<string, DownStep>>,
  hooks: Hooks,
): (resource: Record<string, unknown>) => Record<string, unknown> {
  const steps = names.map((name): ((r: Record<string, unknown>) => unknown) => {
    // Own keys only: a field may be called `constructor`.
    const step = Object.hasOwn(down, name) ? down[name] : undefined;
    if (step === undefined) return (r) => r[name];
    if ("fallback" in step) return () => cloneValue(step.fallback);
    if ("hook" in step) return hooks.get(step.hook)!["value"]!;
    const key = step.key;
    const convert = (step.hooks ?? []).map((id) => hooks.get(id)!["down"]!);
    const fill =
      step.whenMissing === undefined
        ? undefined
        : hooks.get(step.whenMissing)!["whenMissing"]!;
    const nested =
      step.nested === undefined ? undefined : compileNested(step.nested, hooks);
    const shown =
      step.values === undefined ? undefined : showValues(step.values);
    return (r) => {
      let value = r[key];
      if (value === undefined) return fill ? fill(r) : undefined;
      // The nested plan leads to the last type change; the hooks convert from there.
      if (nested) value = nested(value);
      for (const c of convert) value = c(value);
      return shown ? shown(value) : value;
    };
  });
  return (resource) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const value = steps[i]!(resource);
      if (value !== undefined) out[names[i]!] = value;
    }
    return out;
  };
}

function compileNested(
  plan: NestedDown,
  hooks: Hooks,
): (value: unknown) => unknown {
  return eachObject(compileFields(plan.fields, plan.down ?? {}, hooks));
}

/** Compiles a down plan: a resource of the newest version to the fields (the response schema's keys) and names of an older one. */
export function compileDown(
  route: RouteSpec,
  hooks: Hooks,
): (resource: Record<string, unknown>) => Record<string, unknown> {
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
