/**
 * @module Compares one collection between two projections: its path and names, operations, who may call
 * them (public operations, scopes), list limits and rate limits, then its fields.
 */
import { atPath } from '../model/diagnostics.ts';
import { takesCredentials, type ApiAt, type AuthIR, type CollectionAt, type OperationName, type RateLimitIR, type SourceRef } from '../model/ir.ts';
import { both, touchesOf, type FindingCollector } from './collector.ts';
import { compareCollectionFields, type FieldDiffContext } from './diff-fields.ts';
import { compareLifecycles } from './diff-lifecycle.ts';

const ACCESS: { readonly read: readonly OperationName[]; readonly write: readonly OperationName[] } = {
  read: ['list', 'get'],
  write: ['create', 'replace', 'update', 'delete'],
};

/** True when the API accepts any credential at all. */
export function hasAuth(auth: AuthIR): boolean {
  return takesCredentials(auth);
}

/** Whether `op` of `c` can be called without a credential. */
export function isPublic(api: ApiAt, c: CollectionAt, op: OperationName): boolean {
  return !hasAuth(api.auth) || c.public.includes(op);
}

const list = (ops: readonly string[]) => ops.join(', ');

/** ` with scope a, b` when `ops` of `c` need scopes (their access's), else nothing. */
function scopesOf(c: CollectionAt, ops: readonly OperationName[]): string {
  const scopes = [...new Set((['read', 'write'] as const).flatMap((access) => (ops.some((op) => ACCESS[access].includes(op)) ? c.scopes[access] : [])))];
  return scopes.length === 0 ? '' : ` with scope${scopes.length === 1 ? '' : 's'} ${list(scopes)}`;
}

function rateOf(api: ApiAt, c: CollectionAt): RateLimitIR | undefined {
  return c.rateLimit ?? api.rateLimit;
}

/** Where a collection option is written: the property of `collection({...})`, e.g. `scopes.write`. */
export function optionLoc(c: CollectionAt, ...path: string[]): SourceRef {
  return atPath(c.loc, path);
}

function compareRateLimits(out: FindingCollector, b: ApiAt, a: ApiAt, cb: CollectionAt, ca: CollectionAt, ops: readonly OperationName[]): void {
  const rb = rateOf(b, cb);
  const ra = rateOf(a, ca);
  const text = (r: RateLimitIR | undefined) => (r ? `${r.limit} per ${r.window}` : 'no limit');
  const per = (r: RateLimitIR | undefined) => (r ? r.limit / r.windowMs : Infinity);
  if (per(rb) === per(ra)) return;
  const touches = { request: touchesOf(a, ca, ops), response: [] };
  const message = `${ca.name}: rate limit ${text(rb)} → ${text(ra)}`;
  // The collection's own rateLimit when it has one (or had one), else the API-wide one.
  const loc = ca.rateLimit || cb.rateLimit || !a.loc ? optionLoc(ca, 'rateLimit') : atPath(a.loc, ['rateLimit']);
  out.add(per(ra) < per(rb) ? 'rate-limit-lowered' : 'rate-limit-raised', ca.name, message, touches, loc, {
    aspect: 'rateLimit',
    before: text(rb),
    after: text(ra),
  });
}

/** Compares collection `before.collection` with `after.collection` (already paired). */
export function compareCollection(ctx: FieldDiffContext): void {
  const { out, before, after } = ctx;
  const b = before.collection;
  const a = after.collection;
  const at = a.name;
  const declared = (member: string) => (ctx.match === 'key' ? a.calls?.[member] : undefined) ?? a.loc;
  if (b.path !== a.path)
    out.add(
      'collection-path-changed',
      at,
      `${b.name} moved from /${b.path} to /${a.path}: every route of it changed`,
      both(touchesOf(before.api, b, b.operations)),
      declared('renamedFrom'),
      { aspect: 'path', before: b.path, after: a.path },
    );
  else if (b.name !== a.name)
    out.add(
      'collection-renamed',
      at,
      `${b.name} was renamed to ${a.name} at the same path: the wire is unchanged, generated client members and types are renamed`,
      both(touchesOf(after.api, a, a.operations)),
      declared('renamedFrom'),
      { aspect: 'name', before: b.name, after: a.name },
    );
  else if (b.typeName !== a.typeName)
    out.add('type-renamed', at, `${at}: generated type ${b.typeName} is now ${a.typeName}`, both(touchesOf(after.api, a, a.operations)), a.loc, {
      aspect: 'typeName',
      before: b.typeName,
      after: a.typeName,
    });

  const removed = b.operations.filter((op) => !a.operations.includes(op));
  const added = a.operations.filter((op) => !b.operations.includes(op));
  const operations = { aspect: 'operations', before: b.operations, after: a.operations };
  if (removed.length)
    out.add('operation-removed', at, `${at}: ${list(removed)} removed`, both(touchesOf(before.api, b, removed)), optionLoc(a, 'operations'), operations);
  if (added.length) out.add('operation-added', at, `${at}: ${list(added)} added`, both(touchesOf(after.api, a, added)), optionLoc(a, 'operations'), operations);

  const ops = a.operations.filter((op) => b.operations.includes(op));
  const request = (xs: readonly OperationName[]) => ({ request: touchesOf(after.api, a, xs), response: [] });
  const closed = ops.filter((op) => isPublic(before.api, b, op) && !isPublic(after.api, a, op));
  const opened = ops.filter((op) => !isPublic(before.api, b, op) && isPublic(after.api, a, op));
  const publicOps = { aspect: 'public', before: ops.filter((op) => isPublic(before.api, b, op)), after: ops.filter((op) => isPublic(after.api, a, op)) };
  if (closed.length)
    out.add(
      'operation-no-longer-public',
      at,
      `${at}: ${list(closed)} now need${closed.length === 1 ? 's' : ''} a credential${scopesOf(a, closed)}`,
      request(closed),
      optionLoc(a, 'public'),
      publicOps,
    );
  if (opened.length)
    out.add(
      'operation-became-public',
      at,
      `${at}: ${list(opened)} no longer need${opened.length === 1 ? 's' : ''} a credential`,
      request(opened),
      optionLoc(a, 'public'),
      publicOps,
    );

  for (const access of ['read', 'write'] as const) {
    const guarded = ops.filter((op) => ACCESS[access].includes(op) && !isPublic(before.api, b, op) && !isPublic(after.api, a, op));
    if (!guarded.length) continue;
    const more = a.scopes[access].filter((s) => !b.scopes[access].includes(s));
    const fewer = b.scopes[access].filter((s) => !a.scopes[access].includes(s));
    const names = (xs: readonly string[]) => xs.map((s) => `'${s}'`).join(', ');
    const scopes = { aspect: `scopes.${access}`, before: [...b.scopes[access]].sort(), after: [...a.scopes[access]].sort() };
    const loc = optionLoc(a, 'scopes', access);
    if (more.length)
      out.add('scope-added', at, `${at}: ${list(guarded)} now also need${guarded.length === 1 ? 's' : ''} scope ${names(more)}`, request(guarded), loc, scopes);
    if (fewer.length)
      out.add(
        'scope-removed',
        at,
        `${at}: ${list(guarded)} no longer need${guarded.length === 1 ? 's' : ''} scope ${names(fewer)}`,
        request(guarded),
        loc,
        scopes,
      );
  }

  if (ops.includes('list')) {
    const pb = b.pagination;
    const pa = a.pagination;
    if (pb.defaultLimit !== pa.defaultLimit)
      out.add(
        'list-default-limit-changed',
        at,
        `${at} list: default page size ${pb.defaultLimit} → ${pa.defaultLimit}`,
        request(['list']),
        optionLoc(a, 'pagination', 'defaultLimit'),
        { aspect: 'defaultLimit', before: pb.defaultLimit, after: pa.defaultLimit },
      );
    if (pb.maxLimit !== pa.maxLimit)
      out.add(
        pa.maxLimit < pb.maxLimit ? 'list-max-limit-lowered' : 'list-max-limit-raised',
        at,
        `${at} list: maximum page size ${pb.maxLimit} → ${pa.maxLimit}`,
        request(['list']),
        optionLoc(a, 'pagination', 'maxLimit'),
        { aspect: 'maxLimit', before: pb.maxLimit, after: pa.maxLimit },
      );
    const order = (c: CollectionAt) => c.query.defaultSort.map((k) => (k.direction === 'desc' ? '-' : '') + k.key).join(',');
    if (order(b) !== order(a))
      out.add(
        'list-default-sort-changed',
        at,
        `${at} list: order without ?sort= ${order(b) || "the handlers' own"} → ${order(a) || "the handlers' own"}`,
        request(['list']),
        optionLoc(a, 'defaultSort'),
        { aspect: 'defaultSort', before: order(b), after: order(a) },
      );
  }
  if (ops.length) compareRateLimits(out, before.api, after.api, b, a, ops);
  compareCollectionFields(ctx);
  compareLifecycles(ctx);
}
