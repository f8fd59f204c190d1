/**
 * @module `collection({...})`: a resource collection and its version markers.
 */
import { aritySlip, kindSlip, slipsOf } from './arguments.ts';
import { captureCallSite } from './call-site.ts';
import type { CollectionDef, CollectionOptions, FieldsDef, LifecycleDef, MarkerDef } from './defs.ts';
import type { ValueOf } from './field.ts';

/** The states a field can hold: its values, when it is an enum (a union of strings); any string when its type is unknown. */
type StatesOf<T> = unknown extends T ? string : T extends string ? T : never;

/**
 * What `lifecycle` accepts in a collection with fields `F`: one of its fields, whose values are the states
 * that `initial`, `from` and `to` may name.
 */
export type LifecycleOf<F> = { [K in keyof F & string]: LifecycleDef<K, StatesOf<ValueOf<F[K]>>> }[keyof F & string];

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
  const mark = (
    member: string,
    args: readonly unknown[],
    takes: number,
    make: () => MarkerDef | undefined,
    wrong: unknown,
    expected = VERSION,
  ): CollectionBuilder => {
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
      mark(
        'renamedFrom',
        [from, version, ...rest],
        2,
        () => (named(version) && named(from) ? { kind: 'renamedFrom', from, version } : undefined),
        named(version) ? from : version,
        named(version) ? "the old name as a string, e.g. renamedFrom('clients', 'v2')" : VERSION,
      ),
  } as CollectionBuilder;
}

/**
 * A collection of resources, served at `/vN/<key>` and `/vN/<key>/{id}`; each lifecycle transition at
 * `/vN/<key>/{id}:<transition>`.
 * @example
 * orders: collection({
 *   fields: { id: f.id(), quantity: f.int().min(1), status: f.enum(['open', 'paid', 'cancelled']).readOnly() },
 *   operations: ['list', 'get', 'create', 'update', 'delete'],
 *   scopes: { read: 'orders:read', write: 'orders:write' },
 *   public: ['list', 'get'],
 *   lifecycle: {
 *     field: 'status',
 *     initial: 'open',
 *     transitions: { pay: { from: ['open'], to: 'paid' }, cancel: { from: ['open', 'paid'], to: 'cancelled' } },
 *   },
 * })
 */
export function collection<F extends FieldsDef>(options: CollectionOptions<F, LifecycleOf<F>>): CollectionBuilder;
// The implementation also takes what the types reject (extra arguments), to report it.
export function collection(options: CollectionOptions, ...rest: unknown[]): CollectionBuilder {
  const site = captureCallSite('collection');
  const slips = slipsOf(aritySlip('collection', [options, ...rest], 1, site));
  return build({ kind: 'collection', options, markers: [], calls: {}, site, ...(slips.length > 0 ? { slips } : {}) });
}
