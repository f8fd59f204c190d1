/**
 * @module Stage "build": the `defineApi()` data becomes the {@link ApiIR}. Problems local to one
 * declaration are reported here; problems that need the whole API are in `check.ts`.
 */
import type { ApiDef, CollectionDef, OperationName, RateLimitDef } from '../dsl/defs.ts';
import { buildField, isIdentifier, knownMarkers, type FieldContext } from './build-field.ts';
import { atPath, refOf, type DiagnosticBag } from './diagnostics.ts';
import { OPERATIONS, type Rename, type ApiIR, type CollectionIR, type OperationIR, type RateLimitIR, type SourceRef, type VersionIR } from './ir.ts';
import { isIsoDate } from './values.ts';

const VERSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const PATH_SEGMENT = /^[a-z0-9][a-z0-9._~-]*$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
// Version names become folder and file names next to these generated ones.
const RESERVED_VERSION_NAMES = new Set(['server', 'client', 'openapi', 'runtime', 'collections', 'zod-helpers', 'changes.md', 'index', 'types', 'routes']);
const WINDOW = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

function rateLimitOf(def: RateLimitDef | undefined, where: string, d: DiagnosticBag, ref: SourceRef): RateLimitIR | undefined {
  if (!def) return undefined;
  const m = WINDOW.exec(String(def.window));
  if (!Number.isInteger(def.limit) || def.limit < 1 || !m) {
    d.error('RG113', `${where}: rateLimit needs a whole limit of at least 1 and a window like '1s', '1m', '15m', '1h' or '1d' (got limit ${def.limit}, window '${def.window}').`, ref);
    return undefined;
  }
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  return { limit: def.limit, window: def.window, windowMs: ms };
}

function scopeList(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : [...value];
}

function versionsOf(def: ApiDef, d: DiagnosticBag, apiRef: SourceRef): VersionIR[] {
  const entries = Object.entries(def.versions ?? {});
  if (entries.length === 0)
    d.error('RG101', `defineApi: versions is empty; declare at least one, e.g. versions: { v1: {} }.`, atPath(apiRef, ['versions']));
  let seenUnreleased: string | undefined;
  return entries.map(([name, v], index) => {
    const ref = atPath(apiRef, ['versions', name]);
    if (!VERSION_NAME.test(name))
      d.error('RG102', `version "${name}" is not a valid version name; use letters, digits, '.', '_' or '-' (like v1 or 2026-01).`, ref);
    else if (RESERVED_VERSION_NAMES.has(name.toLowerCase()))
      d.error('RG107', `version "${name}" would collide with generated files of the same name (${[...RESERVED_VERSION_NAMES].join(', ')} are taken); call it v1, v2, ... or by date.`, ref);
    for (const key of ['released', 'deprecated', 'sunset'] as const) {
      const date = v[key];
      if (date !== undefined && !isIsoDate(date))
        d.error('RG103', `version ${name}: ${key} '${date}' is not a real date in YYYY-MM-DD form.`, atPath(apiRef, ['versions', name, key]));
    }
    const order = [['released', v.released], ['deprecated', v.deprecated], ['sunset', v.sunset]] as const;
    for (let i = 0; i < order.length; i++)
      for (let j = i + 1; j < order.length; j++) {
        const [a, da] = order[i]!;
        const [b, db] = order[j]!;
        if (da && db && isIsoDate(da) && isIsoDate(db) && db < da)
          d.error('RG104', `version ${name}: ${b} (${db}) comes before ${a} (${da}); a version is released, then deprecated, then sunset.`, atPath(apiRef, ['versions', name, b]));
      }
    if ((v.deprecated || v.sunset) && !v.released)
      d.error('RG104', `version ${name} has a deprecated or sunset date but no released date; add released: 'YYYY-MM-DD'.`, ref);
    if (!v.released) seenUnreleased ??= name;
    else if (seenUnreleased)
      d.error('RG105', `version ${name} is released but the earlier version ${seenUnreleased} is not; versions are released in order, so release ${seenUnreleased} first or reorder them.`, ref);
    return {
      kind: 'version',
      name,
      index,
      ...(v.released ? { released: v.released } : {}),
      ...(v.deprecated ? { deprecated: v.deprecated } : {}),
      ...(v.sunset ? { sunset: v.sunset } : {}),
    };
  });
}

function operationsOf(def: CollectionDef, where: string, ctx: FieldContext, ref: SourceRef): OperationIR[] {
  const written = def.options.operations ?? OPERATIONS;
  const ops: OperationIR[] = [];
  for (const entry of written) {
    const op = typeof entry === 'string' ? { name: entry } : entry;
    const oref = atPath(ref, ['operations']);
    if (!OPERATIONS.includes(op.name)) {
      ctx.diagnostics.error('RG115', `${where}: unknown operation '${op.name}'; the operations are ${OPERATIONS.join(', ')}.`, oref);
      continue;
    }
    if (ops.some((o) => o.name === op.name)) {
      ctx.diagnostics.error('RG116', `${where}: operation '${op.name}' is listed twice; keep one.`, oref);
      continue;
    }
    for (const v of [op.addedIn, op.removedIn])
      if (v !== undefined && !ctx.versions.includes(v))
        ctx.diagnostics.error('RG150', `${where}: operation '${op.name}' names unknown version '${v}'; the API declares ${ctx.versions.join(', ')}.`, oref);
    ops.push({
      kind: 'operation',
      name: op.name,
      ...(op.addedIn && ctx.versions.includes(op.addedIn) ? { addedIn: op.addedIn } : {}),
      ...(op.removedIn && ctx.versions.includes(op.removedIn) ? { removedIn: op.removedIn } : {}),
    });
  }
  // Emit operations in one fixed order, whatever order the user listed them in.
  return ops.sort((a, b) => OPERATIONS.indexOf(a.name) - OPERATIONS.indexOf(b.name));
}

function collectionOf(name: string, def: CollectionDef, ctx: FieldContext, hasAuth: boolean): CollectionIR {
  const d = ctx.diagnostics;
  const ref = refOf(def.site, ctx.fallback);
  const where = name;
  const o = def.options;
  if (!isIdentifier(name))
    d.error('RG120', `collection "${name}" is not a valid name; use letters, digits and _ (it names generated code).`, ref);
  if (o.path !== undefined && !PATH_SEGMENT.test(o.path))
    d.error('RG124', `${where}: path '${o.path}' must be one lowercase URL segment (letters, digits, '-', '_', '.'), without slashes.`, atPath(ref, ['path']));
  const fctx = { ...ctx, fallback: ref };
  const fields = Object.entries(o.fields ?? {}).map(([fname, field]) => buildField(fname, field.def, `${name}.${fname}`, fctx));
  const ids = fields.filter((field) => field.type.kind === 'id');
  if (ids.length === 0)
    d.error('RG122', `${where} has no id field; add one, e.g. id: f.id().`, atPath(ref, ['fields']));
  for (const extra of ids.slice(1))
    d.error('RG123', `${where}: ${extra.name} is a second f.id() field; a collection has exactly one (use f.ref() or f.uuid() for other ids).`, extra.loc);
  const operations = operationsOf(def, where, fctx, ref);
  const publicOps = [...(o.public ?? [])];
  for (const op of publicOps)
    if (!operations.some((x) => x.name === op))
      d.error('RG112', `${where}: public lists '${op}', which the collection does not offer; add it to operations or remove it from public.`, atPath(ref, ['public']));
  const scopes = { read: scopeList(o.scopes?.read), write: scopeList(o.scopes?.write) };
  if (!hasAuth && (scopes.read.length > 0 || scopes.write.length > 0))
    d.error('RG111', `${where}: scopes are declared but the API has no auth; add auth: { bearer: {} } (or apiKey) to defineApi, or remove the scopes.`, atPath(ref, ['scopes']));
  const defaultLimit = o.pagination?.defaultLimit ?? 20;
  const maxLimit = o.pagination?.maxLimit ?? 100;
  if (!Number.isInteger(defaultLimit) || !Number.isInteger(maxLimit) || defaultLimit < 1 || defaultLimit > maxLimit)
    d.error('RG114', `${where}: pagination needs whole numbers with 1 <= defaultLimit <= maxLimit (got ${defaultLimit} and ${maxLimit}).`, atPath(ref, ['pagination']));
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
    public: OPERATIONS.filter((op) => publicOps.includes(op as OperationName)),
    pagination: { defaultLimit, maxLimit },
    ...(addedIn !== undefined ? { addedIn } : {}),
    ...(removedIn !== undefined ? { removedIn } : {}),
    renames,
    loc: ref,
    calls: def.calls,
  };
}

/** Builds the IR of an API definition, reporting problems into `diagnostics`. */
export function buildApi(def: ApiDef, source: string, diagnostics: DiagnosticBag): ApiIR {
  const apiRef = refOf(def.site, { file: source, line: 1, member: 'defineApi' });
  if (typeof def.name !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(def.name))
    diagnostics.error('RG100', `defineApi: name '${def.name}' must be letters and digits, starting with a letter (it names generated symbols like registerShopApi).`, atPath(apiRef, ['name']));
  const versions = versionsOf(def, diagnostics, apiRef);
  const ctx: FieldContext = { versions: versions.map((v) => v.name), diagnostics, fallback: apiRef };
  const versioningDef = def.versioning ?? { in: 'path' };
  let versioning: ApiIR['versioning'] = { in: 'path' };
  if (versioningDef.in === 'header') {
    const header = versioningDef.header ?? 'Api-Version';
    if (!HEADER_NAME.test(header))
      diagnostics.error('RG106', `versioning: '${header}' is not a valid HTTP header name.`, atPath(apiRef, ['versioning']));
    versioning = { in: 'header', header };
  } else if (versioningDef.in !== 'path') {
    diagnostics.error('RG106', `versioning.in must be 'path' or 'header' (got '${String((versioningDef as { in: unknown }).in)}').`, atPath(apiRef, ['versioning']));
  }
  const auth = def.auth ?? {};
  if (auth.apiKey && !HEADER_NAME.test(auth.apiKey.header ?? ''))
    diagnostics.error('RG110', `auth.apiKey.header '${auth.apiKey.header}' is not a valid HTTP header name; for example 'X-API-Key'.`, atPath(apiRef, ['auth', 'apiKey']));
  const hasAuth = Boolean(auth.bearer || auth.apiKey);
  const rateLimit = rateLimitOf(def.rateLimit, 'defineApi', diagnostics, atPath(apiRef, ['rateLimit']));
  return {
    kind: 'api',
    name: def.name,
    title: def.title ?? def.name,
    ...(def.description !== undefined ? { description: def.description } : {}),
    versions,
    versioning,
    auth: {
      ...(auth.bearer ? { bearer: auth.bearer } : {}),
      ...(auth.apiKey ? { apiKey: auth.apiKey } : {}),
    },
    ...(rateLimit ? { rateLimit } : {}),
    collections: Object.entries(def.collections ?? {}).map(([name, c]) => collectionOf(name, c, ctx, hasAuth)),
    source,
  };
}
