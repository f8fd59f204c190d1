/**
 * The projection: each version of one definition, markers undone from the newest version back.
 */
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';
import { buildApi } from '../../generator/model/build.ts';
import { checkApi } from '../../generator/model/check.ts';
import { DiagnosticBag } from '../../generator/model/diagnostics.ts';
import type { ApiIR, FieldAt } from '../../generator/model/ir.ts';
import { project } from '../../generator/model/project.ts';
import { loadIr } from '../helpers/load-ir.ts';

function build(def: ReturnType<typeof defineApi>): ApiIR {
  const bag = new DiagnosticBag();
  const ir = buildApi(def, 'api.ts', bag);
  checkApi(ir, bag);
  expect(bag.items).toEqual([]);
  return ir;
}

const field = (ir: ApiIR, version: string, collection: string, name: string): FieldAt | undefined =>
  project(ir, version)
    .collections.find((c) => c.name === collection)
    ?.fields.find((x) => x.name === name);

describe('project()', () => {
  it('renames: each version sees the name it had, chained renames included', () => {
    const ir = build(
      defineApi({
        name: 'a',
        versions: { v1: {}, v2: {}, v3: {} },
        collections: { items: collection({ fields: { id: f.id(), amount: f.int().renamedFrom('qty', 'v2').renamedFrom('count', 'v3') } }) },
      }),
    );
    expect(project(ir, 'v1').collections[0]!.fields.map((x) => x.name)).toEqual(['id', 'qty']);
    expect(project(ir, 'v2').collections[0]!.fields.map((x) => x.name)).toEqual(['id', 'count']);
    expect(project(ir, 'v3').collections[0]!.fields.map((x) => x.name)).toEqual(['id', 'amount']);
    expect(field(ir, 'v1', 'items', 'qty')!.key).toBe('amount');
  });

  it('addedIn / removedIn bound the versions a field and a collection exist in, keeping the fallback', () => {
    const ir = build(
      defineApi({
        name: 'a',
        versions: { v1: {}, v2: {}, v3: {} },
        collections: {
          items: collection({
            fields: { id: f.id(), a: f.string().optional().addedIn('v2'), b: f.string().removedIn('v3', { fallback: 'n/a' }) },
          }),
          later: collection({ fields: { id: f.id() } })
            .addedIn('v2')
            .removedIn('v3'),
        },
      }),
    );
    expect(field(ir, 'v1', 'items', 'a')).toBeUndefined();
    expect(field(ir, 'v2', 'items', 'a')).toBeDefined();
    expect(field(ir, 'v2', 'items', 'b')!.removedIn).toEqual({ version: 'v3', fallback: { value: 'n/a' } });
    expect(field(ir, 'v3', 'items', 'b')).toBeUndefined();
    expect(project(ir, 'v1').collections.map((c) => c.name)).toEqual(['items']);
    expect(project(ir, 'v2').collections.map((c) => c.name)).toEqual(['items', 'later']);
    expect(project(ir, 'v3').collections.map((c) => c.name)).toEqual(['items']);
  });

  it('typeChangedFrom gives the complete old field; optionality markers flip required-ness before their version', () => {
    const ir = build(
      defineApi({
        name: 'a',
        versions: { v1: {}, v2: {}, v3: {} },
        collections: {
          items: collection({
            fields: {
              id: f.id(),
              ref: f.string().max(10).typeChangedFrom('v3', f.int().min(0).nullable()),
              note: f.string().optional().madeOptionalIn('v2'),
              code: f.string().default('x').madeRequiredIn('v3'),
            },
          }),
        },
      }),
    );
    expect(field(ir, 'v2', 'items', 'ref')).toMatchObject({ type: { kind: 'int', min: 0 }, nullable: true });
    expect(field(ir, 'v3', 'items', 'ref')).toMatchObject({ type: { kind: 'string', max: 10 }, nullable: false });
    expect(field(ir, 'v1', 'items', 'note')!.optional).toBe(false);
    expect(field(ir, 'v2', 'items', 'note')!.optional).toBe(true);
    expect(field(ir, 'v2', 'items', 'code')!.optional).toBe(true);
    expect(field(ir, 'v3', 'items', 'code')!.optional).toBe(false);
  });

  it('operations and public operations follow the versions they exist in; paths follow collection renames', () => {
    const ir = build(
      defineApi({
        name: 'a',
        versions: { v1: {}, v2: {} },
        auth: { bearer: {} },
        collections: {
          people: collection({
            fields: { id: f.id() },
            operations: ['get', 'list', { name: 'delete', addedIn: 'v2' }],
            // Public in the versions each entry names, and only where the operation exists.
            public: [{ name: 'list', removedIn: 'v2' }, { name: 'get', addedIn: 'v2' }, 'delete'],
          }).renamedFrom('persons', 'v2'),
        },
      }),
    );
    expect(project(ir, 'v1').collections[0]).toMatchObject({
      name: 'persons',
      path: 'persons',
      typeName: 'Person',
      operations: ['list', 'get'],
      public: ['list'],
    });
    expect(project(ir, 'v2').collections[0]).toMatchObject({
      name: 'people',
      path: 'people',
      operations: ['list', 'get', 'delete'],
      public: ['get', 'delete'],
    });
  });

  it('keeps the example in the order the user wrote, with auth, limits and lifecycle dates', async () => {
    const ir = await loadIr();
    expect(ir.versions[0]).toMatchObject({ name: 'v1', released: '2026-01-15', deprecated: '2026-09-01', sunset: '2027-03-01' });
    expect(ir.auth).toEqual({
      apiKey: { header: 'X-API-Key' },
      oauth2: {
        flows: [
          { kind: 'authorizationCode', authorizationUrl: 'https://id.shop.example.com/oauth/authorize', tokenUrl: 'https://id.shop.example.com/oauth/token' },
          { kind: 'clientCredentials', tokenUrl: 'https://id.shop.example.com/oauth/token' },
        ],
        scopes: [
          { name: 'customers:read', description: 'Read customers' },
          { name: 'customers:write', description: 'Create, change and delete customers' },
          { name: 'orders:read', description: 'Read orders' },
          { name: 'orders:write', description: 'Place and change orders; pay for and ship them' },
          { name: 'orders:cancel', description: 'Cancel orders' },
          { name: 'webhooks:read', description: 'List and read webhook endpoints' },
          { name: 'webhooks:write', description: 'Create, change, disable and delete webhook endpoints; rotate their secrets' },
        ],
      },
    });
    expect(ir.rateLimit).toEqual({ limit: 100, window: '1m', windowMs: 60_000 });
    const orders = ir.collections.find((c) => c.name === 'orders')!;
    expect(orders.rateLimit?.windowMs).toBe(1000);
    // Readable without a token until v3.
    expect(['v1', 'v2', 'v3'].map((v) => project(ir, v).collections.find((c) => c.key === 'orders')!.public)).toEqual([['list', 'get'], ['list', 'get'], []]);
    expect(orders.scopes).toEqual({ read: ['orders:read'], write: ['orders:write'] });
    expect(
      project(ir, 'v2')
        .collections.find((c) => c.name === 'orders')!
        .fields.map((x) => x.name),
    ).toEqual(['id', 'customer_id', 'product_id', 'quantity', 'currency', 'reference', 'giftMessage', 'status', 'createdAt']);
  });
});
