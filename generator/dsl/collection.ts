/**
 * @module `collection({...})`: a resource collection and its version markers.
 */
import { captureCallSite } from './call-site.ts';
import type { CollectionDef, CollectionOptions, MarkerDef } from './defs.ts';

/** A collection builder; `def` is its plain data. */
export interface CollectionBuilder {
  readonly def: CollectionDef;
  /** The collection exists from `version` on. @example collection({...}).addedIn('v3') */
  addedIn(version: string): CollectionBuilder;
  /** The collection no longer exists from `version` on. @example collection({...}).removedIn('v3') */
  removedIn(version: string): CollectionBuilder;
  /** Before `version` the collection's key (and default path) was `oldName`. @example collection({...}).renamedFrom('clients', 'v2') */
  renamedFrom(oldName: string, version: string): CollectionBuilder;
}

function build(def: CollectionDef): CollectionBuilder {
  const mark = (member: string, marker: MarkerDef): CollectionBuilder => {
    const site = captureCallSite(member);
    return build({
      ...def,
      markers: [...def.markers, { ...marker, site }],
      calls: site ? { ...def.calls, [member]: site } : def.calls,
    });
  };
  return {
    def,
    addedIn: (version) => mark('addedIn', { kind: 'addedIn', version }),
    removedIn: (version) => mark('removedIn', { kind: 'removedIn', version }),
    renamedFrom: (from, version) => mark('renamedFrom', { kind: 'renamedFrom', from, version }),
  };
}

/**
 * A collection of resources, served at `/vN/<key>` and `/vN/<key>/{id}`.
 * @example
 * orders: collection({
 *   fields: { id: f.id(), quantity: f.int().min(1), status: f.enum(['open', 'paid']).readOnly() },
 *   operations: ['list', 'get', 'create', 'update', 'delete'],
 *   scopes: { read: 'orders:read', write: 'orders:write' },
 *   public: ['list', 'get'],
 * })
 */
export function collection(options: CollectionOptions): CollectionBuilder {
  return build({ kind: 'collection', options, markers: [], calls: {}, site: captureCallSite('collection') });
}
