/**
 * Rename hints (issue #12, item 7): removed and added fields are paired by name similarity and type, never
 * by position; a rename with a type change is a lower-confidence hint; a collection renamed, a field moved
 * into a nested object and an enum value renamed are hinted too; a hint names only a declared version.
 */
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import { diffHistory } from '../../generator/diff/diff-history.ts';
import { nameSimilarity } from '../../generator/diff/similarity.ts';
import { apiWith, diffEdit, irOf } from './helpers.ts';

const hints = (found: ReturnType<typeof diffEdit>, id = 'possible-undeclared-rename') =>
  found.filter((x) => x.id === id).map((x) => ({ location: x.location, changes: x.changes, confidence: x.hint?.confidence }));

describe('pairing by name and type', () => {
  it('first/last → family/given pairs by meaning, whatever order the new fields are written in', () => {
    const before = apiWith({ first: f.string(), last: f.string() });
    const after = apiWith({ family: f.string(), given: f.string() });
    expect(hints(diffEdit(before, after))).toEqual([
      { location: 'items.family', changes: [{ aspect: 'name', before: 'last', after: 'family' }], confidence: 'high' },
      { location: 'items.given', changes: [{ aspect: 'name', before: 'first', after: 'given' }], confidence: 'high' },
    ]);
  });
  it('camelCase names: firstName/lastName → familyName/givenName', () => {
    const found = diffEdit(apiWith({ firstName: f.string(), lastName: f.string() }), apiWith({ familyName: f.string(), givenName: f.string() }));
    expect(hints(found).map((h) => h.changes[0])).toEqual([
      { aspect: 'name', before: 'lastName', after: 'familyName' },
      { aspect: 'name', before: 'firstName', after: 'givenName' },
    ]);
  });
  it('an abbreviation pairs before an unrelated field of the same type', () => {
    const found = diffEdit(apiWith({ weight: f.int(), qty: f.int() }), apiWith({ quantity: f.int(), mass: f.int() }));
    expect(hints(found).map((h) => `${h.changes[0]!.before}→${h.changes[0]!.after}`)).toEqual(['weight→mass', 'qty→quantity']);
  });
  it('scores: same words 1, synonyms and abbreviations high, unrelated words low', () => {
    expect(nameSimilarity('first_name', 'firstName')).toBe(1);
    expect(nameSimilarity('first', 'given')).toBeGreaterThan(0.8);
    expect(nameSimilarity('qty', 'quantity')).toBeGreaterThan(0.7);
    expect(nameSimilarity('first', 'family')).toBeLessThan(0.4);
  });
});

describe('a rename with a type change', () => {
  it('alike names with another type: a lower-confidence hint naming both markers', () => {
    const found = diffEdit(apiWith({ qty: f.int().optional() }), apiWith({ quantity: f.string().optional() }));
    const [hint] = found.filter((x) => x.id === 'possible-undeclared-rename');
    expect(hint!.hint).toEqual({ marker: ".renamedFrom('qty', 'v1').typeChangedFrom('v1', f.int().optional()) on quantity", confidence: 'low' });
    expect(hint!.message).toContain('a less certain guess');
  });
  it('unlike names with another type: no hint', () => {
    expect(hints(diffEdit(apiWith({ weight: f.int().optional() }), apiWith({ label: f.string().optional() })))).toEqual([]);
  });
});

describe('a collection renamed', () => {
  it('removed and added with the same fields: a possible-collection-rename warning with the marker', () => {
    const make = (name: string) =>
      irOf(
        defineApi({
          name: 'test',
          versions: { v1: { released: '2026-01-01' } },
          collections: { [name]: collection({ fields: { id: f.id(), email: f.email() } }) },
        }),
      );
    const found = diffEdit(make('customers'), make('clients'));
    const hint = found.find((x) => x.id === 'possible-collection-rename')!;
    expect(hint).toMatchObject({ level: 'warning', location: 'clients', changes: [{ aspect: 'name', before: 'customers', after: 'clients' }] });
    expect(hint.hint!.marker).toBe("collection({...}).renamedFrom('customers', 'v1') on clients");
  });
  it('other fields: no hint', () => {
    const a = irOf(defineApi({ name: 't', versions: { v1: {} }, collections: { customers: collection({ fields: { id: f.id(), email: f.email() } }) } }));
    const b = irOf(defineApi({ name: 't', versions: { v1: {} }, collections: { clients: collection({ fields: { id: f.id(), name: f.string() } }) } }));
    expect(diffEdit(a, b).map((x) => x.id)).not.toContain('possible-collection-rename');
  });
});

describe('a field moved into a nested object', () => {
  it('a top-level field removed and the same name and type added in a new nested object', () => {
    const found = diffEdit(apiWith({ zip: f.string() }), apiWith({ shipping: f.object({ zip: f.string(), city: f.string() }) }));
    const move = found.find((x) => x.id === 'possible-field-move')!;
    expect(move).toMatchObject({
      level: 'warning',
      location: 'items.shipping.zip',
      changes: [{ aspect: 'path', before: 'items.zip', after: 'items.shipping.zip' }],
    });
    expect(move.message).toContain('moved into a nested object');
  });
  it('into an object that already existed, and out of one', () => {
    const inward = diffEdit(
      apiWith({ zip: f.string(), shipping: f.object({ city: f.string() }) }),
      apiWith({ shipping: f.object({ city: f.string(), zip: f.string() }) }),
    );
    expect(inward.filter((x) => x.id === 'possible-field-move').map((x) => x.location)).toEqual(['items.shipping.zip']);
    const outward = diffEdit(
      apiWith({ shipping: f.object({ city: f.string(), zip: f.string() }) }),
      apiWith({ zip: f.string(), shipping: f.object({ city: f.string() }) }),
    );
    expect(outward.find((x) => x.id === 'possible-field-move')!.message).toContain('moved out of a nested object');
  });
});

describe('an enum value renamed', () => {
  it('one value removed and an alike one added: a possible-enum-value-rename warning', () => {
    const found = diffEdit(apiWith({ status: f.enum(['open', 'shipped']) }), apiWith({ status: f.enum(['open', 'shipping']) }));
    const hint = found.find((x) => x.id === 'possible-enum-value-rename')!;
    expect(hint).toMatchObject({ level: 'warning', location: 'items.status', changes: [{ aspect: 'enumValue', before: 'shipped', after: 'shipping' }] });
    expect(hint.hint!.confidence).toBe('high');
    expect(hint.hint!.marker).toContain(".typeChangedFrom('v1', f.enum(['open', 'shipped']))");
  });
  it('several values: alike ones pair, unlike ones do not', () => {
    const found = diffEdit(apiWith({ s: f.enum(['open', 'cancelled', 'paid']) }), apiWith({ s: f.enum(['open', 'canceled', 'settled']) }));
    expect(found.filter((x) => x.id === 'possible-enum-value-rename').flatMap((x) => x.changes)).toEqual([
      { aspect: 'enumValue', before: 'cancelled', after: 'canceled' },
    ]);
  });
});

describe('the marker names a version that exists', () => {
  const v1Only = { versions: { v1: { released: '2026-01-01' } } };
  it('with only v1 (released), the hint says to add a version instead of naming v2', () => {
    const report = diffHistory(apiWith({ note: f.string().optional() }, v1Only), apiWith({ memo: f.string().optional() }, v1Only), {
      from: 'main',
      to: 'working tree',
    });
    const hint = report.findings.find((x) => x.id === 'possible-undeclared-rename')!;
    expect(hint.message).not.toContain("'v2'");
    expect(hint.message).toContain('add a version to versions first');
  });
  it('with a later unreleased version, the hint names it', () => {
    const shape = { versions: { v1: { released: '2026-01-01' }, v2: {} } };
    const report = diffHistory(apiWith({ note: f.string().optional() }, shape), apiWith({ memo: f.string().optional() }, shape), {
      from: 'main',
      to: 'working tree',
    });
    const forV1 = report.findings.find((x) => x.id === 'possible-undeclared-rename' && x.version === 'v1')!;
    expect(forV1.hint!.marker).toBe(".renamedFrom('note', 'v2') on memo");
  });
});
