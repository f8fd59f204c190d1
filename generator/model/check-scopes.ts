/**
 * @module Stage "check" for scopes: with OAuth 2.0 declared, every scope an operation needs must be one of
 * `auth.oauth2.scopes` (the identity provider issues only those, and the OpenAPI document describes only
 * those). Without `oauth2`, scopes are the API's own role names and need no declaration.
 */
import { atPath, type DiagnosticBag } from './diagnostics.ts';
import type { ApiIR, SourceRef } from './ir.ts';
import { closest } from './option-shapes.ts';

/**
 * Reports RG303 at `loc` when the API declares OAuth 2.0 and `scope` is not one of its declared scopes.
 * `where` names the owner in the message (`orders`, `orders.cancel`). Every DSL place that names a scope
 * (collections, and anything else that carries scopes) calls this.
 * @example checkScopeDeclared(api, 'orders:write', 'orders', atPath(c.loc, ['scopes', 'write']), bag)
 */
export function checkScopeDeclared(api: ApiIR, scope: string, where: string, loc: SourceRef, d: DiagnosticBag): void {
  const oauth2 = api.auth.oauth2;
  if (!oauth2 || oauth2.scopes.some((s) => s.name === scope)) return;
  const declared = oauth2.scopes.map((s) => s.name);
  const guess = closest(scope, declared);
  const known = declared.length > 0 ? ` (declared: ${declared.join(', ')})` : '';
  const fix = guess ? `did you mean '${guess}'? Or declare it` : 'declare it';
  d.error('RG303', `${where}: scope '${scope}' is not declared in auth.oauth2.scopes${known}; ${fix} there with what it grants, e.g. '${scope}': 'Describe what it allows'.`, loc);
}

/** Checks every scope the collections name (their read and write scopes, their transitions' own) against the declared OAuth 2.0 scopes. */
export function checkCollectionScopes(api: ApiIR, d: DiagnosticBag): void {
  if (!api.auth.oauth2) return;
  for (const c of api.collections) {
    for (const access of ['read', 'write'] as const)
      for (const scope of c.scopes[access]) checkScopeDeclared(api, scope, c.name, atPath(c.loc, ['scopes', access]), d);
    for (const t of c.lifecycle?.transitions ?? [])
      for (const scope of t.scopes ?? []) checkScopeDeclared(api, scope, `${c.name}.${t.name}`, atPath(t.loc, [...(t.loc.path ?? []), 'scopes']), d);
  }
}
