/**
 * @module Stage "check" for scopes: with OAuth 2.0 declared, every scope an operation needs must be one of
 * `auth.oauth2.scopes` (the identity provider issues only those, and the OpenAPI document describes only
 * those). Without `oauth2`, scopes are the API's own role names and need no declaration.
 */
import { atPath, type Diagnostic, type DiagnosticBag } from './diagnostics.ts';
import type { ApiIR, CollectionAt, CollectionIR, SourceRef } from './ir.ts';
import { closest } from './option-shapes.ts';
import { project } from './project.ts';

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
  d.error(
    'RG303',
    `${where}: scope '${scope}' is not declared in auth.oauth2.scopes${known}; ${fix} there with what it grants, e.g. '${scope}': 'Describe what it allows'.`,
    loc,
  );
}

/**
 * The scopes some operation of `c` requires in some version (`projections`: `c` in each version that has it): a
 * public operation requires none (an operation public until a version requires its scopes from then on); a
 * transition its own, else the write ones.
 */
function requiredScopes(c: CollectionIR, projections: readonly CollectionAt[]): string[] {
  const guarded = (names: readonly string[]) => projections.some((p) => p.operations.some((op) => names.includes(op) && !p.public.includes(op)));
  const transitions = c.lifecycle?.transitions ?? [];
  return [
    ...(guarded(['list', 'get']) ? c.scopes.read : []),
    ...(guarded(['create', 'replace', 'update', 'delete']) || transitions.some((t) => t.scopes === undefined) ? c.scopes.write : []),
    ...transitions.flatMap((t) => t.scopes ?? []),
  ];
}

/**
 * A warning (RG305) for every scope declared in `auth.oauth2.scopes` that no operation or transition requires: the
 * document lists it in the security scheme, so a client asks the identity provider for it, and nothing ever checks
 * it (a scope meant for an operation and never attached to it, or one left over). Reported by `generate` beside the
 * other warnings about what it wrote; at the scope's declaration in `defineApi({...})` of `apiPath`.
 */
export function unusedScopes(api: ApiIR, apiPath: string): Diagnostic[] {
  const oauth2 = api.auth.oauth2;
  if (!oauth2) return [];
  const projected = new Map<string, CollectionAt[]>();
  for (const v of api.versions)
    for (const p of project(api, v.name).collections) {
      const known = projected.get(p.key);
      if (known) known.push(p);
      else projected.set(p.key, [p]);
    }
  const required = new Set(api.collections.flatMap((c) => requiredScopes(c, projected.get(c.name) ?? [])));
  // Located by the call and the path to the property (a model built without call sites has no lines).
  const at: SourceRef = { file: apiPath, line: 0, member: 'defineApi' };
  return oauth2.scopes
    .filter(({ name }) => !required.has(name))
    .map(({ name }): Diagnostic => {
      const naming = api.collections.find((c) => c.scopes.read.includes(name) || c.scopes.write.includes(name));
      const why = naming ? `and ${naming.name} names it, but the operations it would guard are public` : 'but no operation requires it';
      return {
        code: 'RG305',
        severity: 'warning',
        message: `auth.oauth2.scopes: '${name}' is declared, ${why}, so no token ever needs it; require it where it belongs (a collection's scopes: { read: '${name}' } on operations that are not public, or a transition's scopes), or remove it.`,
        loc: { ...at, path: ['auth', 'oauth2', 'scopes', name] },
      };
    });
}

/** Checks every scope the collections name (their read and write scopes, their transitions' own) against the declared OAuth 2.0 scopes. */
export function checkCollectionScopes(api: ApiIR, d: DiagnosticBag): void {
  if (!api.auth.oauth2) return;
  for (const c of api.collections) {
    // The built-in webhook endpoints take their scopes from `webhooks.scopes` (or its defaults), located there.
    const builtin = c.builtin === 'webhook-endpoints';
    const where = builtin ? 'webhooks.scopes (the webhook endpoints; set them to declared scopes, or declare these)' : c.name;
    for (const access of ['read', 'write'] as const)
      for (const scope of c.scopes[access]) checkScopeDeclared(api, scope, where, atPath(c.loc, [...(builtin ? (c.loc.path ?? []) : []), 'scopes', access]), d);
    for (const t of c.lifecycle?.transitions ?? [])
      for (const scope of t.scopes ?? []) checkScopeDeclared(api, scope, `${c.name}.${t.name}`, atPath(t.loc, [...(t.loc.path ?? []), 'scopes']), d);
  }
}
