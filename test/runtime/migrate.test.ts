/**
 * `packages/runtime/src/migrate.ts` as source: an older version's request migrated up (renames, dropped fields,
 * type-change hooks, defaults of later fields, nested plans) and a newest resource migrated down (enum
 * values an older version lacks shown as their fallbacks).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileDown, compileUp, resolveHooks, type Hooks } from '../../packages/runtime/src/migrate.ts';
import type { MountedSpec, RouteSpec } from '../../packages/runtime/src/spec.ts';

const hooks: Hooks = new Map<string, Record<string, (value: unknown) => unknown>>([
  ['v2.orders.ref', { up: (n: unknown) => `RF-${String(n)}`, down: (s: unknown) => Number(String(s).slice(3)) }],
  ['v2.orders.note', { value: (o: unknown) => `from ${(o as { id: string }).id}` }],
]);

describe('compileUp', () => {
  const up = compileUp(
    {
      renames: { qty: 'quantity' },
      drop: ['note'],
      hooks: { ref: ['v2.orders.ref'] },
      fill: { currency: 'EUR', tags: [] },
      nested: { lines: { renames: { n: 'count' }, fill: { unit: 'pc' } } },
    },
    hooks,
  );
  it('renames, drops, converts, fills defaults and migrates nested objects and arrays of them', () => {
    const out = up({ qty: 2, note: 'x', ref: 7, lines: [{ n: 1 }, { n: 2, unit: 'kg' }] }, true);
    expect(out).toEqual({
      quantity: 2,
      ref: 'RF-7',
      lines: [
        { count: 1, unit: 'pc' },
        { count: 2, unit: 'kg' },
      ],
      currency: 'EUR',
      tags: [],
    });
  });
  it('a patch takes no defaults; each default is a fresh copy', () => {
    expect(up({ qty: 3 }, false)).toEqual({ quantity: 3 });
    const a = up({}, true);
    const b = up({}, true);
    expect(a['tags']).not.toBe(b['tags']);
  });
});

describe('compileDown', () => {
  const route = {
    schemas: {
      response: z.object({
        id: z.string(),
        qty: z.int(),
        ref: z.int().optional(),
        note: z.string(),
        gone: z.string(),
        lines: z.array(z.object({ n: z.int() })),
      }),
    },
    down: {
      qty: { key: 'quantity' },
      ref: { key: 'ref', hooks: ['v2.orders.ref'] },
      note: { hook: 'v2.orders.note' },
      gone: { fallback: 'old' },
      lines: { key: 'lines', nested: { fields: ['n'], down: { n: { key: 'count' } } } },
    },
  } as unknown as RouteSpec;
  it('answers the older names, converted values, hook values and fallbacks, in the order of the schema', () => {
    const out = compileDown(route, hooks)({ id: 'o1', quantity: 2, ref: 'RF-9', extra: 1, lines: [{ count: 4, unit: 'kg' }] });
    expect(out).toEqual({ id: 'o1', qty: 2, ref: 9, note: 'from o1', gone: 'old', lines: [{ n: 4 }] });
    expect(Object.keys(out)).toEqual(['id', 'qty', 'ref', 'note', 'gone', 'lines']);
  });
  it('leaves out a field the resource does not have', () => {
    expect(compileDown(route, hooks)({ id: 'o2', quantity: 1, lines: [] })).not.toHaveProperty('ref');
  });
});

describe('compileDown: enum values added later show as their fallbacks', () => {
  const route = {
    schemas: { response: z.object({ status: z.string(), tags: z.array(z.string()), box: z.object({ kind: z.string() }) }) },
    down: {
      status: { key: 'status', values: { refunded: 'cancelled' } },
      tags: { key: 'tags', values: { gold: 'vip' } },
      box: { key: 'box', nested: { fields: ['kind'], down: { kind: { key: 'kind', values: { crate: 'box' } } } } },
    },
  } as unknown as RouteSpec;
  it('in a value, in each item of an array and inside a nested object; other values pass as they are', () => {
    const down = compileDown(route, hooks);
    expect(down({ status: 'refunded', tags: ['gold', 'new'], box: { kind: 'crate' } })).toEqual({
      status: 'cancelled',
      tags: ['vip', 'new'],
      box: { kind: 'box' },
    });
    expect(down({ status: 'open', tags: [], box: { kind: 'bag' } })).toEqual({ status: 'open', tags: [], box: { kind: 'bag' } });
  });
});

describe('resolveHooks', () => {
  const spec = {
    name: 'Shop',
    versions: [{ routes: [{ collection: { hooks: [{ id: 'v2.orders.ref', members: ['down', 'up'], why: 'ref changed type' }] } }] }],
  } as unknown as MountedSpec;
  it('names every missing member at startup', () => {
    expect(() => resolveHooks(spec, { v2: { orders: { ref: { up: () => 1 } } } })).toThrow(/migrations\.v2\.orders\.ref\.down\(\): ref changed type/);
    expect(resolveHooks(spec, { v2: { orders: { ref: { up: () => 1, down: () => 2 } } } }).get('v2.orders.ref')).toHaveProperty('down');
  });
});
