/**
 * The run's own reference of a list's order (what `sort` and `filter-operators` judge a server by): values compare
 * as their kinds do, absent values go last in either direction, and ties fall to the id, ascending.
 */
import { describe, expect, it } from 'vitest';
import { compareField, outOfOrder } from '../../packages/conformance/src/checks/query-helpers.ts';
import type { FieldAt, TypeIR } from '../../generator/model/ir.ts';

const field = (name: string, type: TypeIR<FieldAt>): FieldAt => ({ name, type }) as FieldAt;
const total = field('total', { kind: 'int' } as TypeIR<FieldAt>);
const placed = field('placed', { kind: 'datetime' } as TypeIR<FieldAt>);
const code = field('code', { kind: 'string' } as TypeIR<FieldAt>);

describe('compareField', () => {
  it('compares date-times by instant, to the digit, and text by code point', () => {
    expect(compareField(placed, '2026-01-01T10:00:00+02:00', '2026-01-01T09:00:00Z')).toBeLessThan(0);
    expect(compareField(placed, '2026-01-01T08:00:00.000Z', '2026-01-01T10:00:00+02:00')).toBe(0);
    expect(compareField(placed, '2026-01-01T08:00:00.0000001Z', '2026-01-01T08:00:00Z')).toBeGreaterThan(0);
    // U+FF5E (a BMP character) sorts before U+1F600, whose UTF-16 units are smaller.
    expect(compareField(code, '\uff5e', '\u{1f600}')).toBeLessThan(0);
    expect(compareField(code, 'B', 'a')).toBeLessThan(0);
    expect(compareField(total, 9, 10)).toBeLessThan(0);
    expect(compareField(total, '9', 10)).toBeNaN();
  });
});

describe('outOfOrder', () => {
  const row = (id: string, values: Record<string, unknown>) => ({ id, ...values });
  it('accepts neighbours in order, ties broken by the id, absent values last both ways', () => {
    const up = [{ field: total, descending: false }];
    const down = [{ field: total, descending: true }];
    expect(outOfOrder(up, 'id', row('b', { total: 1 }), row('a', { total: 2 }))).toBeNull();
    expect(outOfOrder(up, 'id', row('a', { total: 2 }), row('b', { total: 2 }))).toBeNull();
    expect(outOfOrder(down, 'id', row('a', { total: 2 }), row('b', { total: null }))).toBeNull();
    expect(outOfOrder(up, 'id', row('a', { total: 2 }), row('b', {}))).toBeNull();
  });

  it('names what is out of order', () => {
    const up = [{ field: total, descending: false }];
    expect(outOfOrder(up, 'id', row('a', { total: 3 }), row('b', { total: 2 }))).toBe('total 3 comes before 2 (ascending)');
    expect(outOfOrder([{ field: total, descending: true }], 'id', row('a', { total: 2 }), row('b', { total: 3 }))).toBe('total 2 comes before 3 (descending)');
    expect(outOfOrder(up, 'id', row('b', { total: 2 }), row('a', { total: 2 }))).toMatch(/^tied records come out of id order \(b before a/);
    expect(outOfOrder(up, 'id', row('a', {}), row('b', { total: 2 }))).toMatch(/absent values go last/);
    // A second key decides before the id.
    const two = [
      { field: total, descending: false },
      { field: code, descending: true },
    ];
    expect(outOfOrder(two, 'id', row('a', { total: 1, code: 'x' }), row('b', { total: 1, code: 'y' }))).toBe('code "x" comes before "y" (descending)');
  });
});
