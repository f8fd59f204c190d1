/**
 * The JSON text of an answer checked by its response schema in the same pass that writes it:
 * `createCheckedText` writes what `JSON.stringify` makes of zod's parse output and fails where zod's parse
 * would, for schemas of plain kinds it can read exactly (anything else: null, and zod parses as before).
 * A checked write that fails says nothing about why: the caller lets zod parse the value to word the
 * failure, and zod's verdict is final, so a check here can only ever be stricter than zod, never looser.
 * `createWriter` puts both writers behind the shaper's contract.
 */
import type { z } from 'zod';
import { createStrippedText, type Member, membersOf, primitiveText, stringText, type Readers } from './json-text.js';
import { createShaper, type Failed } from './shape.js';
import type * as core from 'zod/v4/core';
import { checksOf, escapeFree, isJsonScalar, lengthTest, numberTest, stringTest, testsOf } from './zod-checks.js';
import { checkDefOf, defOf, schemaOf, type Schema, type SchemaDef } from './zod-internals.js';

/** A checked writer's verdict on a value: its text, nothing (an optional value left out), or FAIL. */
const FAIL = null;
type Checked = (value: unknown) => string | undefined | typeof FAIL;

/** A string schema with a check not read here (`z.url()`): zod's parse of that one value decides. */
function zodString(schema: Schema): Checked {
  const parse = (schema as unknown as z.ZodType).safeParse.bind(schema);
  return (value) => {
    const parsed = parse(value);
    return parsed.success && typeof parsed.data === 'string' ? stringText(parsed.data) : FAIL;
  };
}

/** Whether a schema, looked at through nullable, lets its key be absent (zod's `optional` rung). */
const isOptional = (def: SchemaDef): boolean => def.type === 'optional' || (def.type === 'nullable' && isOptional(defOf(def.innerType)));

/** The checked writer of a schema, or null when it holds a kind or a check not read here. */
function checked(schema: Schema): Checked | null {
  const def = schema._zod.def;
  if ('coerce' in def && def.coerce === true) return null;
  switch (def.type) {
    case 'string': {
      const checks = checksOf(schema);
      const test = testsOf(checks, stringTest);
      if (test === null) return zodString(schema);
      // A string its format's pattern (tested above) allows only with plain characters is quoted as it is.
      const plain = checks.some((c) => c.check === 'string_format' && c.pattern instanceof RegExp && escapeFree(c.pattern));
      if (plain) return (v) => (typeof v === 'string' && test(v) ? `"${v}"` : FAIL);
      return (v) => (typeof v === 'string' && test(v) ? stringText(v) : FAIL);
    }
    case 'number': {
      const test = testsOf(checksOf(schema), numberTest);
      if (test === null) return null;
      return (v) => (typeof v === 'number' && Number.isFinite(v) && test(v) ? String(v) : FAIL);
    }
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? String(v) : FAIL);
    case 'null':
      return (v) => (v === null ? 'null' : FAIL);
    case 'enum':
    case 'literal': {
      const values = schema._zod.values;
      if (values === undefined || ![...values].every(isJsonScalar)) return null;
      // Each value's text, written once (asked of any value: a map answers undefined for one of another type).
      const texts: ReadonlyMap<unknown, string> = new Map([...values].map((v) => [v, primitiveText(v)!]));
      return (v) => texts.get(v) ?? FAIL;
    }
    case 'optional': {
      if (schema._zod.traits.has('$ZodExactOptional')) return null;
      const inner = checked(schemaOf(def.innerType));
      return inner ? (v) => (v === undefined ? undefined : inner(v)) : null;
    }
    case 'nullable': {
      const inner = checked(schemaOf(def.innerType));
      return inner ? (v) => (v === null ? 'null' : inner(v)) : null;
    }
    case 'array':
      return checkedArray(def);
    case 'object':
      return checkedObject(def);
    default:
      return null;
  }
}

function checkedArray(def: core.$ZodArrayDef): Checked | null {
  const item = checked(schemaOf(def.element));
  const test = testsOf((def.checks ?? []).map(checkDefOf), lengthTest);
  if (!item || test === null) return null;
  return (value) => {
    if (!Array.isArray(value) || !test(value)) return FAIL;
    let text = '[';
    for (let i = 0; i < value.length; i++) {
      const t = item(value[i]);
      if (t === FAIL) return FAIL;
      text += (i === 0 ? '' : ',') + (t ?? 'null');
    }
    return text + ']';
  };
}

/** What a member reader gives where zod would find no key. */
const ABSENT = Symbol('absent');
/** How an object writer reads a member: its own reader, or null to read the key as zod does. */
type MemberReader = ((record: Record<string, unknown>) => unknown) | null;

function checkedObject(def: core.$ZodObjectDef, readerOf: (key: string) => MemberReader = () => null): Checked | null {
  const shape = def.shape;
  // Loose and strict objects (a catchall) and symbol keys are left to zod.
  if (def.catchall !== undefined) return null;
  if (Object.getOwnPropertySymbols(shape).length > 0) return null;
  const keys = Object.keys(shape);
  if (keys.includes('__proto__')) return null;
  const members = membersOf(keys, (k) => {
    const member = schemaOf(shape[k]!);
    return {
      check: checked(member),
      optional: isOptional(member._zod.def),
      read: readerOf(k),
    };
  });
  if (members.some((m) => m.write.check === null)) return null;
  return compiledObject(members as readonly Member<MemberWrite>[]) ?? genericObject(members as readonly Member<MemberWrite>[]);
}

/** How one member of an object is read and checked. */
interface MemberWrite {
  readonly check: Checked;
  readonly optional: boolean;
  readonly read: MemberReader;
}

/**
 * The object writer of `members` as code of its own, one statement per member (as fast-json-stringify
 * compiles its serializers): every schema's writer is then a function V8 optimizes for that schema's values
 * alone, where one shared loop serving every schema of a server sees every shape. Only the keys and names,
 * written as JSON string literals, become code; checks and readers are passed in. Null where the platform
 * refuses code from strings (`--disallow-code-generation-from-strings`): the generic writer does the same.
 */
function compiledObject(members: readonly Member<MemberWrite>[]): Checked | null {
  const body = members.map(({ key, name, write }, i) => {
    const literal = JSON.stringify(key);
    const read =
      write.read === null ? `read = value[${literal}];\n  if (read === undefined && !(${literal} in value)) read = ABSENT;` : `read = reads[${i}](value);`;
    const absent = write.optional ? '' : 'return FAIL;';
    return `  ${read}\n  if (read === ABSENT) {${absent}} else {\n    member = checks[${i}](read);\n    if (member === FAIL) return FAIL;\n    if (member !== undefined) text += (text === '' ? '{' : ',') + ${JSON.stringify(name)} + member;\n  }`;
  });
  const source = `return (value) => {\n  if (typeof value !== 'object' || value === null || Array.isArray(value)) return FAIL;\n  let text = '';\n  let read;\n  let member;\n${body.join('\n')}\n  return text === '' ? '{}' : text + '}';\n};`;
  try {
    return new Function('FAIL', 'ABSENT', 'checks', 'reads', source)(
      FAIL,
      ABSENT,
      members.map((m) => m.write.check),
      members.map((m) => m.write.read),
    ) as Checked;
  } catch (error) {
    // Refused code generation is an EvalError; anything else is a bug in the source above, and must show.
    if (error instanceof EvalError) return null;
    throw error;
  }
}

/** The object writer of `members`, as one loop over them. */
function genericObject(members: readonly Member<MemberWrite>[]): Checked {
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return FAIL;
    const record = value as Record<string, unknown>;
    let text = '';
    for (const { key, name, write } of members) {
      // As zod reads a key: present when `in` finds it (inherited too), asked only of an undefined value.
      let read: unknown;
      if (write.read === null) {
        read = record[key];
        if (read === undefined && !(key in record)) read = ABSENT;
      } else read = write.read(record);
      if (read === ABSENT) {
        if (write.optional) continue;
        return FAIL;
      }
      const member = write.check!(read);
      if (member === FAIL) return FAIL;
      if (member !== undefined) text += (text === '' ? '{' : ',') + name + member;
    }
    return text === '' ? '{}' : text + '}';
  };
}

/**
 * The checked writer of an object schema whose members are read by `readers` (one per key): what it
 * writes of a value is what it would write of the object `{ [key]: read(value) }` holding the keys whose
 * reader gives a value. Null where that object would lend a key from `Object.prototype` to zod (which
 * reads inherited keys), as for any schema the checked writer does not read.
 */
function checkedObjectVia(schema: Schema, readers: Readers): Checked | null {
  const def = schema._zod.def;
  if (def.type !== 'object') return null;
  if (Object.keys(def.shape).some((k) => k in Object.prototype)) return null;
  return checkedObject(def, (key) => {
    const read = readers.get(key)!;
    return (record) => {
      const value = read(record);
      return value === undefined ? ABSENT : value;
    };
  });
}

/**
 * Writes `JSON.stringify` of zod's parse output for a value zod's parse accepts, and null for any other
 * (then zod must parse it, to accept it after all or to say why not). Null instead of a writer when the
 * schema holds a kind or a check not read here: defaults, transforms, unions, records, loose or strict
 * objects, refinements, coercion, rewriting checks (`.trim()`), and number checks other than bounds and
 * integer formats.
 */
export function createCheckedText(schema: z.ZodType, readers?: Readers): ((value: unknown) => string | null) | null {
  const read = schemaOf(schema);
  const write = readers === undefined ? checked(read) : checkedObjectVia(read, readers);
  if (write === null) return null;
  return (value) => write(value) ?? null;
}

/** An answer's JSON text, and the value it was written from. */
export interface Written {
  readonly ok: true;
  readonly text: string;
  readonly from: unknown;
}

/**
 * An older version's answer written from a newest resource: the reader of each member (what the down
 * migration sets it to), and the older resource built whole (for zod's verdict when a check fails).
 */
export interface Via {
  readonly readers: Readers;
  readonly build: (value: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * The JSON text of an answer shaped by `schema`, the text `JSON.stringify` makes of what
 * {@link createShaper} returns: checked (`validate`) or stripped only. The value is an object; with `via`,
 * a newest resource written as the older one `via.build` makes of it, without building it unless a check
 * fails (then `from` is the newest resource when the text was written from it).
 */
export function createWriter(schema: z.ZodType, validate: boolean, via?: Via): (value: unknown) => Written | Failed {
  if (!validate) {
    const strip = createStrippedText(schema, via?.readers);
    // An object always has a text: `?? "{}"` only satisfies the type.
    return (value) => ({ ok: true, text: strip(value) ?? '{}', from: value });
  }
  const write = createCheckedText(schema, via?.readers);
  if (via !== undefined && write === null) {
    // Not writable from the newest resource: build the older one and write that.
    const written = createWriter(schema, true);
    return (value) => written(via.build(value as Record<string, unknown>));
  }
  const shape = createShaper(schema, true);
  const older = via?.build;
  return (value) => {
    const text = write === null ? null : write(value);
    if (text !== null) return { ok: true, text, from: value };
    const shaped = shape(older === undefined ? value : older(value as Record<string, unknown>));
    return shaped.ok ? { ok: true, text: JSON.stringify(shaped.value), from: shaped.value } : shaped;
  };
}
