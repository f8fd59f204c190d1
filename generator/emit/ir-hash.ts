/**
 * @module A hash of a piece of IR, for keys of the render cache: the data as JSON without source locations
 * (`loc`, `calls`: where the DSL was written, not what is generated), computed once per object (the IR and
 * its projections are immutable). Emitters key what they render by the IR it depends on with these.
 */
import { createHash } from 'node:crypto';
import type { ApiAt } from '../model/ir.ts';

const hashes = new WeakMap<object, string>();

const withoutLocations = (key: string, value: unknown): unknown => (key === 'loc' || key === 'calls' ? undefined : value);

/** The hash of one version's projection, from the hashes of its collections (shared with other keys). */
export function projectionHash(at: ApiAt): string {
  let hash = hashes.get(at);
  if (hash === undefined) {
    hash = createHash('sha256')
      .update(JSON.stringify({ ...at, collections: at.collections.map(irHash) }, withoutLocations))
      .digest('base64url');
    hashes.set(at, hash);
  }
  return hash;
}

/** The hash of `data` (IR or a projection of it), locations left out. */
export function irHash(data: object): string {
  let hash = hashes.get(data);
  if (hash === undefined) {
    hash = createHash('sha256').update(JSON.stringify(data, withoutLocations)).digest('base64url');
    hashes.set(data, hash);
  }
  return hash;
}
