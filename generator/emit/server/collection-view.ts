/**
 * @module The view model of a collection's server module, `server/collections/<c>.ts`: its settings and
 * hooks, its route in each version (schemas, up and down migration plans), its in-memory store spec, and its
 * handler and migration types. A changed field changes only this module, so only it is reformatted. (One
 * module for every version: a field change usually changes the plans of every older version anyway, and
 * a module per version tripled the file headers and imports the formatter reads.)
 */
import type { Assign, MemorySpec } from '../../../runtime/server/memory-store.ts';
import type { CollectionSpec, LimitSpec } from '../../../runtime/server/spec.ts';
import type { ApiIR, CollectionAt, CollectionIR, FieldAt, OperationName } from '../../model/ir.ts';
import { OPERATIONS } from '../../model/ir.ts';
import { existsAt, shapeAt } from '../../model/project.ts';
import { compactUp, planDown, planUp, HookNeeds, type CompactUpPlan, type DownPlan, type HookNeed } from './migration-plan.ts';
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

/** How the in-memory store assigns a required read-only field: example first, then by type. */
function assignOf(f: FieldAt): Assign | null {
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
    });
  }

  const newest = projections[top]!.collections.find((x) => x.key === c.name)!;
  const resource = `${ctx.alias.get(versions[top]!)!}.${newest.typeName}`;
  const hooks = needs.list();
  const publicOps = ctx.hasAuth ? c.public : OPERATIONS.filter((op) => c.operations.some((o) => o.name === op));
  const ops = OPERATIONS.filter((op) => projections.some((p) => p.collections.some((x) => x.key === c.name && x.operations.includes(op))));
  const hookVersions = versions.filter((v) => hooks.some((h) => h.version === v));
  const readOnly = newest.fields.filter((f) => f.readOnly || f.type.kind === 'id');
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
      rateLimit: c.rateLimit ? ({ max: c.rateLimit.limit, windowMs: c.rateLimit.windowMs } satisfies LimitSpec) : null,
      hooks: hooks.map((h) => ({ id: h.id, members: [...h.members].sort(), why: hookDoc(versions, h) })),
    },
    memory: {
      name: c.name,
      id: idOf(newest),
      assign: readOnly.map(assignOf).filter((a) => a !== null),
      unique: newest.fields.filter((f) => f.unique).map((f) => f.name),
      readOnly: readOnly.map((f) => f.name),
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
  };
  return {
    key: c.name,
    collection,
    versions: routes.map((r) => r.version),
    hasMigrations: hooks.length > 0,
    needsCredentials: ctx.hasAuth && c.operations.some((op) => !publicOps.includes(op.name)),
  };
}
