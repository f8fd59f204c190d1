/**
 * What reaches the wire: an answer shaped by the response schema of the version answered. With validation
 * (the default) zod parses the answer, which removes unknown and write-only keys at every depth and checks
 * every value; without it, a key tree read once from the same schema removes them (and drops objects where
 * the schema has a plain value), checking nothing else.
 */
import type { z } from 'zod';
import type * as core from 'zod/v4/core';
import { isRecord } from './guards.js';
import { checkDefOf, defOf } from './zod-internals.js';

/** Where an answer breaks the schema (a JSON pointer) and how. */
export interface Failed {
  readonly ok: false;
  readonly pointer: string;
  readonly detail: string;
}
/** A shaped answer, or where it breaks the schema. */
export type Shaped = { readonly ok: true; readonly value: unknown } | Failed;

/** Shapes one answer. */
export type Shaper = (value: unknown) => Shaped;

/** The keys a response schema allows: an object's keys, an array's items, or a plain value. */
export type Keep =
  | { readonly kind: 'object'; readonly keys: ReadonlyMap<string, Keep> }
  | { readonly kind: 'array'; readonly of: Keep }
  | { readonly kind: 'value' };

/** Reads the key tree of a schema: wrappers (optional, nullable, default, a pipe's input, ...) are looked through. */
export function keepOf(schema: core.$ZodType): Keep {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const keys = new Map<string, Keep>();
      for (const [key, member] of Object.entries(def.shape)) keys.set(key, keepOf(member));
      return { kind: 'object', keys };
    }
    case 'array':
      return { kind: 'array', of: keepOf(def.element) };
    case 'pipe':
      return keepOf(def.in);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return keepOf(def.innerType);
    default:
      return { kind: 'value' };
  }
}

function strip(value: unknown, keep: Keep): unknown {
  switch (keep.kind) {
    case 'object': {
      if (!isRecord(value) || Array.isArray(value)) return typeof value === 'object' && value !== null ? {} : value;
      const out: Record<string, unknown> = {};
      for (const [key, inner] of keep.keys) {
        // Own keys only: a field may be called `constructor`.
        if (!Object.hasOwn(value, key)) continue;
        const v = strip(value[key], inner);
        if (v !== undefined) out[key] = v;
      }
      return out;
    }
    case 'array':
      return Array.isArray(value) ? value.map((item) => strip(item, keep.of)) : typeof value === 'object' && value !== null ? [] : value;
    case 'value':
      // Where the schema has a plain value, an object (with whatever it holds) never passes.
      return typeof value === 'object' && value !== null ? undefined : value;
  }
}

const escapePointer = (part: PropertyKey): string => String(part).replace(/~/g, '~0').replace(/\//g, '~1');

/** The JSON pointer of a path, as a URI fragment (`#/shipping/zip`). */
export const pointerOf = (path: readonly PropertyKey[]): string => '#' + path.map((p) => '/' + escapePointer(p)).join('');

/** Schema kinds whose parsed output is their input: no defaults, transforms, coercions, unions or records. */
const PLAIN = new Set(['string', 'number', 'boolean', 'enum', 'literal', 'null', 'optional', 'nullable', 'object', 'array']);

/**
 * Whether zod's output for every value the schema accepts is, as JSON, what the key tree keeps of it
 * (keys in the schema's order, unknown ones removed): true when the schema nests only plain kinds.
 */
export function isPlain(schema: z.ZodType): boolean {
  const plain = (node: core.$ZodType): boolean => {
    const def = defOf(node);
    if (!PLAIN.has(def.type) || ('coerce' in def && def.coerce === true)) return false;
    // `.trim()`, `.toLowerCase()` and the like rewrite the value they check.
    if (def.checks?.some((c) => checkDefOf(c).check === 'overwrite')) return false;
    switch (def.type) {
      // A loose object's output keeps unknown keys; a strict one accepts none.
      case 'object':
        return (def.catchall === undefined || defOf(def.catchall).type === 'never') && Object.values(def.shape).every(plain);
      case 'array':
        return plain(def.element);
      case 'optional':
      case 'nullable':
        return plain(def.innerType);
      default:
        return true;
    }
  };
  return plain(schema);
}

/** The shaper of a response schema; `validate: false` strips without checking values. */
export function createShaper(schema: z.ZodType, validate: boolean): Shaper {
  if (validate)
    return (value) => {
      const parsed = schema.safeParse(value);
      if (parsed.success) return { ok: true, value: parsed.data };
      const issue = parsed.error.issues[0]!;
      return {
        ok: false,
        pointer: pointerOf(issue.path),
        detail: issue.message,
      };
    };
  const keep = keepOf(schema);
  return (value) => ({ ok: true, value: strip(value, keep) });
}
