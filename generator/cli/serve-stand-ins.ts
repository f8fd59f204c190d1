/**
 * @module The stand-in migration hooks of `restgen serve`: for each change the version markers cannot express (a
 * type change, a removal without fallback, a field made optional) there is no user code to ask, so serve converts
 * values itself, and never into one the receiving version refuses: a value that does not convert is left out where
 * the field is optional there (a PATCH then keeps what is stored; a create or replace stores nothing), else replaced
 * by a value that version accepts (the field's example, its default, a sample). Every answer of serve names the
 * hooks that stand in (`Restgen-Stand-In-Hooks`), so `restgen conformance` knows what it is checking.
 */
import type { ApiIR, FieldShape, TypeIR } from '../model/ir.ts';
import { assertNever, kindOf, sampleOf } from '../model/kinds.ts';
import { shapeAt } from '../model/project.ts';
import { checkFieldValue } from '../model/values.ts';

/**
 * The answer header naming the stand-in hooks a `restgen serve` runs (their ids, `<version>.<collection>.<field>`,
 * comma-separated): how a client, `restgen conformance` first, knows that values of those fields in the versions
 * before each hook's are serve's guesses. `@restgen/conformance` reads the same name (a test keeps them equal).
 */
export const STAND_IN_HEADER = 'restgen-stand-in-hooks';

type Fn = (...args: unknown[]) => unknown;

/** The stand-in hooks by version, collection and field, as `migrations` of `registerXApi` takes them. */
export type StandInMigrations = Record<string, Record<string, Record<string, Record<string, Fn>>>>;

/** One stand-in hook: its id and what it does, for serve's warning. */
export interface StandIn {
  readonly id: string;
  readonly what: string;
}

/** Converts a value to the kind of `type` (there is no user code to ask); the result may still break its bounds. */
function coerce(type: TypeIR, value: unknown): unknown {
  if (type.kind === 'enum') return type.values.includes(String(value)) ? value : type.values[0];
  const wire = kindOf(type).wire;
  switch (wire) {
    case 'integer':
    case 'number': {
      // The number inside a text like "AB-1234" (the dash is a separator, not a sign).
      const n = Number(typeof value === 'string' ? (/\d+(\.\d+)?/.exec(value)?.[0] ?? 'NaN') : value);
      return Number.isFinite(n) ? (wire === 'integer' ? Math.trunc(n) : n) : sampleOf(type);
    }
    case 'boolean':
      return Boolean(value);
    case 'array':
      return Array.isArray(value) ? value : [value];
    case 'object':
      return value;
    case 'string':
      return typeof value === 'string' ? value : JSON.stringify(value);
    default:
      return assertNever(wire, 'wire type');
  }
}

/** Values `shape` may take that serve can name without user code, most telling first: its example, its default, a sample. */
function fallbacks(shape: FieldShape): unknown[] {
  const text = shape.type.kind === 'string' ? ['unknown'] : [];
  return [shape.example?.value, shape.default?.value, ...(shape.nullable ? [null] : []), ...text, sampleOf(shape.type)];
}

/** A value `shape` accepts, for a required field; undefined when serve can name none (no example, a pattern). */
function acceptedValue(shape: FieldShape): unknown {
  return fallbacks(shape).find((v) => v !== undefined && checkFieldValue(shape, v) === undefined);
}

/**
 * `value` converted for a version where the field has `shape`: as it converts when that version accepts it, else
 * left out (an optional field) or a value the version accepts. Throws, naming the hook, when there is none: the
 * request then answers 500 instead of storing (or answering) a value the version refuses.
 */
function converted(shape: FieldShape, value: unknown, id: string): unknown {
  if (value === undefined || value === null) return value;
  const coerced = coerce(shape.type, value);
  if (checkFieldValue(shape, coerced) === undefined) return coerced;
  if (shape.optional) return undefined;
  const accepted = acceptedValue(shape);
  if (accepted !== undefined) return accepted;
  throw new Error(`restgen serve's stand-in ${id} cannot convert ${JSON.stringify(value)}; pass your own hook, or give the field an .example()`);
}

/**
 * Stand-in migration hooks for every change the markers cannot express: values converted between the two types
 * (never into one the receiving version refuses), removed fields answering nothing, fields made optional answering
 * a value the older version accepts when missing. Returns the hooks and what each does, for the warning `serve`
 * prints and the header it sends.
 */
export function createStandInMigrations(ir: ApiIR): { migrations: StandInMigrations; stands: StandIn[] } {
  const versions = ir.versions.map((v) => v.name);
  const migrations: StandInMigrations = {};
  const stands: StandIn[] = [];
  const put = (version: string, c: string, f: string, hooks: Record<string, Fn>, what: string) => {
    ((migrations[version] ??= {})[c] ??= {})[f] = hooks;
    stands.push({ id: `${version}.${c}.${f}`, what });
  };
  for (const c of ir.collections)
    for (const f of c.fields) {
      for (const change of f.typeChanges) {
        const k = versions.indexOf(change.version);
        const before = shapeAt(versions, k - 1, f);
        const after = shapeAt(versions, k, f);
        const id = `${change.version}.${c.name}.${f.name}`;
        put(
          change.version,
          c.name,
          f.name,
          { up: (v) => converted(after, v, `${id}.up`), down: (v) => converted(before, v, `${id}.down`) },
          'values converted between the types, and left out where they do not convert',
        );
      }
      if (f.removedIn && !f.removedIn.fallback) put(f.removedIn.version, c.name, f.name, { value: () => undefined }, 'answers no value');
      for (const o of f.optionality.filter((x) => x.to === 'optional')) {
        const shape = shapeAt(versions, versions.indexOf(o.version) - 1, f);
        const value = acceptedValue(shape);
        const id = `${o.version}.${c.name}.${f.name}`;
        const missing = () => {
          if (value === undefined) throw new Error(`restgen serve's stand-in ${id}.whenMissing cannot name a value; pass your own hook`);
          return value;
        };
        put(
          o.version,
          c.name,
          f.name,
          { whenMissing: missing },
          value === undefined ? 'cannot name a value the older versions accept: give the field an .example()' : `answers ${JSON.stringify(value)} when missing`,
        );
      }
    }
  return { migrations, stands };
}
