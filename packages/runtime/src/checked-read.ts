/**
 * A request's body or query read as zod's parse reads it, in one pass: `createCheckedReader` gives what
 * zod's parse returns for input it knows zod accepts, and FAIL for any other input (then zod parses it, to
 * accept it after all or to word why not). It reads objects (strict or stripping unknown keys), arrays,
 * strings and numbers with the checks `zod-checks.ts` reads, booleans, null, enums, literals, optional,
 * nullable and default, pipes, transforms (the built-in `Number` for a query string's number, and the query helpers'), and unions whose
 * options take values of distinct JSON types; a member of any other kind is parsed by zod value by value. Never
 * looser than zod: where it cannot tell, it fails, and zod has the last word.
 */
import type { z } from 'zod';
import type * as core from 'zod/v4/core';
import { checksOf, isJsonScalar, lengthTest, numberTest, stringTest, testsOf } from './zod-checks.js';
import { checkDefOf, isDefaulted, schemaOf, type Schema } from './zod-internals.js';

/** What a reader gives for a value zod's parse may not accept. */
export const FAIL: unique symbol = Symbol('fail');
/** A value as zod's parse returns it, or FAIL. */
type Read = (value: unknown) => unknown;

/** One value parsed by zod itself: for kinds and checks not read here. */
function zodValue(schema: Schema): Read {
  // The schemas read here are the generated ones, made by zod's classic API.
  const parse = (schema as unknown as z.ZodType).safeParse.bind(schema);
  return (value) => {
    const parsed = parse(value);
    return parsed.success ? parsed.data : FAIL;
  };
}

/** The reader of a schema; `path` holds the schemas being read around it (a recursive one is zod's). */
function reader(schema: Schema, path: ReadonlySet<Schema>): Read {
  const def = schema._zod.def;
  if (('coerce' in def && def.coerce === true) || path.has(schema)) return zodValue(schema);
  const within = new Set(path).add(schema);
  // Refinements and other checks on kinds that take none here are zod's.
  const checked = (def.checks?.length ?? 0) > 0;
  switch (def.type) {
    case 'string': {
      const test = testsOf(checksOf(schema), stringTest);
      if (test === null) return zodValue(schema);
      return (v) => (typeof v === 'string' && test(v) ? v : FAIL);
    }
    case 'number': {
      const test = testsOf(checksOf(schema), numberTest);
      if (test === null) return zodValue(schema);
      return (v) => (typeof v === 'number' && Number.isFinite(v) && test(v) ? v : FAIL);
    }
    case 'array': {
      const test = testsOf((def.checks ?? []).map(checkDefOf), lengthTest);
      if (test === null) return zodValue(schema);
      return arrayReader(reader(schemaOf(def.element), within), test);
    }
    case 'object':
      return (!checked && objectReader(def, within)) || zodValue(schema);
  }
  if (checked) return zodValue(schema);
  switch (def.type) {
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : FAIL);
    case 'null':
      return (v) => (v === null ? v : FAIL);
    case 'never':
      return () => FAIL;
    case 'enum':
    case 'literal': {
      // Asked of any value: a set answers false for one of another type.
      const values: ReadonlySet<unknown> | undefined = schema._zod.values;
      if (values === undefined || ![...values].every(isJsonScalar)) return zodValue(schema);
      return (v) => (values.has(v) ? v : FAIL);
    }
    case 'optional': {
      const inner = schemaOf(def.innerType);
      // An exact optional refuses `undefined`; an inner schema that takes absence itself (a default, which zod 4.0
      // fills in through the optional and later releases do not) is zod's.
      if (schema._zod.traits.has('$ZodExactOptional') || inner._zod.optin !== undefined) return zodValue(schema);
      const read = reader(inner, within);
      return (v) => (v === undefined ? undefined : read(v));
    }
    case 'nullable': {
      const read = reader(schemaOf(def.innerType), within);
      return (v) => (v === null ? null : read(v));
    }
    case 'default': {
      const read = reader(schemaOf(def.innerType), within);
      // Read on every use, as zod does: its getter gives a fresh copy of an object default.
      return (v) => {
        if (v === undefined) return def.defaultValue;
        const r = read(v);
        return r === undefined ? def.defaultValue : r;
      };
    }
    case 'pipe': {
      // zod parses `in`, then `out` on what `in` gave.
      const first = reader(schemaOf(def.in), within);
      const then = reader(schemaOf(def.out), within);
      return (v) => {
        const r = first(v);
        return r === FAIL ? FAIL : then(r);
      };
    }
    case 'transform':
      // The built-in Number adds no issue and has no state: applying it here is what zod does.
      return (def.transform as unknown) === Number ? (v) => Number(v) : transformReader(def.transform as Transform);
    case 'union':
      return unionReader(def.options.map(schemaOf), within) ?? zodValue(schema);
    default:
      return zodValue(schema);
  }
}

/** A transform's function as zod calls it: the value, and the payload it may add issues to. */
type Transform = (value: unknown, payload: TransformPayload) => unknown;

/** What zod hands a transform beside the value: the value again, the issues so far, and `addIssue`. */
interface TransformPayload {
  value: unknown;
  readonly issues: unknown[];
  addIssue(issue: unknown): void;
}

/**
 * A transform applied as zod's classic transform applies it (the value, and a payload to add issues to); any
 * issue added, or a promise returned (zod's parse refuses async), is FAIL, so that zod parses the value again to
 * word why. Only the generated query helpers transform (`listLimit`, `querySort`, `queryNames`, `queryList`), and
 * none keeps state, so calling one again on the refused path changes nothing; calling it here spares zod's parse
 * machinery on every request that reads one.
 */
function transformReader(transform: Transform): Read {
  // One payload for every call, emptied before each: no helper keeps it, nor reads another value while it runs.
  const issues: unknown[] = [];
  const payload: TransformPayload = { value: undefined, issues, addIssue: (issue) => issues.push(issue) };
  return (value) => {
    issues.length = 0;
    payload.value = value;
    const out = transform(value, payload);
    return issues.length > 0 || out instanceof Promise ? FAIL : out;
  };
}

/** The JSON type every value a schema takes has (`string`, `number`, `boolean`), or null when it cannot tell. */
function jsonTypeOf(schema: Schema): string | null {
  const def = schema._zod.def;
  if ('coerce' in def && def.coerce === true) return null;
  if (def.type === 'string' || def.type === 'number' || def.type === 'boolean') return def.type;
  if (def.type === 'pipe') return jsonTypeOf(schemaOf(def.in));
  if (def.type === 'enum' || def.type === 'literal') {
    const values: ReadonlySet<unknown> = schema._zod.values ?? new Set();
    const types = new Set([...values].map((v) => typeof v));
    return types.size === 1 ? [...types][0]! : null;
  }
  return null;
}

/**
 * A union whose `options` take values of distinct JSON types (`queryNumber`: text or a number): a value can only be
 * one option's, which reads it, as zod's first successful option would. Null for any other union (zod's).
 */
function unionReader(options: readonly Schema[], within: ReadonlySet<Schema>): Read | null {
  const types = options.map(jsonTypeOf);
  if (options.length === 0 || types.some((t) => t === null) || new Set(types).size !== types.length) return null;
  const byType = new Map(options.map((o, i) => [types[i]!, reader(o, within)]));
  return (v) => {
    const read = byType.get(typeof v);
    return read === undefined ? FAIL : read(v);
  };
}

function arrayReader(item: Read, test: (v: unknown[]) => boolean): Read {
  return (value) => {
    if (!Array.isArray(value) || !test(value)) return FAIL;
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const r = item(value[i]);
      if (r === FAIL) return FAIL;
      out.push(r);
    }
    return out;
  };
}

/**
 * The reader of an object schema that strips unknown keys or (strict, a `never` catchall) refuses them;
 * null for any other catchall, symbol keys or a key `Object.prototype` has (zod reads inherited keys).
 * Each member is read as zod's object parse reads it: its key present or absent, the member's absence
 * rungs (`optin`, `optout`) deciding whether an absent key is left out, fails, or takes a default.
 */
function objectReader(def: core.$ZodObjectDef, within: ReadonlySet<Schema>): Read | null {
  const shape = def.shape;
  const catchall = def.catchall === undefined ? undefined : schemaOf(def.catchall)._zod.def.type;
  if (catchall !== undefined && catchall !== 'never') return null;
  if (Object.getOwnPropertySymbols(shape).length > 0) return null;
  const keys = Object.keys(shape);
  if (keys.some((k) => k in Object.prototype)) return null;
  const known = new Set(keys);
  const strict = catchall === 'never';
  const members = keys.map((key) => {
    const member = schemaOf(shape[key]!);
    return {
      key,
      read: reader(member, within),
      optin: member._zod.optin,
      defaulted: isDefaulted(member),
      optional: member._zod.optout === 'optional',
    };
  });
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return FAIL;
    const input = value as Record<string, unknown>;
    if (strict) for (const key in input) if (!known.has(key)) return FAIL;
    const out: Record<string, unknown> = {};
    for (const { key, read, optin, defaulted, optional } of members) {
      const present = key in input;
      // An absent key is read as `undefined`: what the member makes of it (nothing, or a default) is what zod makes.
      const r = read(input[key]);
      // zod may overlook a failure on an absent key (an optional default): it decides that one.
      if (r === FAIL || (!present && optin === undefined)) return FAIL;
      if (r !== undefined) out[key] = r;
      else if (present || (defaulted && !optional)) out[key] = undefined;
    }
    return out;
  };
}

/**
 * Reads a value as zod's parse of `schema` would return it, or FAIL where zod may not accept it; null for
 * a schema that is not an object (zod parses those).
 */
export function createCheckedReader(schema: z.ZodType): ((value: unknown) => unknown) | null {
  const read = schemaOf(schema);
  const def = read._zod.def;
  if (def.type !== 'object' || (def.checks?.length ?? 0) > 0) return null;
  return objectReader(def, new Set([read]));
}

/**
 * `schema.safeParse` for a request's body or query, with valid input read in one pass by the checked reader
 * and the rest parsed by zod (to accept it after all, or to say why not).
 */
export function createRequestParser(schema: z.ZodType): (input: unknown) => z.ZodSafeParseResult<Record<string, unknown>> {
  const read = createCheckedReader(schema);
  return (input) => {
    const data = read === null ? FAIL : read(input);
    if (data !== FAIL) return { success: true, data: data as Record<string, unknown> };
    return schema.safeParse(input) as z.ZodSafeParseResult<Record<string, unknown>>;
  };
}
