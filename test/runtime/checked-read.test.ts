/**
 * The checked reader of request bodies and queries (`packages/runtime/src/checked-read.ts`), differentially
 * against zod: on seeded random mutations of a valid input, whatever it reads is exactly zod's parse
 * output (the same values, keys in the same order, `undefined` where zod sets it), and it never accepts
 * what zod refuses. Over every request schema of both examples (bodies, patches, queries, transition
 * inputs) and schemas of every kind it reads or leaves to zod.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hasExactOptional } from '../helpers/zod-version.ts';
import { createCheckedReader, createRequestParser, FAIL } from '../../packages/runtime/src/checked-read.ts';
import { mutate, random } from '../helpers/mutate.ts';

const ID = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11';
const AT = '2026-03-01T00:00:00.000Z';
/** Candidate leaves: a valid sample takes the first one a leaf schema accepts. */
const LEAVES: unknown[] = [ID, AT, '2026-03-01', 'a@example.com', 'https://example.com/hook', 'AB-1234', 'SAVE10', 'x', 'EUR', 1, 2, 0, true, null, '10'];
const ODD: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  NaN,
  2 ** 53,
  // biome-ignore lint/correctness/noPrecisionLoss: 1e400 is Infinity on purpose
  1e400,
  true,
  false,
  '',
  'x',
  ' x ',
  'a"b',
  '\ud800',
  '\ud83d\ude00',
  'x'.repeat(300),
  ID,
  AT,
  'EUR',
  'AB-1234',
  [],
  [1],
  ['a'],
  {},
  { extra: 1 },
];
const KEYS = ['extra', 'id', 'status', 'createdAt', 'constructor', 'limit', 'cursor', 'quantity'];
/** Query-string values a list reads or refuses: limits, numbers in and out of decimal notation, lists, sort keys. */
const QUERY_TEXTS = [
  ...['20', '1', '0', '-1', '1.5', '100', '101', '99999999999999999999999', '', ' 1', '0x10', '1e3', '12abc'],
  ...['paid', 'open', 'paid,open', 'paid,paid', 'paid,', ',', 'EUR,USD,GBP', '-', '--total', 'id,id', 'id', 'customer_id,id'],
  ...['2026-03-01T00:00:00.000Z', '2026-03-01T00:00:00+01:00', '2026-02-30T00:00:00Z', ID, `${ID},${ID}`, 'x'.repeat(300)],
];

type Internal = { _zod: { def: { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; innerType?: z.ZodType; values?: unknown[] } } };

/** A valid input of `schema`, or undefined when none was found (then the key is left out). */
function sample(schema: z.ZodType, depth = 0): unknown {
  const def = (schema as unknown as Internal)._zod.def;
  if (depth > 6) return undefined;
  if (def.type === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(def.shape!)) {
      const v = sample(member, depth + 1);
      if (v !== undefined && member.safeParse(v).success) out[key] = v;
    }
    return out;
  }
  if (def.type === 'array') {
    const item = sample(def.element!, depth + 1);
    return item === undefined ? [] : [item];
  }
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') return sample(def.innerType!, depth + 1);
  if (def.type === 'enum') return (schema as z.ZodEnum).options[0];
  if (def.type === 'literal') return def.values![0];
  return LEAVES.find((leaf) => schema.safeParse(leaf).success);
}

/** A value's JSON with `undefined` kept: equal texts mean the same keys, in the same order, and values. */
const exact = (value: unknown): string => JSON.stringify(value, (_k, v: unknown) => (v === undefined ? '\u0000undefined' : v));

/** Every request schema the examples' servers parse with zod: bodies, patches, queries, transition inputs. */
async function exampleSchemas(): Promise<[string, z.ZodType][]> {
  const root = path.join(import.meta.dirname, '../../examples');
  const found: [string, z.ZodType][] = [];
  for (const example of fs.readdirSync(root)) {
    const generated = path.join(root, example, 'generated');
    // An example of handlers (shop-postgres) generates nothing of its own.
    if (!fs.existsSync(generated)) continue;
    for (const version of fs.readdirSync(generated)) {
      const dir = path.join(generated, version);
      if (!fs.statSync(dir).isDirectory() || ['server', 'client', 'openapi', 'mcp'].includes(version)) continue;
      for (const file of fs.readdirSync(dir)) {
        if (file === 'schemas.ts') continue;
        const module = (await import(path.join(dir, file))) as Record<string, unknown>;
        for (const [name, value] of Object.entries(module))
          if (/(Create|Replace|Patch|ListQuery|Input)$/.test(name) && value instanceof z.ZodObject) found.push([`${example} ${version} ${name}`, value]);
      }
    }
  }
  return found;
}

const KINDS: [string, z.ZodType][] = [
  [
    'strict: formats, bounds, enums, defaults, optional, nullable, read-only',
    z.strictObject({
      id: z.never().optional(),
      customer_id: z.uuid(),
      quantity: z.int().min(1).max(1000),
      price: z.number().min(0).lt(1e6),
      currency: z.enum(['EUR', 'USD']).default('EUR'),
      note: z.string().max(20).optional(),
      code: z.string().min(2).max(4).nullable(),
      kind: z.literal('retail'),
      gift: z.boolean().default(false),
      at: z.iso.datetime({ offset: true }).optional(),
    }),
  ],
  [
    'nested: arrays of objects, strip and strict, array bounds, nullable optional, object default',
    z.strictObject({
      lines: z
        .array(z.strictObject({ sku: z.string().min(1), n: z.int().positive().default(1) }))
        .min(1)
        .max(3),
      tags: z.array(z.enum(['vip', 'new'])).optional(),
      address: z
        .object({
          city: z.string(),
          zip: z
            .string()
            .regex(/^\d{5}$/)
            .nullable()
            .optional(),
        })
        .optional(),
      meta: z.object({ a: z.int() }).default({ a: 1 }),
    }),
  ],
  [
    'left to zod: url, trim, preprocess, union, record, exact optional, default inside optional, refinement',
    z.strictObject({
      hook: z.url().optional(),
      name: z.string().trim().min(1),
      limit: z.preprocess((v) => (typeof v === 'string' ? Number(v) : v), z.int().min(1).max(100)).default(20),
      either: z.union([z.string(), z.int()]).optional(),
      labels: z.record(z.string(), z.string()).optional(),
      // `exactOptional` came after zod 4.0 (npm run test:zod-floor runs this file on 4.0).
      ...(hasExactOptional ? { exact: (z.string() as unknown as { exactOptional(): z.ZodType }).exactOptional() } : {}),
      inner: z.string().default('d').optional(),
      even: z
        .int()
        .refine((n) => n % 2 === 0)
        .optional(),
      pair: z
        .object({ a: z.int(), b: z.int() })
        .refine((p) => p.a < p.b)
        .optional(),
    }),
  ],
  ['stripping object at the top', z.object({ a: z.string(), b: z.int().optional() })],
];

describe('the checked reader', async () => {
  const schemas = [...(await exampleSchemas()), ...KINDS];

  it('covers the examples: bodies, patches, queries and transition inputs of every version', () => {
    expect(schemas.length).toBeGreaterThan(40);
    for (const [name, schema] of schemas) expect(createCheckedReader(schema), name).not.toBeNull();
  });

  it.each(schemas)('%s: reads what zod returns, refuses what zod refuses', (_name, schema) => {
    const read = createCheckedReader(schema)!;
    const base = sample(schema);
    const next = random(7);
    const inputs: unknown[] = [base, {}, null, [], 'x'];
    for (let i = 0; i < 600; i++) {
      let v = base;
      for (let c = 1 + Math.floor(next() * 3); c > 0; c--) v = mutate(v, next, { odd: ODD, keys: KEYS });
      inputs.push(v);
    }
    let both = 0;
    for (const input of inputs) {
      const parsed = schema.safeParse(input);
      const fast = read(input);
      if (fast === FAIL) continue;
      expect(parsed.success, `read what zod refuses: ${exact(input)}`).toBe(true);
      expect(exact(fast), exact(input)).toBe(exact(parsed.data));
      expect(fast).toStrictEqual(parsed.data);
      both++;
    }
    // The fast path is taken: the valid sample, and a share of the mutations zod accepts.
    expect(schema.safeParse(base).success).toBe(true);
    expect(read(base)).not.toBe(FAIL);
    expect(both).toBeGreaterThan(1);
  });

  const queries = schemas.filter(([name]) => name.endsWith('ListQuery'));

  it.each(queries)('%s: reads query strings as zod does (limits, numbers, lists, sorts, masks, expansions)', (_name, schema) => {
    const read = createCheckedReader(schema)!;
    const shape = (schema as unknown as { shape: Record<string, z.ZodType> }).shape;
    const base = sample(schema) as Record<string, unknown>;
    const next = random(11);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    // What a query string holds: text (a parameter sent twice is a list of texts), each class of value a list reads.
    const texts = [
      ...QUERY_TEXTS,
      ...Object.keys(shape),
      ...Object.keys(shape).map((k) => `-${k}`),
      ...Object.values(base).filter((v) => typeof v === 'string'),
    ];
    let valid = 0;
    let both = 0;
    for (let i = 0; i < 800; i++) {
      const input: Record<string, unknown> = {};
      for (const key of Object.keys(shape)) {
        if (next() >= 0.3) continue;
        // Half of them the member's valid sample (when it has one), so that a share of the queries is valid.
        const own = typeof base[key] === 'string' && next() < 0.5 ? base[key] : undefined;
        input[key] = own ?? (next() < 0.05 ? [pick(texts), pick(texts)] : pick(texts));
      }
      if (next() < 0.05) input[pick(KEYS)] = pick(texts);
      const parsed = schema.safeParse(input);
      const fast = read(input);
      if (parsed.success) valid++;
      if (fast === FAIL) continue;
      expect(parsed.success, `read what zod refuses: ${exact(input)}`).toBe(true);
      expect(fast, exact(input)).toStrictEqual(parsed.data);
      both++;
    }
    // Valid queries are read without zod (a member of a kind it does not read, such as `z.stringbool()`, is zod's).
    expect(valid).toBeGreaterThan(10);
    expect(both).toBeGreaterThan(valid / 2);
  });

  it('reads plain members without zod, and gives zod the members it does not read', () => {
    let calls = 0;
    /** A member whose own parse is counted (the reader binds it when it is built). */
    const counted = <T extends z.ZodType>(schema: T): T => {
      const parse = schema.safeParse.bind(schema);
      return Object.assign(schema, { safeParse: (v: unknown) => (calls++, parse(v)) });
    };
    const schema = z.strictObject({
      id: counted(z.never().optional()),
      customer_id: counted(z.uuid()),
      quantity: counted(z.int().min(1)),
      currency: counted(z.enum(['EUR', 'USD']).default('EUR')),
      code: counted(z.string().max(4).nullable()),
      hook: counted(z.url()).optional(),
    });
    const read = createCheckedReader(schema)!;
    expect(read({ customer_id: ID, quantity: 2, code: null })).toStrictEqual({ customer_id: ID, quantity: 2, currency: 'EUR', code: null });
    expect(calls).toBe(0);
    expect(read({ customer_id: ID, quantity: 2, code: 'ab', hook: 'https://example.com/a' })).toStrictEqual({
      customer_id: ID,
      quantity: 2,
      currency: 'EUR',
      code: 'ab',
      hook: 'https://example.com/a',
    });
    expect(calls).toBe(1);
    for (const bad of [
      { customer_id: ID, quantity: 0, code: null },
      { customer_id: ID, quantity: 1, code: null, extra: 1 },
      { customer_id: ID, quantity: 1, code: null, id: ID },
      { customer_id: ID, code: null },
    ])
      expect(read(bad), JSON.stringify(bad)).toBe(FAIL);
    expect(createCheckedReader(z.string())).toBeNull();
    expect(createCheckedReader(z.object({ a: z.int() }).refine(() => true))).toBeNull();
  });

  it("parses requests as zod's safeParse does: the reader's data, or zod's own verdict and error", () => {
    const schema = KINDS[0]![1];
    const parse = createRequestParser(schema);
    const valid = { customer_id: ID, quantity: 2, price: 1.5, code: null, kind: 'retail' };
    expect(parse(valid)).toStrictEqual(schema.safeParse(valid));
    for (const invalid of [{ ...valid, quantity: 0 }, { ...valid, extra: 1 }, null, []]) {
      const parsed = parse(invalid);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues).toEqual(schema.safeParse(invalid).error?.issues);
    }
  });
});
