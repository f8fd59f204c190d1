/**
 * @module A hash of a piece of IR, for keys of the render cache: the data as JSON without source locations
 * (`loc`, `calls`: where the DSL was written, not what is generated), computed once per object (the IR and
 * its projections are immutable). Emitters key what they render by the IR it depends on with these.
 */
import { hash as oneShot } from 'node:crypto';
import type { ApiAt } from '../model/ir.ts';

const hashes = new WeakMap<object, string>();

const sha256 = (text: string): string => oneShot('sha256', text, 'base64url');

const withoutLocations = (key: string, value: unknown): unknown => (key === 'loc' || key === 'calls' ? undefined : value);

/** The hash of one version's projection, from the hashes of its collections (shared with other keys). */
export function projectionHash(at: ApiAt): string {
  let hash = hashes.get(at);
  if (hash === undefined) {
    hash = sha256(JSON.stringify({ ...at, collections: at.collections.map(irHash) }, withoutLocations));
    hashes.set(at, hash);
  }
  return hash;
}

/** The hash of `data` (IR or a projection of it), locations left out. */
export function irHash(data: object): string {
  let hash = hashes.get(data);
  if (hash === undefined) {
    hash = sha256(JSON.stringify(data, withoutLocations));
    hashes.set(data, hash);
  }
  return hash;
}

/**
 * Records `hash` as the hash of `data`, known without serializing it (a projection whose hash the render cache
 * kept under the hash of the IR it is projected from). It must be exactly what {@link irHash} would compute.
 */
export function seedHash(data: object, hash: string): void {
  hashes.set(data, hash);
}
