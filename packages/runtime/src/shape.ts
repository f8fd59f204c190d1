/**
 * What reaches the wire: an answer shaped by the response schema of the version answered. With validation
 * (the default) zod parses the answer, which removes unknown and write-only keys at every depth and checks
 * every value; without it, a key tree read once from the same schema removes them (and drops objects where
 * the schema has a plain value), checking nothing else.
 */
import type { z } from 'zod';
import { isRecord } from './guards.js';

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

/** The parts of a zod schema's definition the key tree reads. */
export interface Def {
  readonly type: string;
  readonly shape?: Readonly<Record<string, { readonly def: Def }>>;
  readonly element?: { readonly def: Def };
  readonly innerType?: { readonly def: Def };
  readonly in?: { readonly def: Def };
  readonly catchall?: { readonly def: Def };
  readonly coerce?: boolean;
  readonly checks?: readonly {
    readonly _zod: { readonly def: { readonly check: string } };
  }[];
}

/** Reads the key tree of a schema: wrappers (optional, nullable, default, ...) are looked through. */
export function keepOf(def: Def): Keep {
  if (def.type === 'object' && def.shape) {
    const keys = new Map<string, Keep>();
    for (const [key, member] of Object.entries(def.shape)) keys.set(key, keepOf(member.def));
    return { kind: 'object', keys };
  }
  if (def.type === 'array' && def.element) return { kind: 'array', of: keepOf(def.element.def) };
  const inner = def.innerType ?? def.in;
  return inner ? keepOf(inner.def) : { kind: 'value' };
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
  const plain = (def: Def): boolean => {
    if (!PLAIN.has(def.type) || def.coerce === true) return false;
    // `.trim()`, `.toLowerCase()` and the like rewrite the value they check.
    if (def.checks?.some((c) => c._zod.def.check === 'overwrite')) return false;
    // A loose object's output keeps unknown keys; a strict one accepts none.
    if (def.type === 'object')
      return (def.catchall === undefined || def.catchall.def.type === 'never') && Object.values(def.shape ?? {}).every((m) => plain(m.def));
    if (def.type === 'array') return def.element !== undefined && plain(def.element.def);
    const inner = def.innerType;
    return inner === undefined || plain(inner.def);
  };
  return plain((schema as unknown as { readonly def: Def }).def);
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
  const keep = keepOf((schema as unknown as { readonly def: Def }).def);
  return (value) => ({ ok: true, value: strip(value, keep) });
}
