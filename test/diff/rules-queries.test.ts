/**
 * The rules of list queries: each filter operator is a query parameter of the list, each sort key and expansion a
 * value its parameter takes. Adding one is safe, removing or narrowing one is breaking (unknown parameters and
 * values answer 400), safe for a deprecated field's filters; the default order changing is a warning. Between
 * versions, the markers on the entries (`{ op, removedIn }`, `sortable({ removedIn })`, `expandable({ removedIn })`)
 * make the same changes; the lock refuses one in a released version and names the marker to write.
 */
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import { diffApis } from '../../generator/diff/diff-apis.ts';
import { compareWithLock } from '../../generator/lock/compare-lock.ts';
import { project } from '../../generator/model/project.ts';
import { apiWith, diffEdit, diffField, irOf, summary } from './helpers.ts';

const at = 'items.x';
const one = (id: string, level: string, location = at) => [{ id, level, location }];

describe('filter operators', () => {
  it('an operator added is a new query parameter (safe), one removed a removed parameter (breaking)', () => {
    const added = diffField(f.int().filterable(), f.int().filterable({ ops: ['eq', 'gte', 'lt'] }));
    expect(summary(added)).toEqual(one('query-parameter-added', 'safe'));
    expect(added[0]!.message).toBe('items list accepts the new filter ?x[gte]=; items list accepts the new filter ?x[lt]=');
    expect(added[0]!.affects.routes).toEqual(['GET /v1/items']);
    const removed = diffField(f.int().filterable({ ops: ['eq', 'in', 'gte'] }), f.int().filterable({ ops: ['eq'] }));
    expect(summary(removed)).toEqual(one('query-parameter-removed', 'breaking'));
    expect(removed[0]!.changes).toEqual([
      { aspect: 'filter', before: 'x[in]' },
      { aspect: 'filter', before: 'x[gte]' },
    ]);
  });
  it('narrowing equality away is a removal too; a deprecated field may lose its filters safely', () => {
    expect(summary(diffField(f.int().filterable(), f.int().filterable({ ops: ['gte'] })))).toEqual([
      ...one('query-parameter-removed', 'breaking'),
      ...one('query-parameter-added', 'safe'),
    ]);
    expect(
      summary(
        diffField(
          f
            .int()
            .filterable({ ops: ['gt'] })
            .deprecated(),
          f.int().deprecated(),
        ),
      ),
    ).toEqual(one('deprecated-query-parameter-removed', 'safe'));
  });
  it('a field added or removed brings or takes its filters', () => {
    expect(
      summary(
        diffEdit(
          apiWith({}),
          apiWith({
            x: f
              .int()
              .optional()
              .filterable({ ops: ['gt'] }),
          }),
        ),
      ),
    ).toEqual([...one('optional-field-added', 'safe'), ...one('query-parameter-added', 'safe')]);
  });
});

describe('sort keys and expansions', () => {
  it('a sort key added is safe, removed is breaking', () => {
    expect(summary(diffField(f.string(), f.string().sortable()))).toEqual(one('sort-key-added', 'safe'));
    expect(summary(diffField(f.string().sortable(), f.string()))).toEqual(one('sort-key-removed', 'breaking'));
  });
  it('an expansion added is safe, removed is breaking, on every route that answers the resource', () => {
    const extra = { others: collection({ fields: { id: f.id() } }) };
    const added = diffEdit(apiWith({ x: f.ref('others') }, { extra }), apiWith({ x: f.ref('others').expandable() }, { extra }));
    expect(summary(added)).toEqual(one('expansion-added', 'safe'));
    expect(added[0]!.affects.routes).toEqual(['GET /v1/items', 'GET /v1/items/{id}', 'POST /v1/items', 'PUT /v1/items/{id}', 'PATCH /v1/items/{id}']);
    expect(summary(diffEdit(apiWith({ x: f.ref('others').expandable() }, { extra }), apiWith({ x: f.ref('others') }, { extra })))).toEqual(
      one('expansion-removed', 'breaking'),
    );
  });
  it('another default order is a warning', () => {
    const by = (defaultSort: string) => apiWith({ x: f.int().sortable() }, { collection: { defaultSort } });
    expect(summary(diffEdit(by('x'), by('-x')))).toEqual(one('list-default-sort-changed', 'warning', 'items'));
    expect(summary(diffEdit(apiWith({ x: f.int().sortable() }), by('-x')))).toEqual(one('list-default-sort-changed', 'warning', 'items'));
  });
});

/** A two-version API whose v2 drops what v1 had, with the markers: v1 as it was, v2 without. */
function markedApi() {
  return irOf(
    defineApi({
      name: 'test',
      versions: { v1: { released: '2026-01-01' }, v2: {} },
      collections: {
        others: collection({ fields: { id: f.id() } }),
        items: collection({
          fields: {
            id: f.id(),
            price: f
              .number()
              .filterable({ ops: ['eq', { op: 'in', removedIn: 'v2' }, { op: 'gte', addedIn: 'v2' }] })
              .sortable({ removedIn: 'v2' }),
            other: f.ref('others').expandable({ removedIn: 'v2' }),
          },
        }),
      },
    }),
  );
}

describe('between versions', () => {
  it('the markers on operators, sort keys and expansions change the versions they name', () => {
    const ir = markedApi();
    const v1 = project(ir, 'v1').collections.find((c) => c.name === 'items')!.query;
    const v2 = project(ir, 'v2').collections.find((c) => c.name === 'items')!.query;
    expect(v1.filters).toEqual([{ name: 'price', key: 'price', ops: ['eq', 'in'] }]);
    expect(v2.filters).toEqual([{ name: 'price', key: 'price', ops: ['eq', 'gte'] }]);
    expect([v1.sortable, v2.sortable]).toEqual([[{ name: 'price', key: 'price' }], []]);
    expect([v1.expandable.length, v2.expandable.length]).toEqual([1, 0]);
    const changes = diffApis(project(ir, 'v1'), project(ir, 'v2'));
    expect(summary(changes)).toEqual([
      { id: 'expansion-removed', level: 'breaking', location: 'items.other' },
      { id: 'query-parameter-removed', level: 'breaking', location: 'items.price' },
      { id: 'sort-key-removed', level: 'breaking', location: 'items.price' },
      { id: 'query-parameter-added', level: 'safe', location: 'items.price' },
    ]);
  });

  it('the lock refuses a removal from a released version and names the marker to use', () => {
    const api = (price: ReturnType<typeof f.number>) =>
      irOf(
        defineApi({
          name: 'test',
          versions: { v1: { released: '2026-01-01' }, v2: {} },
          collections: { items: collection({ fields: { id: f.id(), price } }) },
        }),
      );
    const locked = compareWithLock(
      api(
        f
          .number()
          .filterable({ ops: ['eq', 'gte'] })
          .sortable(),
      ),
      undefined,
    ).nextLock;
    const refused = compareWithLock(api(f.number().filterable()), locked).diagnostics.map((d) => d.message);
    expect(refused).toEqual([
      expect.stringContaining("write the operator as { op: '<op>', removedIn: 'v2' } in .filterable({ ops: [...] }) on price"),
      expect.stringContaining(".sortable({ removedIn: 'v2' }) on price"),
    ]);
    expect(refused[0]).toContain('items list no longer accepts the filter ?price[gte]=');
    // Added to a released version: safe, recorded in the lock.
    const grown = compareWithLock(
      api(
        f
          .number()
          .filterable({ ops: ['eq', 'gte', 'lt'] })
          .sortable(),
      ),
      locked,
    );
    expect(grown.diagnostics).toEqual([]);
    expect(JSON.stringify(grown.nextLock)).toContain('"lt"');
  });
});
