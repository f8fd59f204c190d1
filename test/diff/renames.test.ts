/**
 * Declared renames, possible undeclared renames (and the injected resolver), nested paths, fingerprints.
 */
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import type { RenameCandidate } from '../../generator/diff/types.ts';
import { diffVersions } from '../../generator/diff/diff-history.ts';
import { apiWith, diffBetween, diffEdit, irOf, summary } from './helpers.ts';

const twoVersions = (fields: Parameters<typeof collection>[0]['fields']) =>
  irOf(
    defineApi({
      name: 'test',
      versions: { v1: { released: '2026-01-01' }, v2: {} },
      collections: { orders: collection({ fields: { id: f.id(), ...fields } }) },
    }),
  );

describe('declared renames', () => {
  it('renamedFrom is one field-renamed finding, breaking, at the new name', () => {
    const api = twoVersions({ quantity: f.int().min(1).renamedFrom('qty', 'v2') });
    const found = diffBetween(api, 'v1', 'v2');
    expect(summary(found)).toEqual([{ id: 'field-renamed', level: 'breaking', location: 'orders.quantity' }]);
    expect(found[0]!.message).toBe('orders.qty was renamed to quantity');
    expect(found[0]!.affects.routes).toContain('POST /v2/orders');
    expect(found[0]!.affects.client).toContain('v2.orders.create');
  });
  it('a renamed field that also changed reports both', () => {
    const api = twoVersions({ quantity: f.int().min(1).max(10).renamedFrom('qty', 'v2').typeChangedFrom('v2', f.int().min(1)) });
    expect(summary(diffBetween(api, 'v1', 'v2'))).toEqual([
      { id: 'field-renamed', level: 'breaking', location: 'orders.quantity' },
      { id: 'request-bound-added', level: 'breaking', location: 'orders.quantity' },
      { id: 'existing-data-may-not-satisfy', level: 'warning', location: 'orders.quantity' },
    ]);
  });
  it('a rename inside a nested object is found by key, with a nested path', () => {
    const api = twoVersions({ shipping: f.object({ zip: f.string().renamedFrom('postcode', 'v2'), city: f.string() }) });
    expect(summary(diffBetween(api, 'v1', 'v2'))).toEqual([{ id: 'field-renamed', level: 'breaking', location: 'orders.shipping.zip' }]);
  });
});

describe('possible undeclared renames', () => {
  const older = () => apiWith({ note: f.string().optional() });
  const newer = () => apiWith({ memo: f.string().optional() });
  it('removal plus addition of the same base type and format: a warning with the marker to write', () => {
    const found = diffEdit(older(), newer());
    expect(summary(found)).toEqual([
      { id: 'request-optional-field-removed', level: 'breaking', location: 'items.note' },
      { id: 'possible-undeclared-rename', level: 'warning', location: 'items.memo' },
      { id: 'optional-field-added', level: 'safe', location: 'items.memo' },
    ]);
    expect(found[1]!.message).toContain(".renamedFrom('note', 'v1')");
    expect(found[1]!.hint).toEqual({ marker: ".renamedFrom('note', 'v1') on memo", confidence: 'high' });
  });
  it('the hint names the version to put the marker in', () => {
    const found = diffEdit(older(), newer(), 'v1', { markerVersion: 'v2' });
    expect(found.find((x) => x.id === 'possible-undeclared-rename')!.message).toContain(".renamedFrom('note', 'v2')");
  });
  it('between versions of one IR: removedIn plus addedIn of the same type', () => {
    const api = twoVersions({ note: f.string().optional().removedIn('v2'), memo: f.string().optional().addedIn('v2') });
    const found = diffVersions(api, 'v1', 'v2').findings;
    expect(found.map((x) => x.id)).toContain('possible-undeclared-rename');
    expect(found.find((x) => x.id === 'possible-undeclared-rename')!.message).toContain(".renamedFrom('note', 'v2')");
  });
  it('a different type or format with unlike names is no candidate', () => {
    expect(diffEdit(apiWith({ a: f.string().optional() }), apiWith({ b: f.date().optional() })).map((x) => x.id)).not.toContain('possible-undeclared-rename');
    expect(diffEdit(apiWith({ a: f.int().optional() }), apiWith({ b: f.string().optional() })).map((x) => x.id)).not.toContain('possible-undeclared-rename');
  });
  it('the resolver decides: rename gives one field-renamed finding, separate gives no warning', () => {
    const seen: RenameCandidate[] = [];
    const renamed = diffEdit(older(), newer(), 'v1', { resolveRename: (c) => (seen.push(c), 'rename') });
    expect(summary(renamed)).toEqual([{ id: 'field-renamed', level: 'breaking', location: 'items.memo' }]);
    expect(seen.map((c) => [c.parent, c.removed.name, c.added.name, c.confidence])).toEqual([['items', 'note', 'memo', 'high']]);
    const separate = diffEdit(older(), newer(), 'v1', { resolveRename: () => 'separate' });
    expect(separate.map((x) => x.id)).toEqual(['request-optional-field-removed', 'optional-field-added']);
  });
  it('in nested objects too', () => {
    const found = diffEdit(apiWith({ shipping: f.object({ zip: f.string() }) }), apiWith({ shipping: f.object({ postcode: f.string() }) }));
    expect(summary(found).find((x) => x.id === 'possible-undeclared-rename')).toEqual({
      id: 'possible-undeclared-rename',
      level: 'warning',
      location: 'items.shipping.postcode',
    });
  });
});

describe('nested paths', () => {
  it('objects and arrays of objects give dotted paths from the collection', () => {
    const b = apiWith({ shipping: f.object({ address: f.object({ zip: f.string().max(10) }) }), lines: f.array(f.object({ sku: f.string() })) });
    const a = apiWith({ shipping: f.object({ address: f.object({ zip: f.string().max(5) }) }), lines: f.array(f.object({ sku: f.string(), qty: f.int() })) });
    expect(summary(diffEdit(b, a))).toEqual([
      { id: 'request-required-field-added', level: 'breaking', location: 'items.lines[].qty' },
      { id: 'request-bound-tightened', level: 'breaking', location: 'items.shipping.address.zip' },
      { id: 'existing-data-may-not-satisfy', level: 'warning', location: 'items.shipping.address.zip' },
    ]);
  });
  it('a nested field inherits the direction of a read-only parent', () => {
    const b = apiWith({ stats: f.object({ n: f.int() }).readOnly() });
    const a = apiWith({ stats: f.object({ n: f.int().max(5) }).readOnly() });
    const found = diffEdit(b, a).find((x) => x.id !== 'existing-data-may-not-satisfy');
    expect(found).toMatchObject({ id: 'response-bound-added', level: 'safe', location: 'items.stats.n', direction: 'response' });
  });
  it('array item constraints', () => {
    expect(summary(diffEdit(apiWith({ tags: f.array(f.string().max(30)) }), apiWith({ tags: f.array(f.string().max(20)) })))).toEqual([
      { id: 'request-bound-tightened', level: 'breaking', location: 'items.tags[]' },
      { id: 'existing-data-may-not-satisfy', level: 'warning', location: 'items.tags[]' },
    ]);
  });
});
