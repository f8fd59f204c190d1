/**
 * @module The structural hash of a renderer's data: what the cache keys a call by. It is JSON's view of the data
 * (properties in their order, `undefined` left out), so data must be plain: objects, arrays, strings, numbers,
 * booleans and null (anything else is refused here, and the contract suite checks every emitter's data). Each object
 * is known by its text once per run (the IR and its projections are immutable), and a large one by the hash of its
 * text, so the same collection in the files of every emitter is serialized once and hashed small.
 */
import { hash } from 'node:crypto';

/**
 * SHA-1 in base64url: keys only tell changed data from unchanged (no one gains by matching one), and SHA-1 hashes
 * the megabytes of a large lock or document at twice SHA-256's speed in software.
 */
const sha1 = (data: string | Buffer): string => hash('sha1', data, 'base64url');

/** An object's text longer than this stands in its parents as its hash. */
const INLINE = 64;

const known = new WeakMap<object, string>();

/** `value` as JSON, with every large object replaced by the hash of its text. */
function textOf(value: unknown): string {
  if (typeof value === 'function' || typeof value === 'symbol') throw new Error(`internal error: renderer data holds a ${typeof value}`);
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  let text = known.get(value);
  if (text !== undefined) return text;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) text = `[${value.map(textOf).join(',')}]`;
  else if (prototype !== Object.prototype && prototype !== null)
    throw new Error(`internal error: renderer data holds a ${(value as object).constructor.name}, which is not plain data`);
  else {
    const entries = Object.entries(value);
    // An object of plain values only is what JSON makes of it, at native speed.
    if (entries.every(([, v]) => typeof v !== 'object' && typeof v !== 'function' && typeof v !== 'symbol')) text = JSON.stringify(value);
    else text = `{${entries.flatMap(([key, v]) => (v === undefined ? [] : [`${JSON.stringify(key)}:${textOf(v)}`])).join(',')}}`;
  }
  if (text.length > INLINE) text = `#${sha1(text)}`;
  known.set(value, text);
  return text;
}

/** The hash of `data`: equal for equal plain data (as JSON sees it), different for any other. */
export const digest = (data: unknown): string => sha1(textOf(data));

/** The hash of several texts together (a cache key from its parts). */
export const hashOf = (...parts: readonly string[]): string => sha1(parts.join('\0'));

/** The hash of a file's content, as the record keeps it. */
export const contentHash = (bytes: Buffer): string => sha1(bytes);
