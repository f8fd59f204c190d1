/**
 * `sameData`: `--watch` reuses a built collection when its definition is the same data as before, so two
 * definitions that building reads differently must never compare equal, and data whose meaning is more than
 * what it shows is never the same as anything (its collection is then built every time).
 */
import { describe, expect, it } from 'vitest';
import { collection, f } from '../../generator/dsl/index.ts';
import { sameData } from '../../generator/model/same-data.ts';

describe('sameData', () => {
  it('tells apart values that read alike as text or JSON, and matches equal copies', () => {
    const make = () => [
      1,
      '1',
      0,
      -0,
      true,
      'true',
      null,
      undefined,
      NaN,
      1n,
      [],
      {},
      [1],
      ['1'],
      { a: 1 },
      { a: '1' },
      { a: undefined },
      '',
      'a:',
      ['a', 'b'],
      ['a,b'],
      Object.create(null),
      /a/,
      /a/g,
      { a: 1, b: 2 },
      { b: 2, a: 1 },
    ];
    const left = make();
    const right = make();
    left.forEach((a, i) => right.forEach((b, j) => expect(sameData(a, b), `${i} / ${j}`).toBe(i === j)));
  });

  it('follows what the builders recorded: a pattern, a marker, a default', () => {
    const same = (a: { def: unknown }, b: { def: unknown }) => sameData(a.def, b.def);
    expect(same(f.string().pattern(/^\d{5}$/), f.string().pattern(/^\d{4}$/))).toBe(false);
    expect(same(f.string().pattern(/^a$/), f.string().pattern(/^a$/i))).toBe(false);
    expect(same(f.int().max(10), f.int().max(10).addedIn('v2'))).toBe(false);
    expect(same(f.object({ a: f.string() }).default({ a: 'x' }), f.object({ a: f.string() }).default({ a: 'y' }))).toBe(false);
    expect(same(f.int().renamedFrom('a', 'v2'), f.int().renamedFrom('b', 'v2'))).toBe(false);
    expect(same(f.string().max(3), f.string().max(3))).toBe(true);
    const c = (max: number) => collection({ fields: { id: f.id(), name: f.string().max(max) } });
    expect(sameData(c(3).def, c(3).def)).toBe(true);
    expect(sameData(c(3).def, c(4).def)).toBe(false);
  });

  it('never finds data whose meaning is more than what it shows the same, not even as itself', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const hidden = Object.defineProperty({}, 'secret', { value: 1, enumerable: false });
    class Money {
      constructor(readonly cents: number) {}
    }
    // biome-ignore lint/suspicious/noSparseArray: a hole is what this case compares
    const sparse = [1, , 3];
    const fn = () => 1;
    for (const value of [fn, Symbol('s'), new Date(0), new Map(), new Money(5), cyclic, hidden, sparse, { nested: [new Set()] }])
      expect(sameData({ default: value }, { default: value }), String(value)).toBe(false);
  });

  it('reads a field builder by its def, and a builder-like object by everything it holds', () => {
    // Builders record their call sites: made by one line, they are the same data.
    const make = (max: number) => f.string().max(max);
    const builder = make(3);
    expect(sameData(builder, make(3))).toBe(true);
    expect(sameData(builder, make(4))).toBe(false);
    expect(sameData(builder, { def: builder.def })).toBe(false);
    expect(sameData({ def: builder.def, extra: 1 }, { def: builder.def })).toBe(false);
  });
});
