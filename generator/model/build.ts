/**
 * @module Stage "build": the `defineApi()` data becomes the {@link ApiIR}. Problems local to one
 * declaration are reported here; problems that need the whole API are in `check.ts`.
 */
import type { ApiDef, CollectionDef } from '../dsl/defs.ts';
import { buildAuth, type CheckedAuth } from './build-auth.ts';
import { checkDateOrder, versioningOf, versionsOf, type WrittenVersioning, type WrittenVersions } from './build-versions.ts';
import { buildField, isIdentifier, knownMarkers, type FieldContext } from './build-field.ts';
import { buildCollectionEvents, buildCustomEvents } from './build-events.ts';
import { buildLifecycle, type CheckedLifecycle } from './build-lifecycle.ts';
import { openApiOf, serversOf, type WrittenServers } from './build-servers.ts';
import { DEFAULT_WEBHOOK_SCOPES, WEBHOOK_ENDPOINTS, webhookEndpointsDef } from './webhook-endpoints.ts';
import { describeValue } from '../dsl/arguments.ts';
import { collectionEntries, fieldEntries, reportSlips } from './check-builders.ts';
import type { CollectionReuse } from './collection-reuse.ts';
import { atPath, refOf, type DiagnosticBag } from './diagnostics.ts';
import { API_OPTIONS, checkShape, COLLECTION_OPTIONS } from './option-shapes.ts';
import { defaultSortOf } from './check-query.ts';
import { type CheckedRateLimit, operationsOf, rateLimitOf, scopeList } from './build-operations.ts';
import { OPERATIONS, takesCredentials, type WireFormat, type Rename, type ApiIR, type CollectionIR, type SourceRef } from './ir.ts';

const PATH_SEGMENT = /^[a-z0-9][a-z0-9._~-]*$/;

/** `defineApi`'s options after {@link API_OPTIONS} checked their shape; values its own rules check stay `unknown`. */
interface CheckedApi {
  readonly name?: unknown;
  readonly title?: string;
  readonly description?: string;
  readonly versions?: WrittenVersions;
  readonly versioning?: WrittenVersioning;
  readonly auth?: CheckedAuth;
  readonly rateLimit?: CheckedRateLimit;
  readonly formats?: unknown;
  readonly collections?: Readonly<Record<string, unknown>>;
  readonly events?: Readonly<
    Record<
      string,
      | { readonly payload?: Readonly<Record<string, unknown>>; readonly description?: string; readonly addedIn?: string; readonly removedIn?: string }
      | undefined
    >
  >;
  readonly webhooks?: { readonly scopes?: { readonly read?: string | readonly string[]; readonly write?: string | readonly string[] } };
  readonly mcp?: boolean;
  readonly servers?: WrittenServers;
  readonly openapi?: { readonly implicitMethods?: boolean };
}

/** `collection`'s options after {@link COLLECTION_OPTIONS} checked their shape. */
interface CheckedCollection {
  readonly fields?: Readonly<Record<string, unknown>>;
  readonly path?: string;
  readonly singular?: string;
  readonly description?: string;
  readonly operations?: readonly unknown[];
  readonly scopes?: { readonly read?: string | readonly string[]; readonly write?: string | readonly string[] };
  readonly rateLimit?: CheckedRateLimit;
  readonly public?: readonly unknown[];
  readonly pagination?: { readonly defaultLimit?: unknown; readonly maxLimit?: unknown };
  readonly defaultSort?: string;
  readonly lifecycle?: CheckedLifecycle;
  readonly requireIfMatch?: boolean;
  readonly events?: readonly unknown[];
}

function collectionOf(name: string, def: CollectionDef, ctx: FieldContext, hasAuth: boolean): CollectionIR {
  const d = ctx.diagnostics;
  const ref = refOf(def.site, ctx.fallback);
  const where = name;
  reportSlips(def.slips, where, ref, d);
  const o = (checkShape(def.options, COLLECTION_OPTIONS, where, ref, d) ?? {}) as CheckedCollection;
  if (!isIdentifier(name)) d.error('RG120', `collection "${name}" is not a valid name; use letters, digits and _ (it names generated code).`, ref);
  if (o.path !== undefined && !PATH_SEGMENT.test(o.path))
    d.error('RG124', `${where}: path '${o.path}' must be one lowercase URL segment (letters, digits, '-', '_', '.'), without slashes.`, atPath(ref, ['path']));
  const fctx = { ...ctx, fallback: ref };
  const entries = fieldEntries(o.fields ?? {}, where, ref, d, ['fields']);
  // Fields written with a mistake of their own (not a builder, or a builder that reported one): rules that name a
  // field (the lifecycle's) do not blame these again.
  const faulty = new Set(Object.keys(o.fields ?? {}).filter((k) => !entries.some(([e]) => e === k)));
  const fields = entries.map(([fname, field]) => {
    const before = d.errorCount;
    const built = buildField(fname, field, `${name}.${fname}`, fctx);
    if (d.errorCount > before) faulty.add(fname);
    return built;
  });
  const ids = fields.filter((field) => field.type.kind === 'id');
  // A field that is not a builder was reported (RG170, RG172); it may well be the id.
  if (ids.length === 0 && entries.length === Object.keys(o.fields ?? {}).length)
    d.error('RG122', `${where} has no id field; add one, e.g. id: f.id().`, atPath(ref, ['fields']));
  for (const extra of ids.slice(1))
    d.error('RG123', `${where}: ${extra.name} is a second f.id() field; a collection has exactly one (use f.ref() or f.uuid() for other ids).`, extra.loc);
  const { ops: operations, complete: operationsComplete } = operationsOf(o.operations ?? OPERATIONS, where, fctx, ref);
  const { ops: publicOps } = operationsOf(o.public ?? [], where, fctx, ref, 'public');
  for (const op of publicOps)
    if (operationsComplete && !operations.some((x) => x.name === op.name))
      d.error(
        'RG112',
        `${where}: public lists '${op.name}', which the collection does not offer; add it to operations or remove it from public.`,
        atPath(ref, ['public']),
      );
  const scopes = { read: scopeList(o.scopes?.read), write: scopeList(o.scopes?.write) };
  if (!hasAuth && (scopes.read.length > 0 || scopes.write.length > 0))
    d.error(
      'RG111',
      `${where}: scopes are declared but the API has no auth; add auth: { oauth2: {...} } (or bearer, or apiKey) to defineApi, or remove the scopes.`,
      atPath(ref, ['scopes']),
    );
  const pageLimit = (v: unknown, fallback: number): number => (v === undefined ? fallback : typeof v === 'number' ? v : NaN);
  const defaultLimit = pageLimit(o.pagination?.defaultLimit, 20);
  const maxLimit = pageLimit(o.pagination?.maxLimit, 100);
  if (!Number.isInteger(defaultLimit) || !Number.isInteger(maxLimit) || defaultLimit < 1 || defaultLimit > maxLimit)
    d.error(
      'RG114',
      `${where}: pagination needs whole numbers with 1 <= defaultLimit <= maxLimit (got ${String(o.pagination?.defaultLimit ?? defaultLimit)} and ${String(o.pagination?.maxLimit ?? maxLimit)}).`,
      atPath(ref, ['pagination']),
    );
  const markers = knownMarkers(def.markers, where, fctx, ref);
  let addedIn: string | undefined;
  let removedIn: string | undefined;
  const renames: Rename[] = [];
  for (const m of markers) {
    const mref = refOf(m.site, ref);
    if (m.kind === 'addedIn') addedIn = m.version;
    else if (m.kind === 'removedIn') removedIn = m.version;
    else if (m.kind === 'renamedFrom') {
      if (!isIdentifier(m.from) || m.from === name)
        d.error('RG153', `${where}: renamedFrom('${m.from}', '${m.version}') must name a different, valid collection name.`, mref);
      else if (ctx.versions.indexOf(m.version) === 0)
        d.error('RG163', `${where}: renamedFrom('${m.from}', '${m.version}') names the first version; remove the marker.`, mref);
      else renames.push({ from: m.from, version: m.version, loc: mref });
    }
  }
  renames.sort((a, b) => ctx.versions.indexOf(a.version) - ctx.versions.indexOf(b.version));
  const rateLimit = rateLimitOf(o.rateLimit, where, d, atPath(ref, ['rateLimit']));
  const built = o.lifecycle
    ? buildLifecycle(o.lifecycle, { ...fctx, where, ref, fields, faulty, operations, hasAuth, rateLimitOf: (def, w, at) => rateLimitOf(def, w, d, at) })
    : undefined;
  const lifecycle = built?.ir;
  const events = o.events
    ? buildCollectionEvents(o.events, {
        ...fctx,
        where,
        name,
        ...(o.singular !== undefined ? { singular: o.singular } : {}),
        ref,
        operations,
        operationsComplete,
        ...(built ? { lifecycle: built } : {}),
      })
    : [];
  return {
    kind: 'collection',
    name,
    path: o.path ?? name,
    explicitPath: o.path !== undefined,
    ...(o.singular !== undefined ? { singular: o.singular } : {}),
    ...(o.description !== undefined ? { description: o.description } : {}),
    fields,
    operations,
    scopes,
    ...(rateLimit ? { rateLimit } : {}),
    public: publicOps,
    pagination: { defaultLimit, maxLimit },
    defaultSort: defaultSortOf(o.defaultSort, fields, where, d, atPath(ref, ['defaultSort'])),
    ...(lifecycle ? { lifecycle } : {}),
    requireIfMatch: o.requireIfMatch === true,
    ...(events.length > 0 ? { events } : {}),
    ...(addedIn !== undefined ? { addedIn } : {}),
    ...(removedIn !== undefined ? { removedIn } : {}),
    renames,
    loc: ref,
    calls: def.calls,
  };
}

/**
 * The collections, with `webhook_endpoints` added when the API declares any event, and the custom events.
 * Checks that the names are free (RG360: `webhook_endpoints`, and `events`, the event stream's path) and that `webhooks` options have events to go with (RG361).
 */
function eventsOf(api: CheckedApi, built: CollectionIR[], ctx: FieldContext, hasAuth: boolean): Pick<ApiIR, 'collections' | 'events'> {
  const d = ctx.diagnostics;
  const apiRef = ctx.fallback;
  const derived = built.flatMap((c) => (c.events ?? []).map((e) => e.type));
  const events = buildCustomEvents(api.events ?? {}, derived, ctx, apiRef);
  const types = [...derived, ...events.map((e) => e.type)];
  if (types.length === 0) {
    if (api.webhooks !== undefined)
      d.error(
        'RG361',
        `defineApi: webhooks is set but the API declares no events; add events to a collection (events: ['created']) or to defineApi, or remove webhooks.`,
        { ...apiRef, path: ['webhooks'] },
      );
    return { collections: built, ...(api.events !== undefined ? { events } : {}) };
  }
  // restgen serves both in every version of an API with events: the endpoints collection, and the event stream.
  const taken = [WEBHOOK_ENDPOINTS, 'events'];
  const clash = built.find((c) => taken.includes(c.name) || taken.includes(c.path));
  if (clash) {
    const name = taken.includes(clash.name) ? clash.name : clash.path;
    const what = name === WEBHOOK_ENDPOINTS ? 'the webhook endpoints' : 'the event stream (GET /vN/events)';
    d.error(
      'RG360',
      `${clash.name}: ${name} is taken by ${what} restgen adds to an API with events; rename the collection or give it another path.`,
      clash.loc,
    );
    return { collections: built, events };
  }
  const written = api.webhooks?.scopes;
  if (written && !hasAuth)
    d.error('RG111', `webhooks: scopes are declared but the API has no auth; add auth: { bearer: {} } (or apiKey) to defineApi, or remove the scopes.`, {
      ...apiRef,
      path: ['webhooks', 'scopes'],
    });
  const scopes = hasAuth ? (written ?? DEFAULT_WEBHOOK_SCOPES) : undefined;
  const endpoints = collectionOf(
    WEBHOOK_ENDPOINTS,
    webhookEndpointsDef(types[0]!, ctx.versions[0] ?? '', scopes),
    { ...ctx, fallback: { ...apiRef, path: ['webhooks'] } },
    hasAuth,
  );
  return { collections: [...built, { ...endpoints, builtin: 'webhook-endpoints', loc: { ...apiRef, path: ['webhooks'] } }], events };
}

/** `formats` as written: JSON and optionally XML, each once (RG414); undefined for JSON only. */
function formatsOf(written: unknown, d: DiagnosticBag, at: SourceRef): readonly WireFormat[] | undefined {
  if (written === undefined) return undefined;
  const list = Array.isArray(written) ? (written as unknown[]) : [];
  const known = list.every((f) => f === 'json' || f === 'xml');
  const twice = list.find((f, i) => list.indexOf(f) !== i);
  if (!Array.isArray(written) || !known || !list.includes('json') || twice !== undefined) {
    const why = !Array.isArray(written)
      ? `got ${describeValue(written)}`
      : !known
        ? `${describeValue(list.find((f) => f !== 'json' && f !== 'xml'))} is not a format`
        : twice !== undefined
          ? `'${String(twice)}' is listed twice`
          : "JSON is always served, so 'json' must be listed";
    d.error('RG414', `defineApi: formats must be ['json'] or ['json', 'xml'] (${why}).`, at);
    return undefined;
  }
  return list.includes('xml') ? ['json', 'xml'] : undefined;
}

/**
 * Builds the IR of an API definition, reporting problems into `diagnostics`. With `reuse` (`--watch`), a
 * collection whose definition and context are unchanged since the last build is not built again.
 */
export function buildApi(def: ApiDef, source: string, diagnostics: DiagnosticBag, reuse?: CollectionReuse): ApiIR {
  const apiRef = refOf(def.site, { file: source, line: 1, member: 'defineApi' });
  const api = (checkShape(def.options, API_OPTIONS, 'defineApi', apiRef, diagnostics) ?? {}) as CheckedApi;
  const name = typeof api.name === 'string' ? api.name : '';
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name))
    diagnostics.error(
      'RG100',
      `defineApi: name '${String(api.name)}' must be letters and digits, starting with a letter (it names generated symbols like registerShopApi).`,
      atPath(apiRef, ['name']),
    );
  // A versions value of the wrong kind was reported already (RG175); "versions is empty" would repeat it.
  const rawVersions = typeof def.options === 'object' && def.options !== null ? (def.options as { versions?: unknown }).versions : undefined;
  const versions = versionsOf(api.versions, diagnostics, apiRef, rawVersions === undefined || api.versions !== undefined);
  const ctx: FieldContext = { versions: versions.map((v) => v.name), diagnostics, fallback: apiRef };
  const versioning = versioningOf(api.versioning, versions, diagnostics, apiRef);
  checkDateOrder(versions, versioning, diagnostics, apiRef);
  const auth = buildAuth(api.auth ?? {}, diagnostics, apiRef);
  const hasAuth = takesCredentials(auth);
  const rateLimit = rateLimitOf(api.rateLimit, 'defineApi', diagnostics, atPath(apiRef, ['rateLimit']));
  const servers = serversOf(api.servers, diagnostics, apiRef);
  const formats = formatsOf(api.formats, diagnostics, atPath(apiRef, ['formats']));
  const session = reuse?.start({ versions: ctx.versions, hasAuth, fallback: apiRef });
  const collections = collectionEntries(api.collections ?? {}, apiRef, diagnostics).map(([cname, c]) =>
    session
      ? session.collection(cname, c, (bag) => collectionOf(cname, c, { ...ctx, diagnostics: bag }, hasAuth), diagnostics)
      : collectionOf(cname, c, ctx, hasAuth),
  );
  session?.finish();
  return {
    kind: 'api',
    name,
    title: api.title ?? name,
    ...(api.description !== undefined ? { description: api.description } : {}),
    versions,
    versioning,
    auth,
    ...(rateLimit ? { rateLimit } : {}),
    ...(formats ? { formats } : {}),
    ...eventsOf(api, collections, ctx, hasAuth),
    ...(api.mcp === false ? { mcp: false as const } : {}),
    servers,
    openapi: openApiOf(api.openapi),
    source,
    loc: apiRef,
  };
}
