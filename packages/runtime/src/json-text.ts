/**
 * JSON text written in one pass from a response schema, without first building the object that the
 * key-tree strip would build and then stringifying it: the same bytes, less work per answer.
 * `createStrippedText` writes what `JSON.stringify` makes of the key-tree strip, for every schema (the
 * ETag's canonical text, and answers with `validateResponses: false`); the helpers write values exactly
 * as `JSON.stringify` does, for `checked-text.ts` too.
 */
import type { z } from 'zod';
import { keepOf, type Keep } from './shape.js';

/** A value's JSON text; undefined where `JSON.stringify` writes nothing (a function, `undefined`). */
export type TextWriter = (value: unknown) => string | undefined;

/** Characters a JSON string cannot hold as they are (any surrogate too: `JSON.stringify` decides those). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: exactly the characters JSON must escape
const ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string's JSON text, as `JSON.stringify` writes it. */
export const stringText = (s: string): string => (ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`);

/** A value that is not a non-null object, as `JSON.stringify` writes it (a bigint throws, as there). */
export function primitiveText(value: unknown): string | undefined {
  if (typeof value === 'string') return stringText(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === null) return 'null';
  return JSON.stringify(value) as string | undefined;
}

/**
 * The keys of an object in the order a plain object built by setting them one by one lists them (integer
 * keys first, ascending), which is the order `JSON.stringify` writes; `__proto__` is left out (setting it
 * replaces the prototype, so no output ever holds it).
 */
function ownOrder(keys: readonly string[]): string[] {
  const kept = keys.filter((k) => k !== '__proto__');
  return Object.keys(Object.fromEntries(kept.map((k) => [k, true])));
}

/** One member of an object writer: its key, its name as JSON text (with the colon) and its writer. */
export interface Member<W> {
  readonly key: string;
  readonly name: string;
  readonly write: W;
}

/** The members of an object writer, in the order `JSON.stringify` writes their keys. */
export const membersOf = <W>(keys: readonly string[], writerOf: (key: string) => W): Member<W>[] =>
  ownOrder(keys).map((key) => ({
    key,
    name: `${JSON.stringify(key)}:`,
    write: writerOf(key),
  }));

function stripped(keep: Keep): TextWriter {
  switch (keep.kind) {
    case 'object': {
      const object = objectText(keep, () => null);
      return (value) => {
        if (typeof value !== 'object' || value === null) return primitiveText(value);
        return Array.isArray(value) ? '{}' : object(value);
      };
    }
    case 'array': {
      const item = stripped(keep.of);
      return (value) => {
        if (!Array.isArray(value)) return typeof value === 'object' && value !== null ? '[]' : primitiveText(value);
        return itemsText(value, item);
      };
    }
    case 'value':
      // Where the schema has a plain value, an object (with whatever it holds) never passes.
      return (value) => (typeof value === 'object' && value !== null ? undefined : primitiveText(value));
  }
}

/**
 * The JSON text of an object with the keys of `keep`, each member read by `readerOf(key)`, or as the
 * object's own key where that is null (undefined: the member is absent, as `JSON.stringify` leaves out an
 * undefined value).
 */
function objectText(keep: Extract<Keep, { kind: 'object' }>, readerOf: (key: string) => Reader | null): (record: object) => string {
  const members = membersOf([...keep.keys.keys()], (k) => ({
    read: readerOf(k),
    write: stripped(keep.keys.get(k)!),
  }));
  return (value) => {
    const record = value as Record<string, unknown>;
    let text = '';
    for (const { key, name, write: step } of members) {
      // Own keys only: a field may be called `constructor`.
      const read = step.read === null ? (Object.hasOwn(record, key) ? record[key] : undefined) : step.read(record);
      const member = read === undefined ? undefined : step.write(read);
      if (member !== undefined) text += (text === '' ? '{' : ',') + name + member;
    }
    return text === '' ? '{}' : text + '}';
  };
}

/** An array's JSON text from each item's (`null` where an item writes nothing, as `JSON.stringify` does). */
function itemsText(items: readonly unknown[], write: (item: unknown) => string | undefined): string {
  let text = '[';
  for (let i = 0; i < items.length; i++) text += (i === 0 ? '' : ',') + (write(items[i]) ?? 'null');
  return text + ']';
}

/** How a member is read from the object written (undefined: the member is absent). */
export type Reader = (record: Record<string, unknown>) => unknown;
/** The reader of each top-level member, by key. */
export type Readers = ReadonlyMap<string, Reader>;

/**
 * Writes `JSON.stringify` of what the key tree of `schema` keeps of a value (unknown and write-only keys
 * removed at every depth, objects dropped where the schema has a plain value; nothing checked). With
 * `readers` (one per key of the object schema), what it writes of an object is what it would write of the
 * object `{ [key]: read(value) }` holding the keys whose reader gives a value.
 */
export function createStrippedText(schema: z.ZodType, readers?: Readers): TextWriter {
  const keep = keepOf(schema);
  const text = stripped(keep);
  if (readers === undefined || keep.kind !== 'object') return text;
  const object = objectText(keep, (key) => readers.get(key)!);
  return (value) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? object(value) : text(value));
}
