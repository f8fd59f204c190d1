/**
 * Fingerprints of DSL data: `--watch` reuses a built collection when its definition's fingerprint is unchanged,
 * so two definitions that building reads differently must never share one, and data whose meaning is more than
 * what it shows must have none (its collection is then built every time).
 */
import { describe, expect, it } from 'vitest';
import { collection, f } from '../../generator/dsl/index.ts';
import { fingerprintOf, sameData } from '../../generator/model/fingerprint.ts';

describe('fingerprintOf', () => {
  it('tells apart values that read alike as text or JSON', () => {
    const distinct = [1, '1', 0, -0, true, 'true', null, undefined, NaN, 1n, [], {}, [1], ['1'], { a: 1 }, { a: '1' }, { a: undefined }, '', 'a:', ['a', 'b'], ['a,b'], Object.create(null)];
    const seen = new Set(distinct.map((v) => fingerprintOf(v)));
    expect(seen.size).toBe(distinct.length);
    expect(fingerprintOf({ a: 1, b: 2 })).not.toBe(fingerprintOf({ b: 2, a: 1 }));
    expect(fingerprintOf({ a: 's1:x' })).not.toBe(fingerprintOf({ a: 's', b: 'x' }));
  });

  it('follows what the builders recorded: a pattern, a marker, a default', () => {
    const fp = (b: { def: unknown }) => fingerprintOf(b.def);
    expect(fp(f.string().pattern(/^\d{5}$/))).not.toBe(fp(f.string().pattern(/^\d{4}$/)));
    expect(fp(f.string().pattern(/^a$/))).not.toBe(fp(f.string().pattern(/^a$/i)));
    expect(fp(f.int().max(10))).not.toBe(fp(f.int().max(10).addedIn('v2')));
    expect(fp(f.object({ a: f.string() }).default({ a: 'x' }))).not.toBe(fp(f.object({ a: f.string() }).default({ a: 'y' })));
    expect(fp(f.int().renamedFrom('a', 'v2'))).not.toBe(fp(f.int().renamedFrom('b', 'v2')));
    expect(fp(f.string().max(3))).toBe(fp(f.string().max(3)));
    const c = (max: number) => collection({ fields: { id: f.id(), name: f.string().max(max) } });
    expect(fingerprintOf(c(3).def)).toBe(fingerprintOf(c(3).def));
    expect(fingerprintOf(c(3).def)).not.toBe(fingerprintOf(c(4).def));
  });

  it('has none for data whose meaning is more than what it shows', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const hidden = Object.defineProperty({}, 'secret', { value: 1, enumerable: false });
    class Money {
      constructor(readonly cents: number) {}
    }
    const sparse = [1, , 3];
    for (const value of [() => 1, Symbol('s'), new Date(0), new Map(), new Money(5), cyclic, hidden, sparse, { nested: [new Set()] }])
      expect(fingerprintOf({ default: value }), String(value)).toBeUndefined();
  });

  it('reads a field builder by its def, and a builder-like object by everything it holds', () => {
    const builder = f.string().max(3);
    expect(fingerprintOf(builder)).toBe(`B${fingerprintOf(builder.def)}`);
    expect(fingerprintOf({ def: builder.def, extra: 1 })).not.toBe(fingerprintOf({ def: builder.def }));
  });

  it('sameData agrees with equal fingerprints on every pair', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const make = () => [1, '1', 0, -0, NaN, 1n, null, undefined, true, [], [1], [1, 2], ['1'], {}, { a: 1 }, { b: 1 }, { a: 1, b: 2 }, { b: 2, a: 1 }, Object.create(null),
      /a/, /a/g, /b/, f.string().max(3), f.string().max(4), { def: f.string().max(3).def }, collection({ fields: { id: f.id() } }).def, () => 1, new Date(0), cyclic, [1, , 3]];
    const left = make();
    const right = make();
    for (const a of left)
      for (const b of right) {
        const fa = fingerprintOf(a);
        expect(sameData(a, b), `${String(fa)} / ${String(fingerprintOf(b))}`).toBe(fa !== undefined && fa === fingerprintOf(b));
      }
  });
});
