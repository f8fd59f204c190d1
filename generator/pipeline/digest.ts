/**
 * @module The structural hash of a renderer's data: what the cache keys a call by. It is JSON's view of the data
 * (properties in their order, `undefined` left out), so data must be plain: objects, arrays, strings, numbers,
 * booleans and null (anything else is refused here, and the contract suite checks every emitter's data). The first
 * levels are walked; below them each object is serialized whole once per run (the IR and its projections are
 * immutable) and known by its hash, so the same collection in the files of every emitter is serialized once.
 *
 * Data a pure function computed from other data (a collection as a version sees it, see `model/derived.ts`) is hashed
 * by content all the same, but `recall` may answer that hash from what it was computed from, without reading it: the
 * cache keeps it, so an unchanged collection's projections are neither projected nor serialized again.
 */
import { hash } from 'node:crypto';
import { holdsDerived, recipeOf } from '../model/derived.ts';

/**
 * SHA-1 in base64url: keys only tell changed data from unchanged (no one gains by matching one), and SHA-1 hashes
 * the megabytes of a large lock or document at twice SHA-256's speed in software.
 */
const sha1 = (data: string | Buffer): string => hash('sha1', data, 'base64url');

/** Answers the hash of derived data by the hash of its recipe (`compute` reads the data). */
export type Recall = (recipe: string, compute: () => string) => string;

/**
 * Levels of a renderer's data walked before what is below is serialized whole (JSON, at native speed): deep enough to
 * reach the collection a file of one collection shows (its data, the version, its collections, the collection).
 */
const DEPTH = 3;

/** Texts of objects serialized whole: each depends on the object alone, not on where it was met. */
const known = new WeakMap<object, string>();
/** Texts of objects walked, per depth (the same versions and settings sit in the data of every file). */
const walked = Array.from({ length: DEPTH + 1 }, () => new WeakMap<object, string>());

/** A long text stands in its parents as its hash. */
const short = (text: string): string => (text.length > 64 ? `#${sha1(text)}` : text);

/** `value` as JSON, walked `depth` levels deep; below, each object is serialized whole and known by its hash. */
function textOf(value: unknown, depth: number, recall: Recall | undefined): string {
  if (typeof value === 'function' || typeof value === 'symbol') throw new Error(`internal error: renderer data holds a ${typeof value}`);
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const prototype: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null)
    throw new Error(`internal error: renderer data holds a ${value.constructor.name}, which is not plain data`);
  if (depth === 0 || recipeOf(value)) return whole(value, recall);
  let text = walked[depth]!.get(value);
  if (text !== undefined) return text;
  if (Array.isArray(value)) text = short(`[${value.map((v: unknown) => textOf(v, depth - 1, recall)).join(',')}]`);
  else {
    const members: string[] = [];
    for (const [key, v] of Object.entries(value)) if (v !== undefined) members.push(`${JSON.stringify(key)}:${textOf(v, depth - 1, recall)}`);
    text = short(`{${members.join(',')}}`);
  }
  walked[depth]!.set(value, text);
  return text;
}

/**
 * `value` serialized whole, once per run: derived data in it known by what it was computed from, through `recall`
 * (looked for only in what holds some: a projection of the API), and by its content otherwise.
 */
function whole(value: object, recall: Recall | undefined): string {
  let text = known.get(value);
  if (text !== undefined) return text;
  const recipe = recall && recipeOf(value);
  if (recall && recipe) text = recall(sha1(textOf(recipe, DEPTH, recall)), () => short(JSON.stringify(value)));
  else if (recall && holdsDerived(value))
    text = short(
      JSON.stringify(value, (_key, v: unknown) => (v !== value && typeof v === 'object' && v !== null && recipeOf(v) ? `\0${whole(v, recall)}` : v)),
    );
  else text = short(JSON.stringify(value));
  known.set(value, text);
  return text;
}

/** The hash of `data`: equal for equal plain data (as JSON sees it), different for any other. */
export const digest = (data: unknown, recall?: Recall): string => sha1(textOf(data, DEPTH, recall));

/** The hash of several texts together (a cache key from its parts). */
export const hashOf = (...parts: readonly string[]): string => sha1(parts.join('\0'));

/** The hash of a file's content, as the record keeps it. */
export const contentHash = (bytes: Buffer): string => sha1(bytes);
