/**
 * @module The view model of a collection's server module, `server/collections/<c>.ts`: its settings and
 * hooks, its route in each version (schemas, up and down migration plans), its in-memory store spec, and its
 * handler and migration types. A changed field changes only this module, so only it is reformatted. (One
 * module for every version: a field change usually changes the plans of every older version anyway, and
 * a module per version tripled the file headers and imports the formatter reads.)
 */
import type { Assign, MemorySpec } from '../../../runtime/server/memory-store.ts';
import type { CollectionSpec, LifecycleSpec, LimitSpec } from '../../../runtime/server/spec.ts';
import type { ApiIR, CollectionAt, CollectionIR, FieldAt, OperationName, RateLimitIR, TransitionIR } from '../../model/ir.ts';
import { OPERATIONS } from '../../model/ir.ts';
import { existsAt, shapeAt } from '../../model/project.ts';
import { inputTypeName } from '../zod/emit-zod.ts';
import { compactUp, planDown, planFieldsUp, planUp, HookNeeds, type CompactUpPlan, type DownPlan, type HookNeed } from './migration-plan.ts';
import { valueText } from './ts-type.ts';

/** What every per-collection view needs of the API, computed once. */
export interface ServerContext {
  readonly api: ApiIR;
  /** The API's name in PascalCase (`Shop`). */
  readonly name: string;
  readonly versions: readonly string[];
  /** The collections each version has, as it sees them. */
  readonly projections: readonly { readonly collections: readonly CollectionAt[] }[];
  readonly hasAuth: boolean;
  /** The identifier a version's schema module is imported as (`V1`). */
  readonly alias: ReadonlyMap<string, string>;
}

/** One version's route of a collection. */
interface RouteView {
  readonly version: string;
  readonly path: string;
  readonly operations: readonly OperationName[];
  readonly id: string;
  /** The `schemas` members, `,`-separated (`response: V1.Order, create: V1.OrderCreate`). */
  readonly schemas: string;
  readonly up: CompactUpPlan | null;
  readonly down: DownPlan;
  /** The lifecycle's state field as this version names it, or null. */
  readonly stateField: string | null;
  /** The transitions of this version: name, input schema, and the plan that moves its input up. */
  readonly transitions: readonly { readonly name: string; readonly input: string; readonly up: CompactUpPlan | null }[];
}

/** The handler type of one transition, for the `Transitions` interface. */
interface TransitionTypeView {
  readonly name: string;
  readonly doc: string;
  /** The type arguments of `TransitionHandler`, `,`-separated. */
  readonly types: string;
}

interface HookFieldView {
  readonly key: string;
  readonly doc: string;
  /** The member signatures, `;`-separated. */
  readonly members: string;
}

/** The view of `server/collections/<collection>.ts`. */
export interface CollectionFileView {
  readonly key: string;
  readonly doc: string;
  readonly top: string;
  readonly imports: readonly { readonly alias: string; readonly path: string }[];
  /** The union of the versions the collection exists in (`"v1" | "v2"`). */
  readonly versionUnion: string;
  readonly routes: readonly RouteView[];
  /** The runtime's `CollectionSpec`, as JSON in the module. */
  readonly spec: CollectionSpec;
  /** The runtime's `MemorySpec`, as JSON in the module. */
  readonly memory: MemorySpec;
  /** The newest resource type (`V3.Order`). */
  readonly resource: string;
  readonly handlersDoc: string;
  /** The type arguments of `CollectionHandlers`, `,`-separated. */
  readonly handlerTypes: string;
  readonly ops: string;
  readonly migrations: readonly { readonly version: string; readonly collection: string; readonly fields: readonly HookFieldView[] }[];
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

function schemasOf(alias: string, c: CollectionAt): string {
  const ops = new Set(c.operations);
  const t = `${alias}.${c.typeName}`;
  const parts = [`response: ${t}`];
  if (ops.has('create')) parts.push(`create: ${t}Create`);
  if (ops.has('replace')) parts.push(`replace: ${t}Replace`);
  if (ops.has('update')) parts.push(`patch: ${t}Patch`);
  if (ops.has('list')) parts.push(`query: ${t}ListQuery`);
  return parts.join(', ');
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
const inStates = (resource: string, field: string, states: readonly string[]): string =>
  `${resource} & { readonly ${field}: ${states.map((s) => JSON.stringify(s)).join(' | ')} }`;

/** The handler type of a transition: the resource in its `from` states, its input (newest version it exists in), the resource in its `to` state. */
function transitionType(ctx: ServerContext, c: CollectionIR, t: TransitionIR, resource: string, field: string): TransitionTypeView {
  const { versions, projections } = ctx;
  let last = versions.length - 1;
  while (last > 0 && !(existsAt(versions, last, t.addedIn, t.removedIn) && projections[last]!.collections.some((x) => x.key === c.name))) last--;
  const at = projections[last]!.collections.find((x) => x.key === c.name)!;
  const input = `z.output<typeof ${ctx.alias.get(versions[last]!)!}.${inputTypeName(at, t.name)}>`;
  const doc = [`\`POST /${at.path}/{id}:${t.name}\`: ${t.from.join(', ')} → ${t.to}.`, t.description ?? ''].filter(Boolean).join(' ');
  return { name: t.name, doc, types: [inStates(resource, field, t.from), input, inStates(resource, field, [t.to])].join(', ') };
}

/** How the in-memory store assigns a required read-only field: example first, then by type. */
function assignOf(f: FieldAt, initial?: string): Assign | null {
  if (initial !== undefined) return [f.name, 'value', initial];
  if (f.optional) return null;
  if (f.example) return [f.name, 'value', f.example.value];
  switch (f.type.kind) {
    case 'id':
    case 'uuid':
    case 'ref':
      return [f.name, 'uuid'];
    case 'datetime':
      return [f.name, 'now'];
    case 'date':
      return [f.name, 'today'];
    default:
      break;
  }
  if (f.nullable) return [f.name, 'value', null];
  const t = f.type;
  const value =
    t.kind === 'enum' ? t.values[0]
    : t.kind === 'int' || t.kind === 'number' ? (t.min ?? 0)
    : t.kind === 'boolean' ? false
    : t.kind === 'array' ? []
    : t.kind === 'email' ? 'someone@example.com'
    : t.kind === 'url' ? 'https://example.com/'
    : t.kind === 'object' ? {}
    : '';
  return [f.name, 'value', value];
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

function hookMembers(versions: readonly string[], c: CollectionIR, need: HookNeed, resource: string, param: string): string[] {
  const f = c.fields.find((x) => x.name === need.field)!;
  const k = versions.indexOf(need.version);
  const old = shapeAt(versions, k - 1, f);
  const oldType = valueText(old, versions, k - 1);
  const members: string[] = [];
  if (need.kind === 'typeChange') {
    const now = shapeAt(versions, k, f);
    const newType = valueText(now, versions, k);
    if (need.members.has('up')) members.push(`up(value: ${oldType}): ${newType}${now.optional && !now.default ? ' | undefined' : ''}`);
    if (need.members.has('down')) members.push(`down(value: ${newType}): ${oldType}${old.optional ? ' | undefined' : ''}`);
  } else if (need.kind === 'removed') members.push(`value(${param}: ${resource}): ${oldType}${old.optional ? ' | undefined' : ''}`);
  else members.push(`whenMissing(${param}: ${resource}): ${oldType}`);
  return members;
}

/** Builds the views of one collection's server files. */
export function buildCollectionFiles(ctx: ServerContext, c: CollectionIR): CollectionFiles {
  const { versions, projections } = ctx;
  const top = topOf(versions, c);
  const needs = new HookNeeds();
  const imports: { alias: string; path: string }[] = [];
  const routes: RouteView[] = [];
  for (let at = 0; at < versions.length; at++) {
    const cAt = projections[at]!.collections.find((x) => x.key === c.name);
    if (!cAt) continue;
    const version = versions[at]!;
    const alias = ctx.alias.get(version)!;
    imports.push({ alias, path: `../../${version}/${cAt.name}.js` });
    routes.push({
      version,
      path: cAt.path,
      operations: cAt.operations,
      id: idOf(cAt),
      schemas: schemasOf(alias, cAt),
      up: at === top ? null : compactUp(planUp(versions, c, at, top, needs)),
      down: planDown(versions, c, at, top, needs),
      stateField: cAt.lifecycle?.field ?? null,
      transitions: (cAt.lifecycle?.transitions ?? []).map((t) => {
        const ir = c.lifecycle!.transitions.find((x) => x.name === t.name)!;
        // The newest version that offers the transition has the input its handler is typed with.
        let last = at;
        while (last + 1 <= top && existsAt(versions, last + 1, ir.addedIn, ir.removedIn)) last++;
        return { name: t.name, input: `${alias}.${inputTypeName(cAt, t.name)}`, up: last === at ? null : compactUp(planFieldsUp(versions, ir.input, at, last, () => [])) };
      }),
    });
  }

  const newest = projections[top]!.collections.find((x) => x.key === c.name)!;
  const resource = `${ctx.alias.get(versions[top]!)!}.${newest.typeName}`;
  const hooks = needs.list();
  const publicOps = ctx.hasAuth ? c.public : OPERATIONS.filter((op) => c.operations.some((o) => o.name === op));
  const ops = OPERATIONS.filter((op) => projections.some((p) => p.collections.some((x) => x.key === c.name && x.operations.includes(op))));
  const hookVersions = versions.filter((v) => hooks.some((h) => h.version === v));
  const readOnly = newest.fields.filter((f) => f.readOnly || f.type.kind === 'id');
  const lifecycle = lifecycleSpec(c);
  const stateField = newest.lifecycle?.field;
  const transitions = (c.lifecycle?.transitions ?? []).map((t) => transitionType(ctx, c, t, resource, stateField!));
  const collection: CollectionFileView = {
    key: c.name,
    doc: `${c.name} of the ${ctx.name} API: routes, store and handler types.${c.description ? ` ${c.description}` : ''}`,
    top: versions[top]!,
    imports,
    versionUnion: routes.map((r) => JSON.stringify(r.version)).join(' | '),
    routes,
    spec: {
      key: c.name,
      // Without auth every operation is public: there is nothing to check a credential against.
      public: publicOps,
      scopes: c.scopes,
      rateLimit: limitOf(c.rateLimit),
      hooks: hooks.map((h) => ({ id: h.id, members: [...h.members].sort(), why: hookDoc(versions, h) })),
      lifecycle,
      requireIfMatch: c.requireIfMatch,
    },
    memory: {
      name: c.name,
      id: idOf(newest),
      assign: readOnly.map((f) => assignOf(f, f.name === stateField ? lifecycle?.initial : undefined)).filter((a) => a !== null),
      unique: newest.fields.filter((f) => f.unique).map((f) => f.name),
      readOnly: readOnly.map((f) => f.name),
      lifecycle: lifecycle && {
        field: lifecycle.field,
        transitions: Object.fromEntries(Object.entries(lifecycle.transitions).map(([name, t]) => [name, { from: t.from, to: t.to }])),
      },
    },
    resource,
    handlersDoc: `${c.name}: ${c.description ? c.description + ' ' : ''}Called by every version's routes, typed with ${versions[top]}.`,
    handlerTypes: [resource, ...['Create', 'Replace', 'Patch', 'ListQuery'].map((s) => `z.output<typeof ${resource}${s}>`)].join(', '),
    ops: ops.map((op) => JSON.stringify(op)).join(' | '),
    migrations: hookVersions.map((version) => ({
      version,
      collection: c.name,
      fields: hooks
        .filter((h) => h.version === version)
        .map((h) => ({ key: h.field, doc: hookDoc(versions, h), members: hookMembers(versions, c, h, resource, lowerFirst(newest.typeName)).join('; ') + ';' })),
    })),
    hasMigrations: hooks.length > 0,
    transitions,
  };
  return {
    key: c.name,
    collection,
    versions: routes.map((r) => r.version),
    hasMigrations: hooks.length > 0,
    needsCredentials: ctx.hasAuth && (c.operations.some((op) => !publicOps.includes(op.name)) || transitions.length > 0),
    hasTransitions: transitions.length > 0,
  };
}
