/**
 * @module The wire contract of one version: the projection without source locations, documentation or
 * history, with everything unordered sorted, so equal contracts serialise to equal bytes. The lock file
 * holds one per released version; `apiAtOfContract` turns one back into a projection for the diff engine.
 */
import type {
  ApiAt,
  ApiIR,
  AuthIR,
  OAuth2IR,
  OAuthFlowIR,
  OAuthFlowKind,
  CollectionAt,
  EventAt,
  FieldAt,
  LifecycleAt,
  OperationName,
  RateLimitIR,
  ResourceAction,
  SourceRef,
  TypeIR,
  FieldShape,
  WireFormat,
  FilterOp,
  QueryAt,
} from '../model/ir.ts';
import { OAUTH_FLOWS } from '../model/ir.ts';
import { project } from '../model/project.ts';
import { queryOf } from '../model/project-query.ts';
import { WEBHOOK_ENDPOINTS } from '../model/webhook-endpoints.ts';

/** The keys of a locked `defaultSort` (the version's names stand for the newest: a lock has one version). */
const defaultSortOfText = (text: string | undefined) =>
  (text === undefined || text === '' ? [] : text.split(',')).map((k) => ({
    field: k.replace(/^-/, ''),
    direction: k.startsWith('-') ? ('desc' as const) : ('asc' as const),
  }));

/** A value type in a contract (nested fields are {@link FieldContract}s). */
export type TypeContract = TypeIR<FieldContract>;

/**
 * A field as clients see it in one version: its shape without documentation, and its name. What a list query may
 * do with it is written only where it says more than `filterable` (older locks have none of it): `ops` when the
 * operators are other than `eq` alone, `sortable` and `expandable` when true.
 */
export interface FieldContract extends Omit<FieldShape<FieldContract>, 'description' | 'example' | 'ops' | 'sortable' | 'expandable'> {
  readonly name: string;
  readonly ops?: readonly FilterOp[];
  readonly sortable?: true;
  readonly expandable?: true;
}

/** A transition as clients see it in one version (its `from` states sorted). */
export interface TransitionContract {
  readonly name: string;
  readonly from: readonly string[];
  readonly to: string;
  readonly input: readonly FieldContract[];
  readonly scopes: readonly string[];
  readonly rateLimit?: RateLimitIR;
}

/** A lifecycle as clients see it in one version; its states are the values of `field`. */
export interface LifecycleContract {
  readonly field: string;
  readonly initial: string;
  readonly transitions: readonly TransitionContract[];
}

/** A collection as clients see it in one version. */
export interface CollectionContract {
  readonly name: string;
  readonly path: string;
  readonly typeName: string;
  readonly operations: readonly OperationName[];
  readonly public: readonly OperationName[];
  readonly scopes: { readonly read: readonly string[]; readonly write: readonly string[] };
  readonly pagination: { readonly defaultLimit: number; readonly maxLimit: number };
  /** The order of a list without `?sort=` (`-createdAt`), present only when the collection declares one. */
  readonly defaultSort?: string;
  readonly rateLimit?: RateLimitIR;
  readonly fields: readonly FieldContract[];
  /** Present only when the collection has a lifecycle (older locks have none). */
  readonly lifecycle?: LifecycleContract;
  /** Present (true) only when writes need If-Match. */
  readonly requireIfMatch?: true;
}

/** One version's wire contract. */
export interface VersionContract {
  readonly version: { readonly name: string; readonly released?: string; readonly deprecated?: string; readonly sunset?: string };
  readonly versioning: ApiIR['versioning'];
  readonly auth: {
    readonly bearer?: Record<string, never>;
    readonly apiKey?: { readonly header: string };
    /** Flows with their URLs, and the declared scope names (sorted; descriptions are documentation). */
    readonly oauth2?: { readonly flows: Readonly<Partial<Record<OAuthFlowKind, Omit<OAuthFlowIR, 'kind'>>>>; readonly scopes: readonly string[] };
  };
  readonly rateLimit?: RateLimitIR;
  /** The formats besides JSON (present only with XML; older locks have none). */
  readonly formats?: readonly WireFormat[];
  readonly collections: readonly CollectionContract[];
  /** The webhook event types the version sends (absent: none), by type. */
  readonly events?: readonly EventContract[];
}

/** A webhook event type: a collection's derived event, or a custom event with its payload. */
export interface EventContract {
  readonly type: string;
  readonly resource?: { readonly collection: string; readonly action: string; readonly state?: string };
  readonly payload?: readonly FieldContract[];
}

function eventContract(e: EventAt): EventContract {
  const s = e.source;
  return s.kind === 'custom'
    ? { type: e.type, payload: byName(s.payload.map(fieldContract)) }
    : { type: e.type, resource: { collection: s.collection, action: s.action, ...(s.state !== undefined ? { state: s.state } : {}) } };
}

function eventAtOf(e: EventContract, loc: SourceRef): EventAt {
  const r = e.resource;
  const source: EventAt['source'] = r
    ? { kind: 'resource', collection: r.collection, action: r.action as ResourceAction, ...(r.state !== undefined ? { state: r.state } : {}) }
    : { kind: 'custom', payload: (e.payload ?? []).map((x) => fieldAt(x, loc)) };
  return { kind: 'event-at', type: e.type, source, loc };
}

const byName = <T extends { readonly name: string }>(xs: readonly T[]): T[] => [...xs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
const sorted = (xs: readonly string[]): string[] => [...xs].sort();

function typeContract(t: TypeIR<FieldAt>): TypeContract {
  switch (t.kind) {
    case 'object':
      return { kind: 'object', fields: byName(t.fields.map(fieldContract)) };
    case 'array':
      return { ...t, of: typeContract(t.of) };
    case 'enum':
      return { kind: 'enum', values: sorted(t.values) };
    case 'file':
      return { kind: 'file', maxBytes: t.maxBytes, types: sorted(t.types) };
    default:
      return t;
  }
}

function fieldContract(f: FieldAt): FieldContract {
  const ops = f.ops.map((o) => o.op);
  return {
    name: f.name,
    type: typeContract(f.type),
    optional: f.optional,
    nullable: f.nullable,
    ...(f.default ? { default: { value: f.default.value } } : {}),
    readOnly: f.readOnly,
    writeOnly: f.writeOnly,
    unique: f.unique,
    filterable: f.filterable,
    ...(ops.length > 0 && !(ops.length === 1 && ops[0] === 'eq') ? { ops } : {}),
    ...(f.sortable !== false ? { sortable: true as const } : {}),
    ...(f.expandable !== false ? { expandable: true as const } : {}),
    deprecated: f.deprecated,
  };
}

/** `defaultSort` as the collection writes it, in the version's names (`-createdAt,title`). */
const defaultSortText = (q: QueryAt): string => q.defaultSort.map((k) => (k.direction === 'desc' ? '-' : '') + k.name).join(',');

function rate(r: RateLimitIR | undefined): { rateLimit?: RateLimitIR } {
  return r ? { rateLimit: { limit: r.limit, window: r.window, windowMs: r.windowMs } } : {};
}

function lifecycleContract(lc: LifecycleAt): LifecycleContract {
  return {
    field: lc.field,
    initial: lc.initial,
    transitions: byName(
      lc.transitions.map((t) => ({
        name: t.name,
        from: sorted(t.from),
        to: t.to,
        input: byName(t.input.map(fieldContract)),
        scopes: sorted(t.scopes),
        ...rate(t.rateLimit),
      })),
    ),
  };
}

type OAuth2Contract = NonNullable<VersionContract['auth']['oauth2']>;

function oauth2Contract(o: OAuth2IR): OAuth2Contract {
  return { flows: Object.fromEntries(o.flows.map(({ kind, ...urls }) => [kind, urls])), scopes: sorted(o.scopes.map((s) => s.name)) };
}

function oauth2OfContract(o: OAuth2Contract): OAuth2IR {
  const flows = (Object.keys(OAUTH_FLOWS) as OAuthFlowKind[]).flatMap((kind) => {
    const urls = o.flows[kind];
    return urls ? [{ kind, ...urls }] : [];
  });
  return { flows, scopes: o.scopes.map((name) => ({ name, description: '' })) };
}

/** The wire contract of `version` of `api`. */
export function contractOf(api: ApiIR, version: string): VersionContract {
  const at = project(api, version);
  const v = at.version;
  return {
    version: {
      name: v.name,
      ...(v.released ? { released: v.released } : {}),
      ...(v.deprecated ? { deprecated: v.deprecated } : {}),
      ...(v.sunset ? { sunset: v.sunset } : {}),
    },
    versioning: at.versioning.in === 'path' ? { in: 'path' } : { in: 'header', header: at.versioning.header },
    auth: {
      ...(at.auth.bearer ? { bearer: {} } : {}),
      ...(at.auth.apiKey ? { apiKey: { header: at.auth.apiKey.header } } : {}),
      ...(at.auth.oauth2 ? { oauth2: oauth2Contract(at.auth.oauth2) } : {}),
    },
    ...rate(at.rateLimit),
    ...(at.formats ? { formats: [...at.formats] } : {}),
    collections: byName(
      at.collections.map((c) => ({
        name: c.name,
        path: c.path,
        typeName: c.typeName,
        operations: [...c.operations],
        public: [...c.public],
        scopes: { read: sorted(c.scopes.read), write: sorted(c.scopes.write) },
        pagination: { defaultLimit: c.pagination.defaultLimit, maxLimit: c.pagination.maxLimit },
        ...(c.query.defaultSort.length > 0 ? { defaultSort: defaultSortText(c.query) } : {}),
        ...rate(c.rateLimit),
        fields: byName(c.fields.map(fieldContract)),
        ...(c.lifecycle ? { lifecycle: lifecycleContract(c.lifecycle) } : {}),
        ...(c.requireIfMatch ? { requireIfMatch: true as const } : {}),
      })),
    ),
    ...(at.events && at.events.length > 0 ? { events: [...at.events].sort((a, b) => (a.type < b.type ? -1 : 1)).map(eventContract) } : {}),
  };
}

function fieldAt(f: FieldContract, loc: SourceRef): FieldAt {
  const { ops, sortable, expandable, ...shape } = f;
  return {
    kind: 'field-at',
    key: f.name,
    loc,
    ...shape,
    ops: (ops ?? (f.filterable ? ['eq' as const] : [])).map((op) => ({ op })),
    sortable: sortable ? {} : false,
    expandable: expandable ? {} : false,
    type: typeAt(f.type, loc),
  };
}

function typeAt(t: TypeContract, loc: SourceRef): TypeIR<FieldAt> {
  if (t.kind === 'object') return { kind: 'object', fields: t.fields.map((x) => fieldAt(x, loc)) };
  if (t.kind === 'array') return { ...t, of: typeAt(t.of, loc) };
  return t;
}

function lifecycleAtOf(lc: LifecycleContract, fields: readonly FieldAt[], loc: SourceRef): LifecycleAt {
  const type = fields.find((f) => f.name === lc.field)?.type;
  return {
    kind: 'lifecycle-at',
    field: lc.field,
    key: lc.field,
    states: type?.kind === 'enum' ? type.values : [],
    initial: lc.initial,
    transitions: lc.transitions.map((t) => ({
      kind: 'transition-at',
      name: t.name,
      from: t.from,
      to: t.to,
      input: t.input.map((x) => fieldAt(x, loc)),
      scopes: t.scopes,
      ...(t.rateLimit ? { rateLimit: t.rateLimit } : {}),
      loc,
    })),
    loc,
  };
}

/** A locked contract as a projection the diff engine can compare (locations point at `lockFile`). */
export function apiAtOfContract(apiName: string, contract: VersionContract, lockFile: string): ApiAt {
  const loc: SourceRef = { file: lockFile, line: 1, member: '' };
  const oauth2 = contract.auth.oauth2;
  const auth: AuthIR = {
    ...(contract.auth.bearer ? { bearer: {} } : {}),
    ...(contract.auth.apiKey ? { apiKey: contract.auth.apiKey } : {}),
    ...(oauth2 ? { oauth2: oauth2OfContract(oauth2) } : {}),
  };
  const collections: CollectionAt[] = contract.collections.map(({ lifecycle, requireIfMatch, defaultSort, ...c }) => {
    const fields = c.fields.map((x) => fieldAt(x, loc));
    return {
      kind: 'collection-at',
      key: c.name,
      loc,
      ...c,
      fields,
      query: queryOf(fields, defaultSortOfText(defaultSort)),
      requireIfMatch: requireIfMatch === true,
      ...(lifecycle ? { lifecycle: lifecycleAtOf(lifecycle, fields, loc) } : {}),
      // The name is the built-in webhook endpoints' alone (RG360): what it serves besides its fields is restgen's own.
      ...(c.name === WEBHOOK_ENDPOINTS ? { builtin: 'webhook-endpoints' as const } : {}),
    };
  });
  return {
    kind: 'api-at',
    name: apiName,
    title: apiName,
    version: { kind: 'version', index: 0, ...contract.version },
    versioning: contract.versioning,
    auth,
    ...(contract.rateLimit ? { rateLimit: contract.rateLimit } : {}),
    ...(contract.formats ? { formats: contract.formats } : {}),
    collections,
    ...(contract.events ? { events: contract.events.map((e) => eventAtOf(e, loc)) } : {}),
    // Where the API is served and how its documents are written are not part of a version's wire contract.
    servers: [],
    openapi: { implicitMethods: false },
  };
}
