/**
 * @module Test helper: fast-check arbitraries of whole API definitions, built with the DSL's own builders,
 * aimed at the cases where line breaking matters: long names, long enum lists and values, long patterns,
 * nested objects and arrays, many fields, unicode text, defaults of every JSON shape, non-identifier
 * version names, optional, nullable, read-only and write-only fields, renames and additions.
 */
import fc from 'fast-check';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import type { AnyField } from '../../generator/dsl/field.ts';

/** Text users write: ASCII, accents, CJK, emoji, quotes of both kinds, and `*` + `/`. */
const prose = fc
  .string({ unit: fc.constantFrom(...'abc xyz ÄéØ 漢字カナ 🚀✓ "\'`*/.,;:-'.split('')), minLength: 1, maxLength: 90 })
  .map((s) => s.trim() || 'x');
const ident = (max: number) => fc.stringMatching(new RegExp(`^[a-z][A-Za-z0-9_]{0,${max - 1}}$`));
const enumValue = fc.oneof(
  fc.stringMatching(/^[a-z][a-z_]{0,18}$/),
  fc.string({ unit: fc.constantFrom(...'aéü漢"\' -'.split('')), minLength: 1, maxLength: 12 }),
);
const PATTERNS = [
  '^\\d{5}$',
  '^[A-Z]{2}$',
  '^[a-z0-9-]+$',
  '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$',
  '^https?://[^\\s/$.?#].[^\\s]*$',
  '^\\+?[1-9]\\d{1,14}$',
  '^[^@]+@[^@]+$',
];

interface Leaf {
  readonly field: AnyField;
  /** The field can take `.default(value)` with this value. */
  readonly fallback?: unknown;
}

const bound = fc.option(fc.integer({ min: -5, max: 100000 }), { nil: undefined });

function leaf(refs: readonly string[]): fc.Arbitrary<Leaf> {
  return fc.oneof(
    fc
      .tuple(
        fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
        fc.option(fc.integer({ min: 40, max: 5000 }), { nil: undefined }),
        fc.option(fc.constantFrom(...PATTERNS), { nil: undefined }),
      )
      .map(([min, max, pattern]) => {
        let s = f.string();
        if (min !== undefined) s = s.min(min);
        if (max !== undefined) s = s.max(max);
        if (pattern !== undefined) s = s.pattern(pattern);
        return { field: s };
      }),
    fc.tuple(fc.boolean(), bound, bound).map(([int, a, b]) => {
      let n = int ? f.int() : f.number();
      const [min, max] = a !== undefined && b !== undefined && a > b ? [b, a] : [a, b];
      if (min !== undefined) n = n.min(min);
      if (max !== undefined) n = n.max(max);
      return { field: n, ...(min === undefined && max === undefined ? { fallback: 0 } : {}) };
    }),
    fc.constant({ field: f.boolean(), fallback: false }),
    fc.uniqueArray(enumValue, { minLength: 1, maxLength: 14 }).map((values) => ({ field: f.enum(values as [string, ...string[]]), fallback: values[0] })),
    fc.constantFrom<Leaf>({ field: f.datetime() }, { field: f.date() }, { field: f.uuid() }, { field: f.email() }, { field: f.url() }),
    ...(refs.length > 0 ? [fc.constantFrom(...refs).map((r) => ({ field: f.ref(r) }))] : []),
  );
}

function typeOf(refs: readonly string[], depth: number): fc.Arbitrary<Leaf> {
  if (depth <= 0) return leaf(refs);
  return fc.oneof(
    { weight: 3, arbitrary: leaf(refs) },
    fc
      .tuple(
        typeOf(refs, depth - 1),
        fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
        fc.option(fc.integer({ min: 3, max: 50 }), { nil: undefined }),
      )
      .map(([item, min, max]) => {
        let a = f.array(item.field);
        if (min !== undefined) a = a.min(min);
        if (max !== undefined) a = a.max(max);
        return { field: a, ...(min === undefined ? { fallback: [] } : {}) };
      }),
    fc.dictionary(ident(30), typeOf(refs, depth - 1), { minKeys: 1, maxKeys: 5 }).map((members) => ({
      field: f.object(Object.fromEntries(Object.entries(members).map(([k, m]) => [k, m.field]))),
    })),
  );
}

function field(refs: readonly string[], versions: readonly string[]): fc.Arbitrary<AnyField> {
  return fc
    .record({
      type: typeOf(refs, 3),
      optional: fc.boolean(),
      nullable: fc.boolean(),
      access: fc.constantFrom('plain', 'plain', 'readOnly', 'writeOnly'),
      description: fc.option(prose, { nil: undefined }),
      deprecated: fc.boolean(),
      filterable: fc.boolean(),
      useDefault: fc.boolean(),
      added: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    })
    .map((r) => {
      // Built through an untyped handle: the modifiers available differ by kind, the arbitrary mixes kinds.
      let x = r.type.field as unknown as Record<string, (...args: unknown[]) => unknown>;
      const call = (name: string, ...args: unknown[]) => void (x = x[name]!(...args) as typeof x);
      if (r.useDefault && r.type.fallback !== undefined && r.access !== 'readOnly') call('default', r.type.fallback);
      else if (r.optional) call('optional');
      if (r.nullable) call('nullable');
      if (r.access !== 'plain') call(r.access);
      if (r.description !== undefined) call('description', r.description);
      if (r.deprecated) call('deprecated');
      if (r.filterable) call('filterable');
      const added = r.added !== undefined ? versions[r.added] : undefined;
      if (added !== undefined && (r.optional || r.useDefault) && r.access !== 'readOnly') call('addedIn', added);
      return x as unknown as AnyField;
    });
}

/** An arbitrary API definition (the value `defineApi` returns). */
export const randomApi = fc
  .record({
    name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,29}$/),
    dated: fc.boolean(),
    count: fc.integer({ min: 2, max: 4 }),
    released: fc.integer({ min: 0, max: 2 }),
    auth: fc.constantFrom('none', 'bearer', 'both'),
    collections: fc.uniqueArray(ident(36), { minLength: 1, maxLength: 3 }),
  })
  .chain((base) => {
    const versions = Array.from({ length: base.count }, (_, i) => (base.dated ? `20${25 + i}-0${1 + i}` : `v${i + 1}`));
    return fc
      .tuple(
        ...base.collections.map((_, i) =>
          fc.record({
            fields: fc.dictionary(ident(40), field(base.collections.slice(0, i), versions), { minKeys: 1, maxKeys: 14 }),
            description: fc.option(prose, { nil: undefined }),
          }),
        ),
      )
      .map((cs) =>
        defineApi({
          name: base.name,
          versions: Object.fromEntries(versions.map((v, i) => [v, i < base.released ? { released: `2025-0${i + 1}-01` } : {}])),
          ...(base.auth === 'none' ? {} : { auth: base.auth === 'bearer' ? { bearer: {} } : { bearer: {}, apiKey: { header: 'X-Key' } } }),
          collections: Object.fromEntries(
            base.collections.map((name, i) => [
              name,
              collection({
                fields: { id: f.id(), ...(cs[i]!.fields as Record<string, never>) },
                ...(cs[i]!.description !== undefined ? { description: cs[i]!.description } : {}),
              }),
            ]),
          ),
        }),
      );
  });
