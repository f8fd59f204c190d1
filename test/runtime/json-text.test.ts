/**
 * `packages/runtime/src/json-text.ts` as source, differentially: on the same values, the stripped text must be
 * byte for byte `JSON.stringify` of the key-tree strip, and the checked text must be `JSON.stringify` of
 * zod's parse output where zod accepts and nothing where zod rejects (never looser than zod). Schemas: the
 * example's response schemas of every version, the bench's, and schemas built to reach every kind and
 * check; values: valid ones and seeded random mutations of them.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hasExactOptional } from '../helpers/zod-version.ts';
import { createCheckedText, createWriter } from '../../packages/runtime/src/checked-text.ts';
import { createStrippedText } from '../../packages/runtime/src/json-text.ts';
import { createShaper } from '../../packages/runtime/src/shape.ts';
import { exampleOfPattern } from '../../generator/model/pattern-example.ts';
import { mutate, random } from '../helpers/mutate.ts';
import * as ShopV1 from '../../examples/shop/generated/v1/schemas.ts';
import * as ShopV2 from '../../examples/shop/generated/v2/schemas.ts';
import * as ShopV3 from '../../examples/shop/generated/v3/schemas.ts';

const ID = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11';
const AT = '2026-03-01T00:00:00.000Z';

const Kinds = z.object({
  id: z.uuid(),
  email: z.email(),
  site: z.url().optional(),
  name: z.string().min(2).max(5),
  code: z.string().length(3).optional(),
  zip: z.string().regex(/^\d{4,10}$/),
  day: z.iso.date().nullable(),
  count: z.int().min(0).max(1000),
  ratio: z.number().gt(0).lt(1).optional(),
  flag: z.boolean(),
  tier: z.enum(['free', 'pro']),
  kind: z.literal('k'),
  nothing: z.null().optional(),
  '10': z.string().optional(),
  '2': z.int().optional(),
  tags: z.array(z.string().min(1).max(30)).max(3),
  slots: z.array(z.string().nullable()).min(1).optional(),
  nested: z.object({ a: z.string(), b: z.array(z.object({ c: z.int().nullable() })) }).optional(),
  maybe: z.string().nullable().optional(),
  createdAt: z.iso.datetime({ offset: true }),
});
const kindsValue = {
  id: ID,
  email: 'a@example.com',
  site: 'https://example.com/x',
  name: 'abc',
  code: 'xyz',
  zip: '12345',
  day: '2026-01-15',
  count: 7,
  ratio: 0.5,
  flag: true,
  tier: 'pro',
  kind: 'k',
  nothing: null,
  '10': 'ten',
  '2': 2,
  tags: ['a', 'b'],
  slots: ['x', null],
  nested: { a: 'q"uote\\', b: [{ c: 1 }, { c: null }] },
  maybe: null,
  createdAt: AT,
};

const responseSchemas = (module: Record<string, unknown>): [string, z.ZodObject][] =>
  Object.entries(module).filter((e): e is [string, z.ZodObject] => e[1] instanceof z.ZodObject && !/(Create|Replace|Patch|Query|Input|List)$/.test(e[0]));
const SCHEMAS: [string, z.ZodObject][] = [
  ['Kinds', Kinds],
  ...responseSchemas(ShopV1).map(([n, s]): [string, z.ZodObject] => [`shop v1 ${n}`, s]),
  ...responseSchemas(ShopV2).map(([n, s]): [string, z.ZodObject] => [`shop v2 ${n}`, s]),
  ...responseSchemas(ShopV3).map(([n, s]): [string, z.ZodObject] => [`shop v3 ${n}`, s]),
];

const ODD: unknown[] = [
  undefined,
  null,
  0,
  -0,
  1.5,
  -7,
  1e21,
  NaN,
  Infinity,
  2 ** 53,
  true,
  false,
  '',
  'x',
  'é',
  '😀',
  '\ud800',
  'a"b',
  'a\\b',
  'line\nbreak',
  '\u0007',
  ID,
  AT,
  'a@example.com',
  [],
  [1],
  ['a', null],
  {},
  { extra: 1 },
  () => 1,
  Symbol('s'),
  new Date(0),
];

/** A valid value of a schema (zod examples are not generated: built from the definition). */
function sample(schema: z.ZodType): unknown {
  const def = (schema as unknown as { def: { type: string; [k: string]: unknown } }).def;
  switch (def.type) {
    case 'object':
      return Object.fromEntries(Object.entries(def['shape'] as Record<string, z.ZodType>).map(([k, s]) => [k, sample(s)]));
    case 'array':
      return [sample(def['element'] as z.ZodType)];
    case 'optional':
    case 'nullable':
      return sample(def['innerType'] as z.ZodType);
    case 'enum':
      return Object.values(def['entries'] as object)[0];
    case 'literal':
      return (def['values'] as unknown[])[0];
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default: {
      const format = (schema as unknown as { format?: string }).format;
      if (format === 'uuid') return ID;
      if (format === 'email') return 'a@example.com';
      if (format === 'datetime') return AT;
      if (format === 'date') return '2026-01-15';
      if (format === 'url') return 'https://example.com/';
      const regex = ((def['checks'] ?? []) as { _zod: { def: { pattern?: RegExp } } }[]).find((c) => c._zod.def.pattern)?._zod.def.pattern;
      return regex ? exampleOfPattern(regex.source, 1, 30) : 'abcdef';
    }
  }
}

/** Values for a schema: a valid one, then mutations (one to three changes) of it. */
function valuesFor(schema: z.ZodType, seed: number, count: number): unknown[] {
  const next = random(seed);
  const base = schema === Kinds ? kindsValue : sample(schema);
  const values: unknown[] = [base];
  for (let i = 0; i < count; i++) {
    let v = base;
    const changes = 1 + Math.floor(next() * 3);
    for (let c = 0; c < changes; c++) v = mutate(v, next, { odd: ODD, keys: ['extra', 'secret', '1', 'constructor'] });
    values.push(v);
  }
  return values;
}

const show = (v: unknown) =>
  JSON.stringify(v, (_k, x) =>
    x === undefined
      ? '<undefined>'
      : typeof x === 'number' && !Number.isFinite(x)
        ? String(x)
        : typeof x === 'function' || typeof x === 'symbol'
          ? String(x)
          : x,
  );

describe.each(SCHEMAS)('%s', (_name, schema) => {
  const values = valuesFor(schema, 7, 600);
  const strip = createShaper(schema, false);
  const parse = createShaper(schema, true);
  const stripped = createStrippedText(schema);
  const checked = createCheckedText(schema);

  it('is read by the checked writer (response schemas hold plain kinds only)', () => {
    expect(checked).not.toBeNull();
  });

  it('the base value is valid', () => {
    expect(schema.safeParse(values[0]).success).toBe(true);
  });

  it('stripped text is JSON.stringify of the key-tree strip, on every value', () => {
    for (const v of values) {
      const shaped = strip(v);
      expect(shaped.ok).toBe(true);
      expect(stripped(v), show(v)).toBe(JSON.stringify(shaped.ok ? shaped.value : null));
    }
  });

  it("checked text is JSON.stringify of zod's output where zod accepts, and null where zod rejects", () => {
    let accepted = 0;
    let rejected = 0;
    for (const v of values) {
      const zod = schema.safeParse(v);
      const text = checked!(v);
      if (!zod.success) expect(text, show(v)).toBeNull();
      else if (text !== null) expect(text, show(v)).toBe(JSON.stringify(zod.data));
      if (zod.success) accepted++;
      else rejected++;
      // Stricter than zod only for strings with surrogates in a length-checked field.
      if (zod.success && text === null) expect(JSON.stringify(v)).toMatch(/[\ud800-\udfff]|\\ud8/);
    }
    // The mutations must exercise both sides.
    expect(accepted).toBeGreaterThan(20);
    expect(rejected).toBeGreaterThan(20);
  });

  it('createWriter agrees with the shaper, checked or not, and words failures as zod does', () => {
    const checkedWriter = createWriter(schema, true);
    const strippedWriter = createWriter(schema, false);
    for (const v of values.filter((x) => typeof x === 'object' && x !== null && !Array.isArray(x))) {
      const shaped = parse(v);
      const written = checkedWriter(v);
      expect(written.ok ? { ok: true, text: written.text } : written).toEqual(shaped.ok ? { ok: true, text: JSON.stringify(shaped.value) } : shaped);
      const plain = strip(v);
      expect(strippedWriter(v)).toMatchObject({ ok: true, text: JSON.stringify(plain.ok ? plain.value : null) });
    }
  });
});

describe('createCheckedText', () => {
  it('reads optional keys as zod does: absent or undefined leaves them out; a required key must be there', () => {
    const write = createCheckedText(z.object({ a: z.string().optional(), b: z.string() }))!;
    expect(write({ b: 'x' })).toBe('{"b":"x"}');
    expect(write({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
    expect(write({ a: 'y' })).toBeNull();
  });

  it('reads each key as zod does: an inherited key counts, an own key holding undefined is no value, a getter is read once', () => {
    const schema = z.object({ a: z.string().optional(), b: z.string() });
    const write = createCheckedText(schema)!;
    const inherited = Object.create({ b: 'x' }) as object;
    expect(write(inherited)).toBe(JSON.stringify(schema.parse(inherited)));
    expect(write({ a: 'y', b: undefined })).toBeNull();
    expect(schema.safeParse({ a: 'y', b: undefined }).success).toBe(false);
    let reads = 0;
    const getter = {
      get b() {
        reads++;
        return 'x';
      },
    };
    expect(write(getter)).toBe('{"b":"x"}');
    expect(reads).toBe(1);
  });

  it('writes keys in the order JSON.stringify writes them (integer keys first)', () => {
    const schema = z.object({ b: z.int(), '2': z.int(), a: z.int(), '1': z.int() });
    const value = { a: 1, b: 2, '1': 3, '2': 4 };
    expect(createCheckedText(schema)!(value)).toBe(JSON.stringify(schema.parse(value)));
  });

  it('escapes what JSON escapes', () => {
    const write = createCheckedText(z.object({ s: z.string() }))!;
    for (const s of ['"', '\\', '\n', '\u0000', '\u2028', '😀', '\udc00', 'plain']) expect(write({ s })).toBe(JSON.stringify({ s }));
  });

  it('is never looser than zod on code points: a surrogate pair in a length-checked string goes to zod', () => {
    const write = createCheckedText(z.object({ s: z.string().min(2) }))!;
    expect(write({ s: '😀' })).toBeNull();
    expect(write({ s: 'ab' })).toBe('{"s":"ab"}');
  });

  it.each<[string, z.ZodType]>([
    ['a default', z.object({ a: z.string().default('x') })],
    ['a transform', z.object({ a: z.string().transform((s) => s.length) })],
    ['a union', z.object({ a: z.union([z.string(), z.int()]) })],
    ['a record', z.object({ a: z.record(z.string(), z.string()) })],
    ['a strict object', z.strictObject({ a: z.string() })],
    ['a loose object', z.looseObject({ a: z.string() })],
    ['a refinement of a number', z.object({ a: z.number().refine((n) => n !== 1) })],
    ['a coercion', z.object({ a: z.coerce.number() })],
    ['a multipleOf', z.object({ a: z.number().multipleOf(0.1) })],
    // `exactOptional` came after zod 4.0 (npm run test:zod-floor runs this file on 4.0).
    ...(hasExactOptional
      ? [['an exact optional', z.object({ a: (z.string() as unknown as { exactOptional(): z.ZodType }).exactOptional() })] as [string, z.ZodType]]
      : []),
  ])('leaves a schema with %s to zod', (_what, schema) => {
    expect(createCheckedText(schema)).toBeNull();
  });

  it('checks a string with a check it does not read (url, a refinement) with zod, value by value', () => {
    const write = createCheckedText(z.object({ u: z.url(), s: z.string().refine((s) => s !== 'x') }))!;
    expect(write({ u: 'https://example.com/', s: 'y' })).toBe('{"u":"https://example.com/","s":"y"}');
    expect(write({ u: 'not a url', s: 'y' })).toBeNull();
    expect(write({ u: 'https://example.com/', s: 'x' })).toBeNull();
  });
});

describe('createStrippedText', () => {
  it('drops functions and symbols as JSON.stringify does, null in arrays', () => {
    const write = createStrippedText(z.object({ a: z.string(), b: z.array(z.string()) }));
    expect(write({ a: () => 1, b: [Symbol('s'), 'x'] })).toBe('{"b":[null,"x"]}');
  });
  it('throws on a bigint as JSON.stringify does', () => {
    expect(() => createStrippedText(z.object({ a: z.int() }))({ a: 1n })).toThrow(TypeError);
  });
});
