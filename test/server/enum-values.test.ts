/**
 * `valueAddedIn` is a general enum feature: the down plans the server emitter writes show a value an older
 * version lacks as its fallback (following fallbacks that are themselves added later), on a top-level
 * field, in each item of an array of enums and inside a nested object; each version's enum holds its values.
 */
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import { HookNeeds, planDown } from '../../generator/emit/server/migration-plan.ts';
import { project } from '../../generator/model/project.ts';
import { irOf } from '../diff/helpers.ts';

const api = irOf(
  defineApi({
    name: 'kinds',
    versions: { v1: { released: '2026-01-01' }, v2: { released: '2026-02-01' }, v3: {} },
    collections: {
      things: collection({
        fields: {
          id: f.id(),
          grade: f.enum(['low', 'high', 'top']).valueAddedIn('v2', 'high', { fallback: 'low' }).valueAddedIn('v3', 'top', { fallback: 'high' }),
          tags: f.array(f.enum(['a', 'b']).valueAddedIn('v2', 'b', { fallback: 'a' })).default([]),
          box: f.object({ kind: f.enum(['x', 'y']).valueAddedIn('v3', 'y', { fallback: 'x' }) }).optional(),
        },
      }),
    },
  }),
);
const things = api.collections[0]!;
const versions = api.versions.map((v) => v.name);

describe('down plans of enum values added later', () => {
  it('v1 shows high and top as low (a fallback of a fallback), b as a in each tag, y as x in the box', () => {
    expect(planDown(versions, things, 0, 2, new HookNeeds())).toEqual({
      grade: { key: 'grade', values: { high: 'low', top: 'low' } },
      tags: { key: 'tags', values: { b: 'a' } },
      box: { key: 'box', nested: { fields: ['kind'], down: { kind: { key: 'kind', values: { y: 'x' } } } } },
    });
  });
  it('v2 knows high and b: only top and y are shown as their fallbacks', () => {
    expect(planDown(versions, things, 1, 2, new HookNeeds())).toEqual({
      grade: { key: 'grade', values: { top: 'high' } },
      box: { key: 'box', nested: { fields: ['kind'], down: { kind: { key: 'kind', values: { y: 'x' } } } } },
    });
  });
  it("each version's enums hold the values it has", () => {
    const grade = (v: string) => project(api, v).collections[0]!.fields.find((x) => x.name === 'grade')!.type;
    expect(grade('v1')).toEqual({ kind: 'enum', values: ['low'] });
    expect(grade('v2')).toEqual({ kind: 'enum', values: ['low', 'high'] });
    expect(grade('v3')).toEqual({ kind: 'enum', values: ['low', 'high', 'top'] });
  });
});
