/**
 * @module The view model of a collection's server module, `server/collections/<c>.ts`: its settings and
 * hooks, its route in each version (schemas, up and down migration plans), its in-memory store spec, and its
 * handler and migration types. A changed field changes only this module, so only it is reformatted. (One
 * module for every version: a field change usually changes the plans of every older version anyway, and
 * a module per version tripled the file headers and imports the formatter reads.)
 */
import type { Assign, CollectionSpec, LifecycleSpec, LimitSpec, MemorySpec } from '@restgen/runtime/contract';
import type { ApiIR, CollectionAt, CollectionIR, FieldAt, OperationName, RateLimitIR, TransitionIR } from '../../model/ir.ts';
import { OPERATIONS } from '../../model/ir.ts';
import { kindOf, sampleOf } from '../../model/kinds.ts';
import { existsAt, shapeAt } from '../../model/project.ts';
import { e, t, type Expr, type Type, type TypeMember } from '../../printer/ast.ts';
import { printKey } from '../../printer/literals.ts';
import { inputTypeName } from '../zod/emit-zod.ts';
import { compactUp, planDown, planFieldsUp, planUp, HookNeeds, type HookNeed } from './migration-plan.ts';
import { valueText } from './ts-type.ts';

/** What every per-collection view needs of the API, computed once. */
export interface ServerContext {
  readonly api: ApiIR;
  /** The API's name in PascalCase (`Shop`). */
  readonly name: string;
  readonly versions: readonly string[];
  /** The collections each version has, as it sees them. */
  readonly projections: readonly { readonly collections: readonly CollectionAt[]; readonly byKey: ReadonlyMap<string, CollectionAt> }[];
  readonly hasAuth: boolean;
  /** The identifier a version's schema module is imported as (`V1`). */
  readonly alias: ReadonlyMap<string, string>;
}

/** One version's route of a collection. */
interface RouteView {
  readonly version: string;
  /** The version as a property key. */
  readonly key: string;
  /** `{ schemas, up?, down?, transitions?, ... }`: what the version has of its own (the runtime's `VersionRoute`). */
  readonly route: Expr;
}

/** The handler type of one transition, for the `Transitions` interface. */
interface TransitionTypeView {
  readonly name: string;
  readonly doc: string;
  /** `$.TransitionHandler<from, input, to>`. */
  readonly handler: Type;
}

interface HookFieldView {
  readonly key: string;
  readonly doc: string;
  /** The hook's member signatures. */
  readonly members: Type;
}

/** The view of `server/collections/<collection>.ts`. */
export interface CollectionFileView {
  readonly key: string;
  readonly doc: string;
  readonly top: string;
  readonly imports: readonly { readonly alias: string; readonly path: string }[];
  /** `$.CollectionRoutes<"v1" | "v2">`: the versions the collection exists in. */
  readonly routesType: Type;
  readonly routes: readonly RouteView[];
  /** The runtime's `CollectionRoutes`: what the versions share once, then each version's own, one per line. */
  readonly routesObject: Expr;
  /** The runtime's `CollectionSpec`, as a literal in the module. */
  readonly spec: Expr;
  /** The runtime's `MemorySpec`, as a literal in the module. */
  readonly memory: Expr;
  /** The newest resource type (`V3.Order`). */
  readonly resource: Type;
  readonly handlersDoc: string;
  /** `Pick<$.CollectionHandlers<...>, ops>`, `& Transitions` when the collection has a lifecycle. */
  readonly handlers: Type;
  readonly migrations: readonly { readonly version: string; readonly key: string; readonly collection: string; readonly fields: readonly HookFieldView[] }[];
  readonly hasMigrations: boolean;
  /** The handler types of the lifecycle's transitions (`Transitions` is declared when there are any). */
  readonly transitions: readonly TransitionTypeView[];
}

/** One collection's module and what the assembling modules need to know of it. */
export interface CollectionFiles {
  readonly key: string;
  readonly collection: CollectionFileView;
  /** The versions the collection exists in, oldest first. */
  readonly versions: readonly string[];
  /** Whether `Migrations` is exported (some version change needs a hook). */
  readonly hasMigrations: boolean;
  /** Whether some operation needs a credential. */
  readonly needsCredentials: boolean;
  /** Whether the module declares `Transitions` (the collection has a lifecycle with transitions). */
  readonly hasTransitions: boolean;
  /** The built-in collection it is (its handlers come with the runtime), or null for the API's own. */
  readonly builtin: CollectionIR['builtin'] | null;
}

const lowerFirst = (s: string) => s[0]!.toLowerCase() + s.slice(1);

/** Index of the newest version a collection exists in (its handlers are typed with that version). */
function topOf(versions: readonly string[], c: CollectionIR): number {
  let top = -1;
  for (let i = 0; i < versions.length; i++) if (existsAt(versions, i, c.addedIn, c.removedIn)) top = i;
  return top;
}

function idOf(c: CollectionAt): string {
  return c.fields.find((f) => f.type.kind === 'id')?.name ?? 'id';
}

function schemasOf(alias: string, c: CollectionAt): Expr {
  const ops = new Set(c.operations);
  const name = `${alias}.${c.typeName}`;
  const parts = [e.prop('response', e.path(name))];
  if (ops.has('create')) parts.push(e.prop('create', e.path(`${name}Create`)));
  if (ops.has('replace')) parts.push(e.prop('replace', e.path(`${name}Replace`)));
  if (ops.has('update')) parts.push(e.prop('patch', e.path(`${name}Patch`)));
  if (ops.has('list')) parts.push(e.prop('query', e.path(`${name}ListQuery`)));
  return e.obj(parts);
}

const limitOf = (r: RateLimitIR | undefined): LimitSpec | null => (r ? { max: r.limit, windowMs: r.windowMs } : null);

/** The runtime's lifecycle spec of a collection: newest state names, transitions of every version. */
function lifecycleSpec(c: CollectionIR): LifecycleSpec | null {
  const lc = c.lifecycle;
  if (!lc) return null;
  const transitions = Object.fromEntries(
    lc.transitions.map((t) => [t.name, { from: t.from, to: t.to, scopes: t.scopes ?? c.scopes.write, rateLimit: limitOf(t.rateLimit) }]),
  );
  return { field: lc.field, initial: lc.initial, transitions };
}

/** The type of a resource in some states: `V3.Order & { readonly status: "open" | "paid" }`. */
const inStates = (resource: Type, field: string, states: readonly string[]): Type =>
  t.inter([resource, t.lit([t.prop(field, t.union(states.map(t.str)), false, true)])]);

/** The handler type of a transition: the resource in its `from` states, its input (newest version it exists in), the resource in its `to` state. */
function transitionType(ctx: ServerContext, c: CollectionIR, tr: TransitionIR, resource: Type, field: string): TransitionTypeView {
  const { versions, projections } = ctx;
  let last = versions.length - 1;
  while (last > 0 && !(existsAt(versions, last, tr.addedIn, tr.removedIn) && projections[last]!.byKey.has(c.name))) last--;
  const at = projections[last]!.byKey.get(c.name)!;
  const input = t.ref('z.output', [t.query(`${ctx.alias.get(versions[last]!)!}.${inputTypeName(at, tr.name)}`)]);
  const doc = [`\`POST /${at.path}/{id}:${tr.name}\`: ${tr.from.join(', ')} → ${tr.to}.`, tr.description ?? ''].filter(Boolean).join(' ');
  return { name: tr.name, doc, handler: t.ref('$.TransitionHandler', [inStates(resource, field, tr.from), input, inStates(resource, field, [tr.to])]) };
}

/** The schema that checks an operation's input, by the suffix of its name (`OrderCreate`). */
const SCHEMA_OF = { create: 'Create', replace: 'Replace', update: 'Patch', list: 'ListQuery' } as const;

/** How the in-memory store assigns a required read-only field: example first, then by type. */
function assignOf(f: FieldAt, initial?: string): Assign | null {
  if (initial !== undefined) return [f.name, 'value', initial];
  if (f.optional) return null;
  if (f.example) return [f.name, 'value', f.example.value];
  const assigned = kindOf(f.type).assigned;
  if (assigned !== null) return [f.name, assigned];
  return [f.name, 'value', f.nullable ? null : sampleOf(f.type)];
}

function hookDoc(versions: readonly string[], need: HookNeed): string {
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
function plansOf(
  ctx: ServerContext,
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

/** What the assembling modules need to know of one collection: its module's view left out. */
export type CollectionSummary = Omit<CollectionFiles, 'collection'>;

/** The operations that need no credential in one version: every one when the API takes none. */
const publicOpsOf = (ctx: ServerContext, cAt: CollectionAt): readonly OperationName[] => (ctx.hasAuth ? cAt.public : cAt.operations);

/**
 * What the assembling modules need of a collection, without building its module's view (the migration plans
 * are made, to learn whether it has hooks; nothing is laid out).
 */
export function summarizeCollection(ctx: ServerContext, c: CollectionIR): CollectionSummary {
  return summaryFrom(ctx, c, plansOf(ctx, c));
}

function summaryFrom(ctx: ServerContext, c: CollectionIR, { needs, plans }: ReturnType<typeof plansOf>): CollectionSummary {
  const hasMigrations = needs.list().length > 0;
  const hasTransitions = (c.lifecycle?.transitions.length ?? 0) > 0;
  const guarded = [...plans.keys()].some((at) => {
    const cAt = ctx.projections[at]!.byKey.get(c.name)!;
    return cAt.operations.some((op) => !cAt.public.includes(op));
  });
  return {
    key: c.name,
    versions: [...plans.keys()].map((at) => ctx.versions[at]!),
    hasMigrations,
    needsCredentials: ctx.hasAuth && (guarded || hasTransitions),
    hasTransitions,
    builtin: c.builtin ?? null,
  };
}

/** Builds the views of one collection's server files. */
export function buildCollectionFiles(ctx: ServerContext, c: CollectionIR): CollectionFiles {
  const { versions, projections } = ctx;
  const planned = plansOf(ctx, c);
  const { top, needs, plans } = planned;
  const imports: { alias: string; path: string }[] = [];
  const routes: RouteView[] = [];
  const newestAt = projections[top]!.byKey.get(c.name)!;
  // What every version shares is the newest version's; a version writes only what it has of its own.
  const shared = {
    path: newestAt.path,
    operations: newestAt.operations,
    public: publicOpsOf(ctx, newestAt),
    id: idOf(newestAt),
    stateField: newestAt.lifecycle?.field ?? null,
  };
  const differs = (a: unknown, b: unknown): boolean => JSON.stringify(a) !== JSON.stringify(b);
  for (let at = 0; at < versions.length; at++) {
    const cAt = projections[at]!.byKey.get(c.name);
    if (!cAt) continue;
    const version = versions[at]!;
    const alias = ctx.alias.get(version)!;
    imports.push({ alias, path: `../../${version}/${cAt.name}.js` });
    const { up, down } = plans.get(at)!;
    const own = {
      path: cAt.path,
      operations: cAt.operations,
      public: publicOpsOf(ctx, cAt),
      id: idOf(cAt),
      stateField: cAt.lifecycle?.field ?? null,
    };
    const transitions = (cAt.lifecycle?.transitions ?? []).map((tr) => {
      const ir = c.lifecycle!.transitions.find((x) => x.name === tr.name)!;
      // The newest version that offers the transition has the input its handler is typed with.
      let last = at;
      while (last + 1 <= top && existsAt(versions, last + 1, ir.addedIn, ir.removedIn)) last++;
      const trUp = last === at ? null : compactUp(planFieldsUp(versions, ir.input, at, last, () => []));
      const input = e.prop('input', e.path(`${alias}.${inputTypeName(cAt, tr.name)}`));
      return e.prop(tr.name, e.obj(trUp === null ? [input] : [input, e.prop('up', e.json(trUp))]));
    });
    routes.push({
      version,
      key: printKey(version),
      route: e.obj([
        e.prop('schemas', schemasOf(alias, cAt)),
        ...(up !== null ? [e.prop('up', e.json(up))] : []),
        ...(Object.keys(down).length > 0 ? [e.prop('down', e.json(down))] : []),
        ...(transitions.length > 0 ? [e.prop('transitions', e.obj(transitions))] : []),
        ...(['path', 'operations', 'public', 'id', 'stateField'] as const).filter((k) => differs(own[k], shared[k])).map((k) => e.prop(k, e.json(own[k]))),
      ]),
    });
  }

  const newest = projections[top]!.byKey.get(c.name)!;
  const resourceName = `${ctx.alias.get(versions[top]!)!}.${newest.typeName}`;
  const resource = t.ref(resourceName);
  const hooks = needs.list();
  const ops = OPERATIONS.filter((op) => projections.some((p) => p.byKey.get(c.name)?.operations.includes(op)));
  const hookVersions = versions.filter((v) => hooks.some((h) => h.version === v));
  const readOnly = newest.fields.filter((f) => f.readOnly || f.type.kind === 'id');
  const lifecycle = lifecycleSpec(c);
  const stateField = newest.lifecycle?.field;
  const transitions = (c.lifecycle?.transitions ?? []).map((tr) => transitionType(ctx, c, tr, resource, stateField!));
  const collection: CollectionFileView = {
    key: c.name,
    doc: `${c.name} of the ${ctx.name} API: routes, store and handler types.${c.description ? ` ${c.description}` : ''}`,
    top: versions[top]!,
    imports,
    routesType: t.ref('$.CollectionRoutes', [t.union(routes.map((r) => t.str(r.version)))]),
    routes,
    routesObject: e.obj(
      [
        e.short('collection'),
        e.prop('path', e.str(shared.path)),
        e.prop('operations', e.json(shared.operations)),
        e.prop('public', e.json(shared.public)),
        e.prop('id', e.str(shared.id)),
        ...(shared.stateField !== null ? [e.prop('stateField', e.str(shared.stateField))] : []),
        e.prop(
          'versions',
          e.obj(
            routes.map((r) => e.prop(r.version, r.route)),
            true,
          ),
        ),
      ],
      true,
    ),
    spec: e.json({
      key: c.name,
      scopes: c.scopes,
      rateLimit: limitOf(c.rateLimit),
      hooks: hooks.map((h) => ({ id: h.id, members: [...h.members].sort(), why: hookDoc(versions, h) })),
      lifecycle,
      requireIfMatch: c.requireIfMatch,
    } satisfies CollectionSpec),
    memory: e.json({
      name: c.name,
      id: idOf(newest),
      assign: readOnly.map((f) => assignOf(f, f.name === stateField ? lifecycle?.initial : undefined)).filter((a) => a !== null),
      unique: newest.fields.filter((f) => f.unique).map((f) => f.name),
      readOnly: readOnly.map((f) => f.name),
      lifecycle: lifecycle && {
        field: lifecycle.field,
        transitions: Object.fromEntries(Object.entries(lifecycle.transitions).map(([name, tr]) => [name, { from: tr.from, to: tr.to }])),
      },
    } satisfies MemorySpec),
    resource,
    handlersDoc: `${c.name}: ${c.description ? c.description + ' ' : ''}Called by every version's routes, typed with ${versions[top]}.`,
    handlers: t.inter([
      t.ref('Pick', [
        t.ref('$.CollectionHandlers', [
          resource,
          // The newest version's module holds the schema of every operation some version offers (see emit-zod.ts).
          ...(['create', 'replace', 'update', 'list'] as const).map((op) =>
            ops.includes(op) ? t.ref('z.output', [t.query(`${resourceName}${SCHEMA_OF[op]}`)]) : t.ref('never'),
          ),
        ]),
        t.union(ops.map(t.str)),
      ]),
      ...(transitions.length > 0 ? [t.ref('Transitions')] : []),
    ]),
    migrations: hookVersions.map((version) => ({
      version,
      key: printKey(version),
      collection: c.name,
      fields: hooks
        .filter((h) => h.version === version)
        .map((h) => ({ key: h.field, doc: hookDoc(versions, h), members: t.lit(hookMembers(versions, c, h, resource, lowerFirst(newest.typeName))) })),
    })),
    hasMigrations: hooks.length > 0,
    transitions,
  };
  return { ...summaryFrom(ctx, c, planned), collection };
}

declare module '../../templates/load-templates.ts' {
  /** The templates this module's views fill. */
  interface TemplateViews {
    'server/collection': CollectionFileView;
  }
}
