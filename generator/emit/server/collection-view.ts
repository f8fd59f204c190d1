/**
 * @module The view model of a collection's server module, `server/collections/<c>.ts`: its settings and
 * hooks, its route in each version (schemas, up and down migration plans), its in-memory store spec, and its
 * handler and migration types. A changed field changes only this module, so only it is reformatted. (One
 * module for every version: a field change usually changes the plans of every older version anyway, and
 * a module per version tripled the file headers and imports the formatter reads.)
 */
import type { Assign, CollectionSpec, FileFieldSpec, LifecycleSpec, LimitSpec, MemorySpec, XmlNames } from '@restgen/runtime/contract';
import { listQueryType, querySpecOf } from './query-view.ts';
import type { ApiIR, CollectionAt, CollectionIR, FieldAt, OperationName, RateLimitIR, TransitionIR } from '../../model/ir.ts';
import { OPERATIONS } from '../../model/ir.ts';
import { kindOf, sampleOf } from '../../model/kinds.ts';
import { existsAt } from '../../model/project.ts';
import { e, t, type Expr, type Type } from '../../printer/ast.ts';
import { printKey } from '../../printer/literals.ts';
import { inputTypeName } from '../zod/emit-zod.ts';
import { hookDoc, migrationsOf, plansOf, type MigrationView } from './collection-hooks.ts';
import { compactUp, planFieldsUp } from './migration-plan.ts';

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
  /** The list query handlers receive (`$.ListQuery<...>`), or null without a list. */
  readonly query: Type | null;
  /** Whether a type reads a zod schema's output (a body or a transition's input): `z` is imported. */
  readonly usesZod: boolean;
  readonly handlersDoc: string;
  /** `Pick<$.CollectionHandlers<...>, ops>`, `& Transitions` when the collection has a lifecycle. */
  readonly handlers: Type;
  readonly migrations: readonly MigrationView[];
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
  /** Whether it has a file field (in some version): the server then needs a file store. */
  readonly hasFiles: boolean;
}

const lowerFirst = (s: string) => s[0]!.toLowerCase() + s.slice(1);

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
  if (ops.has('get')) parts.push(e.prop('read', e.path(`${name}GetQuery`)));
  // The zod module declares it when a write or transition reads `?expand=` (see query-schemas.ts).
  const writes = ops.has('create') || ops.has('replace') || ops.has('update') || (c.lifecycle?.transitions.length ?? 0) > 0;
  if (writes && c.query.expandable.length > 0) parts.push(e.prop('write', e.path(`${name}WriteQuery`)));
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

/** A version's file fields by this version's names (newest name, limits); `{}` without any. */
function filesOf(cAt: CollectionAt): Record<string, FileFieldSpec> {
  return Object.fromEntries(
    cAt.fields.flatMap((f) =>
      f.type.kind === 'file' ? [[f.name, { key: f.key, maxBytes: f.type.maxBytes, types: f.type.types } satisfies FileFieldSpec]] : [],
    ),
  );
}

/** The element names of a collection's XML answers, in an API that answers XML (else null). */
function xmlNamesOf(ctx: ServerContext, cAt: CollectionAt): XmlNames | null {
  return ctx.api.formats?.includes('xml') ? { resource: lowerFirst(cAt.typeName), list: `${lowerFirst(cAt.typeName)}List` } : null;
}

/** The schema that checks an operation's input, by the suffix of its name (`OrderCreate`). */
const SCHEMA_OF = { create: 'Create', replace: 'Replace', update: 'Patch' } as const;

/** How the in-memory store assigns a required read-only field: example first, then by type. */
function assignOf(f: FieldAt, initial?: string): Assign | null {
  if (initial !== undefined) return [f.name, 'value', initial];
  if (f.optional) return null;
  if (f.example) return [f.name, 'value', f.example.value];
  const assigned = kindOf(f.type).assigned;
  if (assigned !== null) return [f.name, assigned];
  return [f.name, 'value', f.nullable ? null : sampleOf(f.type)];
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
    hasFiles: c.fields.some((f) => f.type.kind === 'file'),
  };
}

/** Builds the views of one collection's server files; `expanded`: whether some ref expands to it ({@link isExpanded}). */
export function buildCollectionFiles(ctx: ServerContext, c: CollectionIR, expanded: boolean): CollectionFiles {
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
    files: filesOf(newestAt),
  };
  const differs = (a: unknown, b: unknown): boolean => JSON.stringify(a) !== JSON.stringify(b);
  for (let at = 0; at < versions.length; at++) {
    const cAt = projections[at]!.byKey.get(c.name);
    if (!cAt) continue;
    const version = versions[at]!;
    const alias = ctx.alias.get(version)!;
    imports.push({ alias, path: `../../${version}/${cAt.name}.js` });
    const { up, down } = plans.get(at)!;
    const query = querySpecOf(cAt, newestAt);
    const own = {
      path: cAt.path,
      operations: cAt.operations,
      public: publicOpsOf(ctx, cAt),
      id: idOf(cAt),
      stateField: cAt.lifecycle?.field ?? null,
      files: filesOf(cAt),
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
        ...(Object.keys(query).length > 0 ? [e.prop('query', e.json(query))] : []),
        ...(up !== null ? [e.prop('up', e.json(up))] : []),
        ...(Object.keys(down).length > 0 ? [e.prop('down', e.json(down))] : []),
        ...(transitions.length > 0 ? [e.prop('transitions', e.obj(transitions))] : []),
        ...(['path', 'operations', 'public', 'id', 'stateField', 'files'] as const)
          .filter((k) => differs(own[k], shared[k]))
          .map((k) => e.prop(k, e.json(own[k]))),
      ]),
    });
  }

  const newest = projections[top]!.byKey.get(c.name)!;
  const xml = xmlNamesOf(ctx, newest);
  const resourceName = `${ctx.alias.get(versions[top]!)!}.${newest.typeName}`;
  // Handlers keep a stored file (with its store key) where answers show its metadata and download path.
  const fileFields = newest.fields.filter((f) => f.type.kind === 'file').map((f) => t.str(f.name));
  const resource = fileFields.length > 0 ? t.ref('$.WithStoredFiles', [t.ref(resourceName), t.union(fileFields)]) : t.ref(resourceName);
  const hooks = needs.list();
  const ops = OPERATIONS.filter((op) => projections.some((p) => p.byKey.get(c.name)?.operations.includes(op)));
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
        ...(Object.keys(shared.files).length > 0 ? [e.prop('files', e.json(shared.files))] : []),
        ...(xml !== null ? [e.prop('xml', e.json(xml))] : []),
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
      instants: newest.fields.filter((f) => f.type.kind === 'datetime').map((f) => f.name),
      lifecycle: lifecycle && {
        field: lifecycle.field,
        transitions: Object.fromEntries(Object.entries(lifecycle.transitions).map(([name, tr]) => [name, { from: tr.from, to: tr.to }])),
      },
    } satisfies MemorySpec),
    resource,
    handlersDoc: `${c.name}: ${c.description ? c.description + ' ' : ''}Called by every version's routes, typed with ${versions[top]}.`,
    query: ops.includes('list') ? listQueryType(ctx.projections, c, resourceName) : null,
    usesZod: transitions.length > 0 || ops.some((op) => op === 'create' || op === 'replace' || op === 'update'),
    handlers: t.inter([
      t.ref('Pick', [
        t.ref('$.CollectionHandlers', [
          resource,
          // The newest version's module holds the schema of every operation some version offers (see emit-zod.ts).
          ...(['create', 'replace', 'update'] as const).map((op) =>
            ops.includes(op) ? t.ref('z.output', [t.query(`${resourceName}${SCHEMA_OF[op]}`)]) : t.ref('never'),
          ),
          ops.includes('list') ? t.ref('Query') : t.ref('never'),
        ]),
        // `getMany` (optional) serves the refs other collections expand to this one.
        t.union([...ops, ...(ops.includes('get') && expanded ? ['getMany'] : [])].map(t.str)),
      ]),
      ...(transitions.length > 0 ? [t.ref('Transitions')] : []),
    ]),
    migrations: migrationsOf(versions, c, hooks, resource, lowerFirst(newest.typeName)),
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
