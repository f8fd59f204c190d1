/**
 * Projection of lifecycles and of enum values added later: each version sees the states its enum has,
 * the transitions that exist in it (with `from` states it knows, input fields as it names them, and the
 * collection's write scopes where a transition declares none), and the fallback of a value it lacks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiIR, CollectionAt } from '../../generator/model/ir.ts';
import { enumValueShownAt, project } from '../../generator/model/project.ts';
import { loadIr } from '../helpers/load-ir.ts';

let ir: ApiIR;
beforeAll(async () => {
  ir = await loadIr();
});

const orders = (version: string): CollectionAt => project(ir, version).collections.find((c) => c.name === 'orders')!;

describe('lifecycle projection (the shop example)', () => {
  it('v1 and v2 have four states and three transitions; v3 adds refunded and refund', () => {
    for (const v of ['v1', 'v2']) {
      const lc = orders(v).lifecycle!;
      expect(lc.states).toEqual(['open', 'paid', 'shipped', 'cancelled']);
      expect(lc.transitions.map((t) => t.name)).toEqual(['pay', 'ship', 'cancel']);
    }
    const v3 = orders('v3').lifecycle!;
    expect(v3.states).toEqual(['open', 'paid', 'shipped', 'cancelled', 'refunded']);
    expect(v3.transitions.map((t) => [t.name, t.from, t.to])).toEqual([
      ['pay', ['open'], 'paid'],
      ['ship', ['paid'], 'shipped'],
      ['cancel', ['open', 'paid'], 'cancelled'],
      ['refund', ['paid', 'shipped'], 'refunded'],
    ]);
    expect(v3.initial).toBe('open');
    expect(v3.field).toBe('status');
  });

  it("the status field's enum is the version's states", () => {
    const statusOf = (v: string) => orders(v).fields.find((f) => f.name === 'status')!.type;
    expect(statusOf('v1')).toEqual({ kind: 'enum', values: ['open', 'paid', 'shipped', 'cancelled'] });
    expect(statusOf('v3')).toEqual({ kind: 'enum', values: ['open', 'paid', 'shipped', 'cancelled', 'refunded'] });
  });

  it('transition input is projected per version (trackingCode from v3 on)', () => {
    const ship = (v: string) => orders(v).lifecycle!.transitions.find((t) => t.name === 'ship')!;
    expect(ship('v2').input.map((f) => f.name)).toEqual(['carrier']);
    expect(ship('v3').input.map((f) => [f.name, f.optional])).toEqual([
      ['carrier', false],
      ['trackingCode', true],
    ]);
  });

  it('a transition without scopes needs the write scopes; cancel its own, with its own rate limit', () => {
    const byName = new Map(orders('v2').lifecycle!.transitions.map((t) => [t.name, t]));
    expect(byName.get('pay')!.scopes).toEqual(['orders:write']);
    expect(byName.get('cancel')!.scopes).toEqual(['orders:cancel']);
    expect(byName.get('cancel')!.rateLimit).toEqual({ limit: 5, window: '1m', windowMs: 60_000 });
  });

  it('an older version shows the fallback of a value it lacks', () => {
    const status = ir.collections.find((c) => c.name === 'orders')!.fields.find((f) => f.name === 'status')!.type;
    if (status.kind !== 'enum') throw new Error('status is an enum');
    const versions = ir.versions.map((v) => v.name);
    expect(enumValueShownAt(versions, 0, status, 'refunded')).toBe('cancelled');
    expect(enumValueShownAt(versions, 1, status, 'refunded')).toBe('cancelled');
    expect(enumValueShownAt(versions, 2, status, 'refunded')).toBe('refunded');
    expect(enumValueShownAt(versions, 0, status, 'paid')).toBe('paid');
  });

  it('collections without a lifecycle have none; requireIfMatch is projected', () => {
    expect(project(ir, 'v3').collections.find((c) => c.name === 'customers')!.lifecycle).toBeUndefined();
    expect(project(ir, 'v3').collections.find((c) => c.name === 'coupons')!.requireIfMatch).toBe(true);
    expect(orders('v3').requireIfMatch).toBe(false);
  });
});
