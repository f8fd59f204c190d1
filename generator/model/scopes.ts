/**
 * @module Every scope an API refers to, with where it is written: each collection's read and write scopes
 * and each lifecycle transition's own. One list for whatever checks or uses scopes (the OAuth 2.0 check
 * that every scope is declared, `restgen serve` granting every scope).
 */
import type { ApiIR, SourceRef } from './ir.ts';

/** One scope as written, with the owner it is written on (`orders`, `orders:cancel`). */
export interface ScopeUse {
  readonly scope: string;
  readonly owner: string;
  readonly loc: SourceRef;
}

/** Every scope the API refers to, in declaration order (a scope used twice is listed twice). */
export function scopeUses(api: ApiIR): ScopeUse[] {
  const uses: ScopeUse[] = [];
  for (const c of api.collections) {
    for (const access of ['read', 'write'] as const)
      for (const scope of c.scopes[access]) uses.push({ scope, owner: c.name, loc: { ...c.loc, path: ['scopes', access] } });
    for (const t of c.lifecycle?.transitions ?? [])
      for (const scope of t.scopes ?? []) uses.push({ scope, owner: `${c.name}:${t.name}`, loc: { ...t.loc, path: [...(t.loc.path ?? []), 'scopes'] } });
  }
  return uses;
}
