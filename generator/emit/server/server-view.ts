/**
 * @module The view models of the server templates: the route table of every version (`routes.hbs`), the
 * handler, hook and option types (`types.hbs`) and the entry points (`index.hbs`). Every decision about
 * what is generated is made here; the templates only lay it out.
 */
import type { ApiIR, CollectionAt, CollectionIR, FieldAt, OperationName } from '../../model/ir.ts';
import { OPERATIONS } from '../../model/ir.ts';
import { pascalCase } from '../../model/names.ts';
import { existsAt, project, shapeAt } from '../../model/project.ts';
import { isIdentity, planDown, planUp, HookNeeds, type HookNeed } from './migration-plan.ts';
import { valueText } from './ts-type.ts';

interface Import {
  readonly alias: string;
  readonly path: string;
}
interface CollectionView {
  readonly varName: string;
  readonly key: string;
  readonly public: readonly OperationName[];
  readonly scopes: CollectionIR['scopes'];
  readonly rateLimit: { readonly max: number; readonly windowMs: number } | null;
}
interface RouteView {
  readonly varName: string;
  readonly path: string;
  readonly operations: readonly OperationName[];
  readonly id: string;
  readonly schemas: string;
  readonly up: unknown;
  readonly down: unknown;
}
interface VersionView {
  readonly name: string;
  readonly deprecation: string | null;
  readonly sunset: string | null;
  readonly sunsetAt: number | null;
  readonly routes: readonly RouteView[];
}
/** The view of `server/routes.ts`. */
export interface RoutesView {
  readonly name: string;
  readonly specName: string;
  readonly imports: readonly Import[];
  readonly collections: readonly CollectionView[];
  readonly versioning: ApiIR['versioning'];
  readonly bearer: boolean;
  readonly apiKeyHeader: string | null;
  readonly rateLimit: CollectionView['rateLimit'];
  readonly hooks: readonly { readonly id: string; readonly members: readonly string[]; readonly why: string }[];
  readonly versions: readonly VersionView[];
}
interface HandlerView {
  readonly key: string;
  readonly doc: string;
  readonly types: string;
  readonly ops: string;
  readonly resource: string;
}
interface HookFieldView {
  readonly key: string;
  readonly doc: string;
  /** The member signatures, `;`-separated. */
  readonly members: string;
}
/** The view of `server/types.ts`. */
export interface TypesView {
  readonly name: string;
  readonly imports: readonly Import[];
  readonly versions: string;
  readonly handlers: readonly HandlerView[];
  readonly migrations: readonly { readonly version: string; readonly collections: readonly { readonly key: string; readonly fields: readonly HookFieldView[] }[] }[];
  readonly needsCredentials: boolean;
  readonly needsMigrations: boolean;
}
/** The view of `server/index.ts`. */
export interface IndexView {
  readonly name: string;
  readonly specName: string;
  readonly imports: readonly Import[];
  readonly optionsOptional: boolean;
  readonly memory: readonly { readonly key: string; readonly resource: string; readonly spec: unknown }[];
  readonly versioning: string;
}

/** Everything the server templates need, computed once. */
export interface ServerViews {
  readonly routes: RoutesView;
  readonly types: TypesView;
  readonly index: IndexView;
}

const lowerFirst = (s: string) => s[0]!.toLowerCase() + s.slice(1);
const identifier = (s: string) => s.replace(/[^A-Za-z0-9_$]/g, '_').replace(/^(\d)/, '_$1');

function aliases(api: ApiIR): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const v of api.versions) {
    let alias = identifier(pascalCase(v.name));
    if (!/^[A-Z]/.test(alias)) alias = 'V' + alias;
    while (used.has(alias)) alias += '_';
    used.add(alias);
    out.set(v.name, alias);
  }
  return out;
}

const dayMs = (date: string): number => Date.parse(`${date}T00:00:00Z`);

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
  const parts: string[] = [];
  if (ops.has('create')) parts.push(`create: ${alias}.${c.typeName}Create`);
  if (ops.has('replace')) parts.push(`replace: ${alias}.${c.typeName}Replace`);
  if (ops.has('update')) parts.push(`patch: ${alias}.${c.typeName}Patch`);
  if (ops.has('list')) parts.push(`query: ${alias}.${c.typeName}ListQuery`);
  return parts.join(', ');
}

/** How the in-memory store assigns a required read-only field: example first, then by type. */
function assignOf(f: FieldAt): readonly unknown[] | null {
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

function hookDoc(api: ApiIR, need: HookNeed): string {
  const versions = api.versions.map((v) => v.name);
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

function hookMembers(api: ApiIR, need: HookNeed, resource: string, param: string): string[] {
  const versions = api.versions.map((v) => v.name);
  const c = api.collections.find((x) => x.name === need.collection)!;
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

/** Builds the three views of the server templates from the IR. */
export function buildServerViews(api: ApiIR): ServerViews {
  const name = pascalCase(api.name);
  const specName = `${api.name.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}_API`;
  const versions = api.versions.map((v) => v.name);
  const alias = aliases(api);
  const projections = api.versions.map((v) => project(api, v.name));
  const hasAuth = api.auth.bearer !== undefined || api.auth.apiKey !== undefined;
  const needs = new HookNeeds();
  const varOf = (c: CollectionIR) => `${identifier(c.name)}Collection`;

  const collections: CollectionView[] = api.collections.map((c) => ({
    varName: varOf(c),
    key: c.name,
    // Without auth every operation is public: there is nothing to check a credential against.
    public: hasAuth ? c.public : OPERATIONS.filter((op) => c.operations.some((o) => o.name === op)),
    scopes: c.scopes,
    rateLimit: c.rateLimit ? { max: c.rateLimit.limit, windowMs: c.rateLimit.windowMs } : null,
  }));

  const versionViews: VersionView[] = api.versions.map((v, at) => ({
    name: v.name,
    deprecation: v.deprecated ? `@${dayMs(v.deprecated) / 1000}` : null,
    sunset: v.sunset ? new Date(dayMs(v.sunset)).toUTCString() : null,
    sunsetAt: v.sunset ? dayMs(v.sunset) : null,
    routes: projections[at]!.collections.map((cAt) => {
      const c = api.collections.find((x) => x.name === cAt.key)!;
      const top = topOf(versions, c);
      const up = at === top ? null : planUp(versions, c, at, top, needs);
      return {
        varName: varOf(c),
        path: cAt.path,
        operations: cAt.operations,
        id: idOf(cAt),
        schemas: schemasOf(alias.get(v.name)!, cAt),
        up: up === null || isIdentity(up) ? null : up,
        down: planDown(versions, c, at, top, needs),
      };
    }),
  }));

  const resources = new Map(
    api.collections.map((c) => {
      const top = topOf(versions, c);
      const cAt = projections[top]!.collections.find((x) => x.key === c.name)!;
      return [c.name, { alias: alias.get(versions[top]!)!, typeName: cAt.typeName, cAt }] as const;
    }),
  );
  const resourceOf = (key: string) => `${resources.get(key)!.alias}.${resources.get(key)!.typeName}`;
  const hooks = needs.list();
  const usedAliases = [...new Set([...resources.values()].map((r) => r.alias))];
  const topImports = api.versions.filter((v) => usedAliases.includes(alias.get(v.name)!)).map((v) => ({ alias: alias.get(v.name)!, path: `../${v.name}/schemas.js` }));
  const needsCredentials = hasAuth && collections.some((cv) => api.collections.find((c) => c.name === cv.key)!.operations.some((op) => !cv.public.includes(op.name)));

  const migrations = versions
    .map((version) => {
      const inVersion = hooks.filter((h) => h.version === version);
      const keys = [...new Set(inVersion.map((h) => h.collection))].sort();
      return {
        version,
        collections: keys.map((key) => ({
          key,
          fields: inVersion
            .filter((h) => h.collection === key)
            .map((h) => ({ key: h.field, doc: hookDoc(api, h), members: hookMembers(api, h, resourceOf(key), lowerFirst(resources.get(key)!.typeName)).join('; ') + ';' })),
        })),
      };
    })
    .filter((m) => m.collections.length > 0);

  return {
    routes: {
      name,
      specName,
      imports: api.versions.map((v) => ({ alias: alias.get(v.name)!, path: `../${v.name}/schemas.js` })),
      collections,
      versioning: api.versioning,
      bearer: api.auth.bearer !== undefined,
      apiKeyHeader: api.auth.apiKey?.header ?? null,
      rateLimit: api.rateLimit ? { max: api.rateLimit.limit, windowMs: api.rateLimit.windowMs } : null,
      hooks: hooks.map((h) => ({ id: h.id, members: [...h.members].sort(), why: hookDoc(api, h) })),
      versions: versionViews,
    },
    types: {
      name,
      imports: topImports,
      versions: versions.map((v) => JSON.stringify(v)).join(' | '),
      handlers: api.collections.map((c) => {
        const r = resources.get(c.name)!;
        const t = `${r.alias}.${r.typeName}`;
        const ops = OPERATIONS.filter((op) => versions.some((_, i) => projections[i]!.collections.some((x) => x.key === c.name && x.operations.includes(op))));
        return {
          key: c.name,
          doc: `${c.name}: ${c.description ? c.description + ' ' : ''}Called by every version's routes, typed with ${versions[topOf(versions, c)]}.`,
          types: [t, ...['Create', 'Replace', 'Patch', 'ListQuery'].map((s) => `z.output<typeof ${t}${s}>`)].join(', '),
          ops: ops.map((op) => JSON.stringify(op)).join(' | '),
          resource: t,
        };
      }),
      migrations,
      needsCredentials,
      needsMigrations: hooks.length > 0,
    },
    index: {
      name,
      specName,
      imports: topImports,
      optionsOptional: !needsCredentials && hooks.length === 0,
      versioning: api.versioning.in === 'path' ? `under ${versions.map((v) => `/${v}`).join(', ')}` : `selected by the ${api.versioning.header} header`,
      memory: api.collections.map((c) => {
        const { cAt } = resources.get(c.name)!;
        return {
          key: c.name,
          resource: resourceOf(c.name),
          spec: {
            name: c.name,
            id: idOf(cAt),
            assign: cAt.fields.filter((f) => f.readOnly || f.type.kind === 'id').map(assignOf).filter((a) => a !== null),
            unique: cAt.fields.filter((f) => f.unique).map((f) => f.name),
            readOnly: cAt.fields.filter((f) => f.readOnly || f.type.kind === 'id').map((f) => f.name),
          },
        };
      }),
    },
  };
}
