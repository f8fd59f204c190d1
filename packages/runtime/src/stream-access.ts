/**
 * Who may read which events of a version's stream. A derived event is about a collection, and a caller reads it
 * as it may read that collection: without a credential when the version's `list` of it is public (the stream
 * shows every resource as it changes, as a list does), else with the collection's read scopes. A custom event is
 * about no collection: it needs the scopes that manage webhook endpoints (whoever holds them can already receive
 * every event by subscribing an endpoint to it). An API that
 * takes no credential shows every event to everyone.
 */
import type { MountedVersion, WebhooksSpec } from './spec.js';
import type { Principal } from './types.js';

/** What reading one event type takes in one version. */
export interface TypeAccess {
  readonly type: string;
  /** Readable without a credential. */
  readonly isPublic: boolean;
  /** The scopes a principal needs (every one of them), when not public. */
  readonly scopes: readonly string[];
}

/** The access rule of every event type `version` streams, in the order the version lists them. */
export function accessOf(webhooks: WebhooksSpec, version: MountedVersion, takesCredentials: boolean): TypeAccess[] {
  const endpoints = version.routes.find((r) => r.collection.key === webhooks.collection);
  const manage = endpoints?.collection.scopes.write ?? [];
  const out: TypeAccess[] = [];
  for (const type of webhooks.versions[version.name] ?? []) {
    if (!takesCredentials) {
      out.push({ type, isPublic: true, scopes: [] });
      continue;
    }
    const resource = webhooks.resources[type];
    if (resource === undefined) {
      out.push({ type, isPublic: false, scopes: manage });
      continue;
    }
    const route = version.routes.find((r) => r.collection.key === resource.collection);
    // A collection the version lacks streams nothing (the generator never lists such a type).
    if (route === undefined) continue;
    out.push({ type, isPublic: route.public.includes('list'), scopes: route.collection.scopes.read });
  }
  return out;
}

/** Whether `principal` (null: no credential) may read an event under `access`. */
export function mayRead(access: TypeAccess, principal: Principal | null): boolean {
  if (access.isPublic) return true;
  return principal !== null && access.scopes.every((s) => principal.scopes.includes(s));
}
