/**
 * An older version's answer written straight from the newest resource through the down steps
 * (`compileDownReaders` + `createWriter(schema, validate, via)`), differentially against the unfused path
 * (`compileDown` builds the older resource, then it is written): the same text, or the same failure
 * (pointer and detail, worded by zod), on seeded random mutations of a valid resource; and the up
 * migration's renames, drops, conversions and nested plans with one lookup per key.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCheckedText, createWriter, type Via } from '../../packages/runtime/src/checked-text.ts';
import { compileDown, compileDownReaders, compileUp, type Hooks } from '../../packages/runtime/src/migrate.ts';
import { routeOf } from '../../packages/runtime/src/route-table.ts';
import type { RouteSpec } from '../../packages/runtime/src/spec.ts';
import { mutate, random } from '../helpers/mutate.ts';
import { routes as notes } from '../../examples/header-versioning/generated/server/collections/notes.ts';

const ID = '6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11';
const AT = '2026-03-01T00:00:00.000Z';
const none: Hooks = new Map();

const ODD: unknown[] = [undefined, null, 0, -1, 1.5, NaN, 2 ** 53, true, '', 'x', 'a"b', '\ud800', ID, AT, [], ['a'], {}, { extra: 1 }, () => 1];

/** The older route of the bench API's shape (a rename, a removed field's fallback, fields added later), plus enum values and a nested plan. */
const older = {
  id: 'id',
  schemas: {
    response: z.object({
      id: z.uuid(),
      qty: z.int().min(1).max(1000),
      note: z.string().max(500),
      status: z.enum(['open', 'paid', 'cancelled']),
      tags: z.array(z.enum(['vip', 'new'])).optional(),
      box: z.object({ kind: z.string(), n: z.int().nullable() }).optional(),
      lines: z.array(z.object({ n: z.int() })),
      createdAt: z.iso.datetime({ offset: true }),
    }),
  },
  down: {
    qty: { key: 'quantity' },
    note: { fallback: '' },
    status: { key: 'status', values: { refunded: 'cancelled' } },
    tags: { key: 'tags', values: { gold: 'vip' } },
    box: { key: 'box', nested: { fields: ['kind', 'n'], down: { kind: { key: 'type' } } } },
    lines: { key: 'lines', nested: { fields: ['n'], down: { n: { key: 'count' } } } },
  },
} as unknown as RouteSpec;
const newest = {
  id: ID,
  quantity: 2,
  currency: 'EUR',
  status: 'refunded',
  tags: ['gold', 'new'],
  box: { type: 'crate', n: null, extra: 1 },
  lines: [{ count: 4, unit: 'kg' }],
  createdAt: AT,
  secret: 'x',
};

const ROUTES: [string, RouteSpec, Record<string, unknown>][] = [
  ['renames, fallbacks, enum values and nested plans', older, newest],
  ['header-versioning notes 2025-01 (a rename)', routeOf(notes, '2025-01')!, { id: ID, title: 'T', body: 'b', pinned: true, tags: ['a'], updatedAt: AT }],
];

describe.each(ROUTES)('written from the newest resource: %s', (_name, route, base) => {
  const readers = compileDownReaders(route, none)!;
  const build = compileDown(route, none);
  const via: Via = { readers, build };
  const next = random(11);
  const values: Record<string, unknown>[] = [base];
  for (let i = 0; i < 600; i++) {
    let v: unknown = base;
    for (let c = 1 + Math.floor(next() * 3); c > 0; c--) v = mutate(v, next, { odd: ODD, keys: ['extra', 'qty', 'note', 'constructor'] });
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) values.push(v as Record<string, unknown>);
  }

  it('is fused: every step is free of hooks, and the checked writer reads the schema', () => {
    expect(readers).not.toBeNull();
    expect(createCheckedText(route.schemas.response, readers)).not.toBeNull();
  });

  it('checked: the same text or the same failure as writing the older resource built whole', () => {
    const fused = createWriter(route.schemas.response, true, via);
    const whole = createWriter(route.schemas.response, true);
    // Zod has the last word on both paths, so the checked writers themselves are compared too: the
    // fused one must accept exactly what the whole one accepts (never falling back to zod more often).
    const fusedText = createCheckedText(route.schemas.response, readers)!;
    const wholeText = createCheckedText(route.schemas.response)!;
    let accepted = 0;
    for (const v of values) {
      const a = fused(v);
      const b = whole(build(v));
      expect(a.ok ? { ok: true, text: a.text } : a, JSON.stringify(v)).toEqual(b.ok ? { ok: true, text: b.text } : b);
      expect(fusedText(v), JSON.stringify(v)).toBe(wholeText(build(v)));
      if (a.ok) accepted++;
    }
    // The mutations exercise both sides.
    expect(accepted).toBeGreaterThan(20);
    expect(values.length - accepted).toBeGreaterThan(20);
  });

  it('stripped only: the same text as stripping the older resource built whole', () => {
    const fused = createWriter(route.schemas.response, false, via);
    const whole = createWriter(route.schemas.response, false);
    for (const v of values) {
      let expected: unknown;
      try {
        expected = whole(build(v));
      } catch (error) {
        // A value JSON cannot write (a bigint) throws on both paths.
        expect(() => fused(v)).toThrow((error as Error).constructor as new () => Error);
        continue;
      }
      expect((fused(v) as { text: string }).text).toBe((expected as { text: string }).text);
    }
  });
});

describe('compileDownReaders', () => {
  it('is null when a step calls a migration hook (hooks run once per answer)', () => {
    const hooks: Hooks = new Map([['v2.orders.ref', { down: (v: unknown) => v }]]);
    const withHook = { ...older, down: { ...older.down, ref: { key: 'ref', hooks: ['v2.orders.ref'] } } } as unknown as RouteSpec;
    expect(compileDownReaders(withHook, hooks)).toBeNull();
    const nestedHook = {
      ...older,
      down: { box: { key: 'box', nested: { fields: ['kind'], down: { kind: { hook: 'v2.orders.ref' } } } } },
    } as unknown as RouteSpec;
    expect(compileDownReaders(nestedHook, hooks)).toBeNull();
  });

  it('a field named like an Object.prototype key (which zod reads inherited) is written from the older resource instead', () => {
    const route = {
      id: 'id',
      schemas: { response: z.object({ id: z.string(), toString: z.string().optional() }) },
      down: { id: { key: 'uid' } },
    } as unknown as RouteSpec;
    const readers = compileDownReaders(route, none)!;
    expect(createCheckedText(route.schemas.response, readers)).toBeNull();
    const build = compileDown(route, none);
    const fused = createWriter(route.schemas.response, true, { readers, build });
    const whole = createWriter(route.schemas.response, true);
    for (const v of [{ uid: 'a' }, { uid: 'a', toString: 'x' }, { uid: 1 }]) expect(JSON.stringify(fused(v))).toBe(JSON.stringify(whole(build(v))));
  });
});

describe('compileUp with one lookup per key', () => {
  const hooks: Hooks = new Map([['v2.orders.ref', { up: (n: unknown) => `RF-${String(n)}` }]]);
  it('converts a renamed field under its new name, and the new name sent as it is too', () => {
    const up = compileUp({ renames: { oldRef: 'ref' }, hooks: { ref: ['v2.orders.ref'] } }, hooks);
    expect(up({ oldRef: 7 }, false)).toEqual({ ref: 'RF-7' });
    expect(up({ ref: 8 }, false)).toEqual({ ref: 'RF-8' });
  });
  it('a field renamed away takes no conversion keyed by its old name; a dropped name is dropped even when renamed', () => {
    const up = compileUp({ renames: { ref: 'code', a: 'b' }, drop: ['a'], hooks: { ref: ['v2.orders.ref'] } }, hooks);
    expect(up({ ref: 7, a: 1 }, false)).toEqual({ code: 7 });
  });
  it('a nested plan under a renamed field migrates each object; an undefined value is not converted', () => {
    const up = compileUp({ renames: { items: 'lines' }, nested: { lines: { renames: { n: 'count' } } }, hooks: { ref: ['v2.orders.ref'] } }, hooks);
    expect(up({ items: [{ n: 1 }], ref: undefined }, false)).toEqual({ lines: [{ count: 1 }], ref: undefined });
  });
});
