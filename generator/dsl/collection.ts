/**
 * @module `collection({...})`: a resource collection and its version markers.
 */
import { aritySlip, kindSlip, slipsOf } from './arguments.ts';
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

const VERSION = "a version name such as 'v2'";

function build(def: CollectionDef): CollectionBuilder {
  const mark = (member: string, args: readonly unknown[], takes: number, make: () => MarkerDef | undefined, wrong: unknown, expected = VERSION): CollectionBuilder => {
    const site = captureCallSite(member);
    const marker = make();
    const slips = slipsOf(marker ? undefined : kindSlip(member, false, wrong, expected, site), aritySlip(member, args, takes, site));
    return build({
      ...def,
      markers: marker ? [...def.markers, { ...marker, site }] : def.markers,
      calls: site ? { ...def.calls, [member]: site } : def.calls,
      ...(slips.length > 0 ? { slips: [...(def.slips ?? []), ...slips] } : {}),
    });
  };
  const named = (v: unknown): v is string => typeof v === 'string';
  return {
    def,
    addedIn: (version: unknown, ...rest: unknown[]) =>
      mark('addedIn', [version, ...rest], 1, () => (named(version) ? { kind: 'addedIn', version } : undefined), version),
    removedIn: (version: unknown, ...rest: unknown[]) =>
      mark('removedIn', [version, ...rest], 1, () => (named(version) ? { kind: 'removedIn', version } : undefined), version),
    renamedFrom: (from: unknown, version: unknown, ...rest: unknown[]) =>
      mark('renamedFrom', [from, version, ...rest], 2, () => (named(version) && named(from) ? { kind: 'renamedFrom', from, version } : undefined), named(version) ? from : version, named(version) ? "the old name as a string, e.g. renamedFrom('clients', 'v2')" : VERSION),
  } as CollectionBuilder;
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
export function collection(options: CollectionOptions): CollectionBuilder;
// The implementation also takes what the types reject (extra arguments), to report it.
export function collection(options: CollectionOptions, ...rest: unknown[]): CollectionBuilder {
  const site = captureCallSite('collection');
  const slips = slipsOf(aritySlip('collection', [options, ...rest], 1, site));
  return build({ kind: 'collection', options, markers: [], calls: {}, site, ...(slips.length > 0 ? { slips } : {}) });
}
