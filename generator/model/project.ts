/**
 * @module Stage "project": the API as one version sees it. The builder chain describes the newest
 * version; walking from the newest version back to the requested one, each marker undoes its change.
 */
import { derived, holding } from './derived.ts';
import type { ApiAt, ApiIR, CollectionAt, CollectionIR, EventAt, FieldAt, FieldIR, FieldShape, LifecycleAt, MarkerAt, OperationName, TypeIR } from './ir.ts';
import { pascalCase, singularize } from './names.ts';

/** Index of a version name in the API's version list (-1 when unknown). */
export function versionIndexOf(api: Pick<ApiIR, 'versions'>, name: string): number {
  return api.versions.findIndex((v) => v.name === name);
}

/** True when something added in `addedIn` and removed in `removedIn` exists at version index `at`. */
export function existsAt(versions: readonly string[], at: number, addedIn?: string, removedIn?: string): boolean {
  const from = addedIn === undefined ? 0 : versions.indexOf(addedIn);
  const until = removedIn === undefined ? Infinity : versions.indexOf(removedIn);
  return at >= from && at < until;
}

/**
 * Why an entry marked `addedIn`/`removedIn` (known versions) holds in no version, if it does not: RG163 when it is
 * removed in the first version, RG151 when it is removed before it is added. The text follows the entry's name.
 */
export function emptyRange(versions: readonly string[], addedIn?: string, removedIn?: string): { code: 'RG151' | 'RG163'; text: string } | undefined {
  if (removedIn === undefined) return undefined;
  const until = versions.indexOf(removedIn);
  if (until === 0)
    return { code: 'RG163', text: `is removed in ${removedIn}, the first version, so it holds in no version; leave it out, or name a later version` };
  if (addedIn !== undefined && until <= versions.indexOf(addedIn))
    return { code: 'RG151', text: `is removed in ${removedIn} but only added in ${addedIn}; removedIn must name a later version` };
  return undefined;
}

/** The name something had at version index `at`, given its newest name and its renames. */
export function nameAt(versions: readonly string[], at: number, newest: string, renames: FieldIR['renames']): string {
  let name = newest;
  for (let i = renames.length - 1; i >= 0; i--) {
    const r = renames[i]!;
    if (at < versions.indexOf(r.version)) name = r.from;
  }
  return name;
}

/** The field's shape (type, constraints, modifiers) at version index `at`, its nested fields not yet projected. */
export function shapeAt(versions: readonly string[], at: number, field: FieldIR): FieldShape {
  let shape: FieldShape = field;
  for (let k = versions.length - 1; k > at; k--) {
    const version = versions[k];
    const typeChange = field.typeChanges.find((c) => c.version === version);
    if (typeChange) {
      // The old builder is complete: it replaces type and modifiers alike.
      shape = typeChange.before;
      continue;
    }
    const optionality = field.optionality.find((c) => c.version === version);
    if (optionality) shape = { ...shape, optional: optionality.to === 'required' };
  }
  return shape;
}

/** The values of an enum that exist at version index `at` (those added later are left out), in the order written. */
export function enumValuesAt(versions: readonly string[], at: number, type: Extract<TypeIR, { kind: 'enum' }>): string[] {
  const added = type.added ?? [];
  return type.values.filter((v) => {
    const a = added.find((x) => x.value === v);
    return a === undefined || versions.indexOf(a.version) <= at;
  });
}

/**
 * The value version index `at` shows for a stored enum value: the value itself when that version has it,
 * else its fallback (followed while the fallback is itself added later).
 */
export function enumValueShownAt(versions: readonly string[], at: number, type: Extract<TypeIR, { kind: 'enum' }>, value: string): string {
  let shown = value;
  for (let hops = 0; hops <= type.values.length; hops++) {
    const a = type.added?.find((x) => x.value === shown);
    if (a === undefined || versions.indexOf(a.version) <= at) return shown;
    shown = a.fallback;
  }
  return shown;
}

function projectType(versions: readonly string[], at: number, type: TypeIR): TypeIR<FieldAt> {
  switch (type.kind) {
    case 'object':
      return { kind: 'object', fields: projectFields(versions, at, type.fields) };
    case 'array':
      return { ...type, of: projectType(versions, at, type.of) };
    case 'enum':
      return { kind: 'enum', values: enumValuesAt(versions, at, type) };
    default:
      return type;
  }
}

const markerCache = new WeakMap<FieldIR, readonly MarkerAt[]>();

/** Every version marker of `field` with where it was written, oldest version first (computed once per field). */
export function markersOf(versions: readonly string[], field: FieldIR): readonly MarkerAt[] {
  let markers = markerCache.get(field);
  if (!markers) markerCache.set(field, (markers = collectMarkers(versions, field)));
  return markers;
}

function collectMarkers(versions: readonly string[], field: FieldIR): MarkerAt[] {
  const at = (member: string) => field.calls[member] ?? field.loc;
  const list: Omit<MarkerAt, 'index'>[] = [
    ...(field.addedIn ? [{ member: 'addedIn' as const, version: field.addedIn, loc: at('addedIn') }] : []),
    ...(field.removedIn ? [{ member: 'removedIn' as const, version: field.removedIn.version, loc: at('removedIn') }] : []),
    ...field.renames.map((r) => ({ member: 'renamedFrom' as const, version: r.version, loc: r.loc })),
    ...field.typeChanges.map((t) => ({ member: 'typeChangedFrom' as const, version: t.version, loc: t.loc })),
    ...field.optionality.map((o) => ({
      member: o.to === 'optional' ? ('madeOptionalIn' as const) : ('madeRequiredIn' as const),
      version: o.version,
      loc: o.loc,
    })),
  ];
  return list.map((m) => ({ ...m, index: versions.indexOf(m.version) })).sort((a, b) => a.index - b.index);
}

/** The fields that exist at version index `at`, as that version sees them. */
export function projectFields(versions: readonly string[], at: number, fields: readonly FieldIR[]): FieldAt[] {
  const out: FieldAt[] = [];
  for (const field of fields) {
    if (!existsAt(versions, at, field.addedIn, field.removedIn?.version)) continue;
    const shape = shapeAt(versions, at, field);
    out.push({
      kind: 'field-at',
      name: nameAt(versions, at, field.name, field.renames),
      key: field.name,
      type: projectType(versions, at, shape.type),
      optional: shape.optional,
      nullable: shape.nullable,
      ...(shape.default ? { default: shape.default } : {}),
      readOnly: shape.readOnly,
      writeOnly: shape.writeOnly,
      unique: shape.unique,
      filterable: shape.filterable,
      deprecated: shape.deprecated,
      ...(shape.description !== undefined ? { description: shape.description } : {}),
      ...(shape.example ? { example: shape.example } : {}),
      ...(field.removedIn ? { removedIn: field.removedIn } : {}),
      loc: field.loc,
      calls: field.calls,
      markers: markersOf(versions, field),
    });
  }
  return out;
}

/** The lifecycle of `c` at version index `at`: the states the field has there and the transitions that exist there. */
export function projectLifecycle(versions: readonly string[], at: number, c: CollectionIR): LifecycleAt | undefined {
  const lc = c.lifecycle;
  const field = lc && c.fields.find((f) => f.name === lc.field);
  if (!lc || !field) return undefined;
  const type = shapeAt(versions, at, field).type;
  const states = type.kind === 'enum' ? enumValuesAt(versions, at, type) : [];
  return {
    kind: 'lifecycle-at',
    field: nameAt(versions, at, field.name, field.renames),
    key: field.name,
    states,
    initial: lc.initial,
    transitions: lc.transitions
      .filter((t) => existsAt(versions, at, t.addedIn, t.removedIn))
      .map((t) => ({
        kind: 'transition-at' as const,
        name: t.name,
        from: t.from.filter((s) => states.includes(s)),
        to: t.to,
        input: projectFields(versions, at, t.input),
        scopes: t.scopes ?? c.scopes.write,
        ...(t.rateLimit ? { rateLimit: t.rateLimit } : {}),
        ...(t.description !== undefined ? { description: t.description } : {}),
        loc: t.loc,
      })),
    loc: lc.loc,
  };
}

/** The collection at version index `at`, or undefined when it does not exist there. */
export function projectCollection(versions: readonly string[], at: number, c: CollectionIR): CollectionAt | undefined {
  if (!existsAt(versions, at, c.addedIn, c.removedIn)) return undefined;
  const name = nameAt(versions, at, c.name, c.renames);
  const operations: OperationName[] = c.operations.filter((op) => existsAt(versions, at, op.addedIn, op.removedIn)).map((op) => op.name);
  const lifecycle = projectLifecycle(versions, at, c);
  let fields: FieldAt[] | undefined;
  return {
    kind: 'collection-at',
    name,
    key: c.name,
    path: c.explicitPath ? c.path : name,
    typeName: pascalCase(c.singular !== undefined && name === c.name ? c.singular : singularize(name)),
    ...(c.description !== undefined ? { description: c.description } : {}),
    // Projected on first read (a collection's name and operations are often all that is asked). Enumerable, so JSON,
    // spreads and the cache's hash of renderer data see it as a plain property.
    get fields(): FieldAt[] {
      return (fields ??= projectFields(versions, at, c.fields));
    },
    operations,
    scopes: c.scopes,
    ...(c.rateLimit ? { rateLimit: c.rateLimit } : {}),
    public: c.public.filter((op) => operations.includes(op.name) && existsAt(versions, at, op.addedIn, op.removedIn)).map((op) => op.name),
    pagination: c.pagination,
    ...(lifecycle ? { lifecycle } : {}),
    requireIfMatch: c.requireIfMatch,
    ...(c.builtin ? { builtin: c.builtin } : {}),
    loc: c.loc,
    calls: c.calls,
  };
}

/** The event types version index `at` delivers: each collection's derived events, then the custom events. */
export function projectEvents(api: ApiIR, at: number, collections: readonly CollectionAt[]): EventAt[] {
  const versions = api.versions.map((x) => x.name);
  const byKey = new Map(collections.map((x) => [x.key, x]));
  const derived = api.collections.flatMap((c) => {
    const view = byKey.get(c.name);
    if (!view) return [];
    return (c.events ?? []).flatMap((e): EventAt[] => {
      if (!existsAt(versions, at, e.addedIn, e.removedIn)) return [];
      const lc = view.lifecycle;
      if (e.action === 'transition' && !(lc?.states.includes(e.name) && lc.transitions.some((t) => t.to === e.name))) return [];
      const state = e.action === 'transition' ? { state: e.name } : {};
      return [{ kind: 'event-at', type: e.type, source: { kind: 'resource', collection: c.name, action: e.action, ...state }, loc: e.loc }];
    });
  });
  const custom = (api.events ?? [])
    .filter((e) => existsAt(versions, at, e.addedIn, e.removedIn))
    .map(
      (e): EventAt => ({
        kind: 'event-at',
        type: e.type,
        ...(e.description !== undefined ? { description: e.description } : {}),
        source: { kind: 'custom', payload: projectFields(versions, at, e.payload) },
        loc: e.loc,
      }),
    );
  return [...derived, ...custom];
}

// A collection as a version sees it is a function of the version list, the version and the collection's IR (which
// is immutable): an IR kept from an earlier build (`--watch`, see `collection-reuse.ts`) keeps its projections, and
// with them every hash of them already computed.
const collectionProjections = new WeakMap<CollectionIR, Map<string, CollectionAt | null>>();

/** `projectCollection(versions, at, c)`, once per collection IR and `key` (the version list and `at`, as text). */
function projectedOnce(versions: readonly string[], at: number, key: string, c: CollectionIR): CollectionAt | undefined {
  let known = collectionProjections.get(c);
  if (!known) collectionProjections.set(c, (known = new Map()));
  let projected = known.get(key);
  if (projected === undefined) {
    projected = projectCollection(versions, at, c) ?? null;
    known.set(key, projected && derived(projected, 'projectCollection', key, c));
  }
  return projected ?? undefined;
}

// Every emitter projects every version; the IR is immutable, so each projection is built once per API.
const projections = new WeakMap<ApiIR, Map<string, ApiAt>>();

/** The API as version `version` sees it. Throws on an unknown version name (a programming error). */
export function project(api: ApiIR, version: string): ApiAt {
  let known = projections.get(api);
  if (!known) projections.set(api, (known = new Map()));
  let projection = known.get(version);
  if (!projection) known.set(version, (projection = holding(projectVersion(api, version))));
  return projection;
}

function projectVersion(api: ApiIR, version: string): ApiAt {
  const at = versionIndexOf(api, version);
  const v = api.versions[at];
  if (!v) throw new Error(`project(): unknown version ${version}`);
  const versions = api.versions.map((x) => x.name);
  const key = `${JSON.stringify(versions)}${at}`;
  const collections = holding(api.collections.flatMap((c) => projectedOnce(versions, at, key, c) ?? []));
  const events = projectEvents(api, at, collections);
  return {
    kind: 'api-at',
    name: api.name,
    title: api.title,
    ...(api.description !== undefined ? { description: api.description } : {}),
    version: v,
    versioning: api.versioning,
    auth: api.auth,
    ...(api.rateLimit ? { rateLimit: api.rateLimit } : {}),
    collections,
    ...(events.length > 0 ? { events } : {}),
    servers: api.servers,
    openapi: api.openapi,
    ...(api.loc ? { loc: api.loc } : {}),
  };
}
