/**
 * One test per row of breaking-changes.md about collections, operations, auth, lists and versions,
 * and the negative controls (field order, descriptions, an extracted inline object: no finding).
 */
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import { failsOn, reaches } from '../../generator/diff/gate.ts';
import { diffHistory } from '../../generator/diff/diff-history.ts';
import { apiWith, diffBetween, diffEdit, irOf, summary } from './helpers.ts';

const other = { others: collection({ fields: { id: f.id() } }) };

describe('collections and operations', () => {
  it('collection removed: breaking; added: safe', () => {
    const found = diffEdit(apiWith({}, { extra: other }), apiWith({}));
    expect(summary(found)).toEqual([{ id: 'collection-removed', level: 'breaking', location: 'others' }]);
    expect(found[0]!.affects.routes).toContain('DELETE /v1/others/{id}');
    expect(summary(diffEdit(apiWith({}), apiWith({}, { extra: other })))).toEqual([{ id: 'collection-added', level: 'safe', location: 'others' }]);
  });
  it('operation removed: breaking; added: safe', () => {
    const all = apiWith({});
    const fewer = apiWith({}, { collection: { operations: ['list', 'get', 'create', 'update'] } });
    const removed = diffEdit(all, fewer);
    expect(summary(removed)).toEqual([{ id: 'operation-removed', level: 'breaking', location: 'items' }]);
    expect(removed[0]!.affects.routes).toEqual(['PUT /v1/items/{id}', 'DELETE /v1/items/{id}']);
    expect(summary(diffEdit(fewer, all))).toEqual([{ id: 'operation-added', level: 'safe', location: 'items' }]);
  });
  it('collection path renamed: breaking', () => {
    const found = diffEdit(apiWith({}), apiWith({}, { collection: { path: 'things' } }));
    expect(summary(found)).toEqual([{ id: 'collection-path-changed', level: 'breaking', location: 'items' }]);
    expect(found[0]!.affects.routes).toContain('GET /v1/items');
  });
  it('path parameter renamed: no change (member routes are always /{id}, so nothing to report)', () => {
    const found = diffEdit(apiWith({}), apiWith({}, { collection: { operations: ['get'] } }));
    expect(found[0]!.affects.routes.every((r) => r.endsWith('/{id}') || r.endsWith('/items'))).toBe(true);
    expect(diffEdit(apiWith({}), apiWith({}))).toEqual([]);
  });
});

describe('auth and scopes', () => {
  it('auth added to a public operation: breaking', () => {
    const found = diffEdit(apiWith({}, { collection: { public: ['list', 'get'] } }), apiWith({}, { collection: { public: ['list'] } }));
    expect(summary(found)).toEqual([{ id: 'operation-no-longer-public', level: 'breaking', location: 'items' }]);
    expect(found[0]!.affects.routes).toEqual(['GET /v1/items/{id}']);
    expect(found[0]!.direction).toBe('request');
  });
  it('auth added to an API without auth: every operation breaks', () => {
    expect(summary(diffEdit(apiWith({}, { auth: false }), apiWith({})))).toEqual([
      { id: 'operation-no-longer-public', level: 'breaking', location: 'items' },
      { id: 'auth-scheme-added', level: 'safe', location: 'auth.apiKey' },
      { id: 'auth-scheme-added', level: 'safe', location: 'auth.bearer' },
    ]);
  });
  it('scope added: breaking; removed: safe', () => {
    const base = apiWith({}, { collection: { scopes: { write: 'items:write' } } });
    const more = apiWith({}, { collection: { scopes: { write: ['items:write', 'items:admin'] } } });
    const found = diffEdit(base, more);
    expect(summary(found)).toEqual([{ id: 'scope-added', level: 'breaking', location: 'items' }]);
    expect(found[0]!.affects.client).toEqual(['v1.items.create', 'v1.items.replace', 'v1.items.update', 'v1.items.delete']);
    expect(summary(diffEdit(more, base))).toEqual([{ id: 'scope-removed', level: 'safe', location: 'items' }]);
  });
  it('auth scheme removed: breaking', () => {
    expect(summary(diffEdit(apiWith({}), apiWith({}, { auth: { bearer: true } })))).toEqual([
      { id: 'auth-scheme-removed', level: 'breaking', location: 'auth.apiKey' },
    ]);
    expect(summary(diffEdit(apiWith({}, { auth: { bearer: true, apiKey: 'X-Key' } }), apiWith({}, { auth: { bearer: true, apiKey: 'X-Other' } })))).toEqual([
      { id: 'auth-scheme-removed', level: 'breaking', location: 'auth.apiKey' },
      { id: 'auth-scheme-added', level: 'safe', location: 'auth.apiKey' },
    ]);
  });
});

describe('lists', () => {
  it('default page size changed: warning; maximum lowered: breaking; raised: safe', () => {
    const page = (defaultLimit: number, maxLimit: number) => apiWith({}, { collection: { pagination: { defaultLimit, maxLimit } } });
    expect(summary(diffEdit(page(20, 100), page(10, 100)))).toEqual([{ id: 'list-default-limit-changed', level: 'warning', location: 'items' }]);
    const lowered = diffEdit(page(20, 100), page(20, 50));
    expect(summary(lowered)).toEqual([{ id: 'list-max-limit-lowered', level: 'breaking', location: 'items' }]);
    expect(lowered[0]!.affects.routes).toEqual(['GET /v1/items']);
    expect(summary(diffEdit(page(20, 50), page(20, 100)))).toEqual([{ id: 'list-max-limit-raised', level: 'safe', location: 'items' }]);
  });
});

describe('versions', () => {
  const v = (v1: Record<string, string>) => apiWith({}, { versions: { v1 } });
  it('deprecated: safe', () => {
    expect(summary(diffEdit(v({ released: '2026-01-01' }), v({ released: '2026-01-01', deprecated: '2026-06-01' })))).toEqual([
      { id: 'version-deprecated', level: 'safe', location: 'v1' },
    ]);
  });
  it('sunset moved earlier: breaking; announced or moved later: safe', () => {
    const at = (sunset: string) => v({ released: '2026-01-01', deprecated: '2026-06-01', sunset });
    expect(summary(diffEdit(at('2027-06-01'), at('2027-01-01')))).toEqual([{ id: 'version-sunset-moved-earlier', level: 'breaking', location: 'v1' }]);
    expect(summary(diffEdit(at('2027-01-01'), at('2027-06-01')))).toEqual([{ id: 'version-sunset-moved-later', level: 'safe', location: 'v1' }]);
    expect(summary(diffEdit(v({ released: '2026-01-01', deprecated: '2026-06-01' }), at('2027-01-01')))).toEqual([
      { id: 'version-sunset-set', level: 'safe', location: 'v1' },
    ]);
  });
  const two = (v1: Record<string, string>) => apiWith({}, { versions: { v1, v2: { released: '2026-06-01' } } });
  const onlyV2 = () => apiWith({}, { versions: { v2: { released: '2026-06-01' } } });
  it('whole version removed: breaking, unless it was deprecated and its sunset has passed', () => {
    const deprecated = two({ released: '2026-01-01', deprecated: '2026-06-01', sunset: '2027-01-01' });
    const early = diffHistory(deprecated, onlyV2(), { from: 'base', to: 'head', today: '2026-12-31' });
    expect(summary(early.findings)).toEqual([{ id: 'version-removed', level: 'breaking', location: 'v1' }]);
    const late = diffHistory(deprecated, onlyV2(), { from: 'base', to: 'head', today: '2027-01-01' });
    expect(summary(late.findings)).toEqual([{ id: 'version-removed-after-sunset', level: 'safe', location: 'v1' }]);
    const never = diffHistory(two({ released: '2026-01-01', sunset: '2026-02-01' }), onlyV2(), { from: 'base', to: 'head', today: '2030-01-01' });
    expect(summary(never.findings)).toEqual([{ id: 'version-removed', level: 'breaking', location: 'v1' }]);
  });
  it('changes to an unreleased version keep their level, marked unreleased (they never fail); new versions are safe', () => {
    const base = apiWith({ x: f.string() }, { versions: { v1: { released: '2026-01-01' }, v2: {} } });
    const head = apiWith({ x: f.string().optional() }, { versions: { v1: { released: '2026-01-01' }, v2: {}, v3: {} } });
    const report = diffHistory(base, head, { from: 'HEAD', to: 'working tree' });
    expect(summary(report.findings)).toEqual([
      { id: 'response-field-became-optional', level: 'breaking', location: 'items.x' },
      { id: 'response-field-became-optional', level: 'breaking', location: 'items.x' },
      { id: 'version-added', level: 'safe', location: 'v3' },
    ]);
    expect(report.findings.map((x) => [x.version, x.unreleased ?? false])).toEqual([
      ['v1', false],
      ['v2', true],
      ['v3', false],
    ]);
    expect(report.summary).toEqual({ breaking: 2, warning: 0, safe: 1 });
    expect(report.findings.filter((x) => failsOn(x, 'breaking')).map((x) => x.version)).toEqual(['v1']);
    expect(report.comparisons.map((c) => c.version)).toEqual(['v1', 'v2', 'v3']);
  });
  it('an id keeps its level on an unreleased version (request-required-field-added stays breaking)', () => {
    const versions = { v1: { released: '2026-01-01' }, v2: {} };
    const report = diffHistory(apiWith({}, { versions }), apiWith({ y: f.int() }, { versions }), { from: 'main', to: 'working tree' });
    const v2 = report.findings.filter((x) => x.version === 'v2');
    expect(v2.map((x) => [x.id, x.level, x.unreleased])).toEqual([['request-required-field-added', 'breaking', true]]);
    expect(reaches(v2, 'breaking')).toBe(false);
    expect(reaches(report.findings, 'breaking')).toBe(true);
  });
});

describe('negative controls', () => {
  it('field order, descriptions and an extracted inline object give no finding', () => {
    const before = irOf(
      defineApi({
        name: 'test',
        versions: { v1: { released: '2026-01-01' } },
        collections: {
          items: collection({
            description: 'Items.',
            fields: { id: f.id(), a: f.string().description('A'), b: f.int(), where: f.object({ zip: f.string().max(10) }) },
          }),
        },
      }),
    );
    const address = f.object({ zip: f.string().max(10).description('postal code') });
    const after = irOf(
      defineApi({
        name: 'test',
        versions: { v1: { released: '2026-01-01' } },
        collections: {
          items: collection({
            description: 'Things, reworded.',
            fields: { where: address, b: f.int().example(3), id: f.id(), a: f.string().description('Another text') },
          }),
        },
      }),
    );
    expect(diffEdit(before, after)).toEqual([]);
  });
});

describe('collection and operation markers between versions of one IR', () => {
  const api = (customers: ReturnType<typeof collection>) =>
    irOf(defineApi({ name: 'test', versions: { v1: { released: '2026-01-01' }, v2: {} }, auth: { bearer: {} }, collections: { customers } }));
  it('a collection renamed with renamedFrom moves its path: breaking; with an explicit path: a warning for the SDK', () => {
    const moved = api(collection({ fields: { id: f.id() } }).renamedFrom('clients', 'v2'));
    const found = diffBetween(moved, 'v1', 'v2');
    expect(summary(found)).toEqual([{ id: 'collection-path-changed', level: 'breaking', location: 'customers' }]);
    expect(found[0]!.affects.routes).toContain('GET /v1/clients');
    const kept = api(collection({ fields: { id: f.id() }, path: 'clients' }).renamedFrom('clients', 'v2'));
    expect(summary(diffBetween(kept, 'v1', 'v2'))).toEqual([{ id: 'collection-renamed', level: 'warning', location: 'customers' }]);
  });
  it('versioned operations', () => {
    const ops = api(
      collection({ fields: { id: f.id() }, operations: ['list', 'get', { name: 'delete', addedIn: 'v2' }, { name: 'create', removedIn: 'v2' }] }),
    );
    expect(summary(diffBetween(ops, 'v1', 'v2'))).toEqual([
      { id: 'operation-removed', level: 'breaking', location: 'customers' },
      { id: 'operation-added', level: 'safe', location: 'customers' },
    ]);
  });
});
