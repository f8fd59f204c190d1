/**
 * JSON text written in one pass from a response schema, without first building the object that the
 * key-tree strip would build and then stringifying it: the same bytes, less work per answer.
 * `createStrippedText` writes what `JSON.stringify` makes of the key-tree strip, for every schema (the
 * ETag's canonical text, and answers with `validateResponses: false`); the helpers write values exactly
 * as `JSON.stringify` does, for `checked-text.ts` too.
 */
import type { z } from "zod";
import { keepOf, type Def, type Keep } from "./shape.js";

/** A value's JSON text; undefined where `JSON.stringify` writes nothing (a function, `undefined`). */
export type TextWriter = (value: unknown) => string | undefined;

/** Characters a JSON string cannot hold as they are (any surrogate too: `JSON.stringify` decides those). */
const ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string's JSON text, as `JSON.stringify` writes it. */
export const stringText = (s: string): string =>
  ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;

/** A value that is not a non-null object, as `JSON.stringify` writes it (a bigint throws, as there). */
export function primitiveText(value: unknown): string | undefined {
  if (typeof value === "string") return stringText(value);
  if (typeof value === "number")
    return Number.isFinite(value) ? String(value) : "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value === null) return "null";
  return JSON.stringify(value) as string | undefined;
}

/**
 * The keys of an object in the order a plain object built by setting them one by one lists them (integer
 * keys first, ascending), which is the order `JSON.stringify` writes; `__proto__` is left out (setting it
 * replaces the prototype, so no output ever holds it).
 */
function ownOrder(keys: readonly string[]): string[] {
  const kept = keys.filter((k) => k !== "__proto__");
  return Object.keys(Object.fromEntries(kept.map((k) => [k, true])));
}

/** One member of an object writer: its key, its name as JSON text (with the colon) and its writer. */
export interface Member<W> {
  readonly key: string;
  readonly name: string;
  readonly write: W;
}

/** The members of an object writer, in the order `JSON.stringify` writes their keys. */
export const membersOf = <W,>(
  keys: readonly string[],
  writerOf: (key: string) => W,
): Member<W>[] =>
  ownOrder(keys).map((key) => ({
    key,
    name: `${JSON.stringify(key)}:`,
    write: writerOf(key),
  }));

function stripped(keep: Keep): TextWriter {
  switch (keep.kind) {
    case "object": {
      const members = membersOf([...keep.keys.keys()], (k) =>
        stripped(keep.keys.get(k)!),
      );
      return (value) => {
        if (typeof value !== "object" || value === null)
          return primitiveText(value);
        if (Array.isArray(value)) return "{}";
        const record = value as Record<string, unknown>;
        let text = "";
        for (const { key, name, write } of members) {
          // Own keys only: a field may be called `constructor`.
          if (!Object.hasOwn(record, key)) continue;
          const member = write(record[key]);
          if (member !== undefined)
            text += (text === "" ? "{" : ",") + name + member;
        }
        return text === "" ? "{}" : text + "}";
      };
    }
    case "array": {
      const item = stripped(keep.of);
      return (value) => {
        if (!Array.isArray(value))
          return typeof value === "object" && value !== null
            ? "[]"
            : primitiveText(value);
        return itemsText(value, item);
      };
    }
    case "value":
      // Where the schema has a plain value, an object (with whatever it holds) never passes.
      return (value) =>
        typeof value === "object" && value !== null
          ? undefined
          : primitiveText(value);
  }
}

/** An array's JSON text from each item's (`null` where an item writes nothing, as `JSON.stringify` does). */
function itemsText(
  items: readonly unknown[],
  write: (item: unknown) => string | undefined,
): string {
  let text = "[";
  for (let i = 0; i < items.length; i++)
    text += (i === 0 ? "" : ",") + (write(items[i]) ?? "null");
  return text + "]";
}

/**
 * Writes `JSON.stringify` of what the key tree of `schema` keeps of a value (unknown and write-only keys
 * removed at every depth, objects dropped where the schema has a plain value; nothing checked).
 */
export function createStrippedText(schema: z.ZodType): TextWriter {
  return stripped(keepOf((schema as unknown as { readonly def: Def }).def));
}
