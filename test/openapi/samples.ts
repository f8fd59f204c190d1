/**
 * @module Test helper: fast-check arbitraries of JSON values for a collection's shapes, built from the
 * model. Mostly near-valid values (so that both "accepted" and "rejected" are common) with the edge
 * cases where validators tend to differ: bounds plus or minus one, formats almost right, null, wrong
 * types, missing keys, unknown keys, read-only and write-only keys.
 *
 * Strings stay within the Basic Multilingual Plane: zod counts string length in UTF-16 code units and
 * JSON Schema in code points, so a string with astral characters (emoji) near a length bound is the one
 * known place where they differ.
 */
import fc from 'fast-check';
import type { FieldAt, TypeIR } from '../../generator/model/ir.ts';

type Arb = fc.Arbitrary<unknown>;

const BMP_CHAR = fc.integer({ min: 0x20, max: 0xd7ff }).map((c) => String.fromCharCode(c));

/** Values of one kind: mostly `valid` ones, sometimes an `edge` (near-miss or tricky) one. */
interface Values {
  readonly valid: Arb;
  readonly edge: Arb;
}

function strings(t: Extract<TypeIR<FieldAt>, { kind: 'string' }>): Values {
  const min = t.min ?? 0;
  const max = t.max ?? min + 12;
  const lengths = [min, max, Math.max(0, min - 1), max + 1];
  const sized = fc.constantFrom(...lengths).chain((n) => fc.string({ unit: BMP_CHAR, minLength: n, maxLength: n }));
  if (t.pattern !== undefined) {
    return { valid: fc.stringMatching(new RegExp(t.pattern)), edge: fc.oneof(sized, fc.string({ unit: BMP_CHAR, maxLength: 12 })) };
  }
  return { valid: fc.string({ unit: BMP_CHAR, minLength: min, maxLength: Math.min(max, min + 40) }), edge: sized };
}

function datetimes(): Values {
  const iso = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString());
  const valid = iso.chain((s) => fc.constantFrom(s, s.replace(/\.\d+Z$/, 'Z'), s.replace('Z', '+05:30'), s.replace('Z', '-23:59')));
  const almost = iso.chain((s) =>
    fc.constantFrom(
      s.replace('Z', '+0530'),
      s.replace('Z', '+24:00'),
      s.replace('Z', ''),
      s.replace('T', 't'),
      s.replace('T', ' '),
      s.toLowerCase(),
      s.replace(/:\d\d\.\d+Z$/, 'Z'),
      s.slice(0, 10),
    ),
  );
  const fixed = fc.constantFrom('2024-02-29T00:00:00Z', '2023-02-29T00:00:00Z', '2024-12-31T23:59:60Z', '2024-04-31T10:00:00Z', '');
  return { valid, edge: fc.oneof(almost, fixed) };
}

function dates(): Values {
  const valid = fc.date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  const edge = fc.constantFrom('2024-02-29', '2023-02-29', '1900-02-29', '2000-02-29', '2024-13-01', '2024-1-01', '20240101', '2024-02-30');
  return { valid, edge };
}

function uuids(): Values {
  const valid = fc.uuid();
  const almost = fc
    .uuid({ version: [1, 4, 7, 9, 15] })
    .chain((u) => fc.constantFrom(u, u.toUpperCase(), `urn:uuid:${u}`, u.replaceAll('-', ''), `{${u}}`, u.slice(1), `${u}0`));
  const special = fc.constantFrom('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '00000000-0000-0000-0000-000000000001');
  return { valid, edge: fc.oneof(almost, special) };
}

function emails(): Values {
  const edge = fc.constantFrom(
    'a..b@x.io',
    '.a@x.io',
    'a.@x.io',
    'a@x',
    'a@x.c',
    'a@x.c0m',
    "o'neil@x.io",
    'a@-x.io',
    'a@x-.io',
    'a b@x.io',
    '@x.io',
    'A@X.IO',
  );
  // fast-check's RFC addresses use characters zod refuses: they are edge cases here, not valid ones.
  const plain = fc.stringMatching(/^[a-z0-9]{1,8}(?:[.+_-][a-z0-9]{1,8})?@[a-z0-9]{1,8}(?:-[a-z0-9]{1,8})?\.[a-z]{2,6}$/);
  return { valid: fc.oneof(fc.constantFrom('a@example.com', 'a.b+c@x.io'), plain), edge: fc.oneof(edge, fc.emailAddress()) };
}

function ints(min?: number, max?: number): Values {
  const lo = min ?? -1_000_000;
  const hi = max ?? 1_000_000;
  const edges = [lo - 1, hi + 1, 0.5, lo + 0.5, 2 ** 53, -(2 ** 53), 2 ** 53 - 1, 1e21, min ?? 0, max ?? 0];
  return { valid: fc.integer({ min: lo, max: hi }), edge: fc.constantFrom(...edges) };
}

function numbers(min?: number, max?: number): Values {
  const valid = fc.double({ min: min ?? -1e9, max: max ?? 1e9, noNaN: true, noDefaultInfinity: true });
  const edges = [min, max, min === undefined ? undefined : min - 1e-9, max === undefined ? undefined : max + 1e-9, 1.7e308, 0];
  return { valid, edge: fc.constantFrom(...edges.filter((n): n is number => n !== undefined)) };
}

function valuesOf(type: TypeIR<FieldAt>, mode: ObjectMode): Values {
  switch (type.kind) {
    case 'string':
      return strings(type);
    case 'int':
      return ints(type.min, type.max);
    case 'number':
      return numbers(type.min, type.max);
    case 'boolean':
      return { valid: fc.boolean(), edge: fc.constantFrom('true', 0) };
    case 'enum':
      return { valid: fc.constantFrom(...type.values), edge: fc.constantFrom('', type.values[0]!.toUpperCase() + '_') };
    case 'datetime':
      return datetimes();
    case 'date':
      return dates();
    case 'uuid':
    case 'id':
    case 'ref':
      return uuids();
    case 'email':
      return emails();
    case 'url':
      return { valid: fc.webUrl(), edge: fc.constantFrom('not a url', 'https://', 'mailto:a@b.c') };
    case 'array': {
      const item = typeValues(type.of, mode);
      const min = type.min ?? 0;
      const max = type.max ?? 3;
      return {
        valid: fc.array(item, { minLength: min, maxLength: Math.min(max, min + 3) }),
        edge: fc.constantFrom(Math.max(0, min - 1), max, max + 1).chain((n) => fc.array(item, { minLength: n, maxLength: n })),
      };
    }
    case 'object':
      return { valid: objectValues(type.fields, mode), edge: fc.constantFrom([], 'x', null) };
    case 'file': {
      // A request never holds a file in JSON (it travels as a multipart part); an answer holds its metadata.
      const sha256 = fc.stringMatching(/^[0-9a-f]{64}$/);
      const metadata = fc.record({ name: fc.string({ maxLength: 12 }), type: fc.constantFrom(...type.types), size: fc.nat(), sha256, href: fc.webPath() });
      const almost = metadata.chain((m) => fc.constantFrom({ ...m, size: -1 }, { ...m, sha256: m.sha256.toUpperCase() }, { name: m.name, type: m.type }));
      return mode === 'request' ? { valid: fc.constantFrom('file', {}), edge: metadata } : { valid: metadata, edge: almost };
    }
  }
}

/**
 * How often a value is an edge case. Whole objects need most of their values valid (or nearly every
 * object is rejected); one field on its own can afford edge cases half the time.
 */
export type Mix = 'object' | 'field';

const WEIGHTS: { readonly [M in Mix]: readonly [valid: number, edge: number, wrong: number] } = {
  object: [80, 3, 1],
  field: [4, 4, 1],
};

/** Values of a type: mostly valid, some almost valid, a few of another type. */
export function typeValues(type: TypeIR<FieldAt>, mode: ObjectMode, mix: Mix = 'object'): Arb {
  const { valid, edge } = valuesOf(type, mode);
  const wrong: Arb = fc.constantFrom(null, 1, 'x', true, [], {});
  const [v, e, w] = WEIGHTS[mix];
  return fc.oneof({ weight: v, arbitrary: valid }, { weight: e, arbitrary: edge }, { weight: w, arbitrary: wrong });
}

/** Which keys an object sample favours: a body leaves read-only fields out, a response write-only ones. */
export type ObjectMode = 'request' | 'response';

/** Values of one field: its type's values, and null now and then when it is nullable. */
export function fieldValues(field: FieldAt, mode: ObjectMode, mix: Mix = 'object'): Arb {
  const values = typeValues(field.type, mode, mix);
  return field.nullable ? fc.oneof({ weight: 6, arbitrary: values }, { weight: 1, arbitrary: fc.constant(null) }) : values;
}

const ABSENT = Symbol('absent');

/** Objects with the given fields: each key usually present (read-only keys in requests usually absent), sometimes an unknown key. */
export function objectValues(fields: readonly FieldAt[], mode: ObjectMode): Arb {
  const entries = fields.map((f) => {
    const unusual = (mode === 'request' && f.readOnly) || (mode === 'response' && f.writeOnly);
    const presence = unusual ? 1 : f.optional || f.default ? 3 : 40;
    return fc.oneof(
      { weight: presence, arbitrary: fieldValues(f, mode).map((v) => [f.name, v] as const) },
      { weight: unusual ? 20 : 1, arbitrary: fc.constant(ABSENT) },
    );
  });
  const extra = fc.oneof(
    { weight: 8, arbitrary: fc.constant(ABSENT) },
    { weight: 1, arbitrary: fc.constantFrom('unknown', 'ID', '__proto__x').map((k) => [k, 1] as const) },
  );
  return fc.tuple(fc.tuple(...entries), extra).map(([pairs, more]) => {
    const out: Record<string, unknown> = {};
    for (const p of [...pairs, more]) if (typeof p !== 'symbol') out[p[0]] = p[1];
    return out;
  });
}

/** Samples for a shape: objects of the collection's fields, now and then not an object at all. */
export function shapeValues(fields: readonly FieldAt[], mode: ObjectMode): Arb {
  return fc.oneof({ weight: 20, arbitrary: objectValues(fields, mode) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });
}

/** Samples of a list page: `{ data, next_cursor }` with resource-like items. */
export function pageValues(fields: readonly FieldAt[]): Arb {
  const page = fc.record({
    data: fc.oneof({ weight: 10, arbitrary: fc.array(objectValues(fields, 'response'), { maxLength: 2 }) }, { weight: 1, arbitrary: fc.constant(ABSENT) }),
    next_cursor: fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null), fc.constant(3), fc.constant(ABSENT)),
  });
  const withoutAbsent = page.map((p) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== ABSENT)));
  return fc.oneof({ weight: 10, arbitrary: withoutAbsent }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });
}
