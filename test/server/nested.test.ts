/**
 * End to end over HTTP: version markers inside nested objects and arrays of objects are migrated like
 * top-level ones (renames both ways, later-added defaults on the way up, later fields dropped and removed
 * fields filled from their fallback on the way down).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TMP, generateInto, importServer, registerOf, start, type Running } from './helpers.ts';

const API = `import { collection, defineApi, f } from 'restgen';

export default defineApi({
  name: 'depot',
  title: 'Depot API',
  versions: { v1: {}, v2: {} },
  collections: {
    customers: collection({
      fields: {
        id: f.id(),
        name: f.string(),
        shipping: f.object({
          zip: f.string().renamedFrom('postcode', 'v2'),
          city: f.string(),
          floor: f.int().default(0).addedIn('v2'),
          note: f.string().optional().addedIn('v2'),
          region: f.string().removedIn('v2', { fallback: 'none' }),
        }),
        stops: f.array(f.object({ label: f.string().renamedFrom('name', 'v2'), priority: f.int().default(1).addedIn('v2') })).default([]),
      },
    }),
  },
});
`;

let outDir: string;
let server: Running;

beforeAll(async () => {
  const dir = path.join(TMP, 'nested-api');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'api.ts'), API);
  outDir = await generateInto('nested', path.join(dir, 'api.ts'));
  const mod = await importServer(outDir);
  server = await start((app) => registerOf(mod, 'Depot')(app, mod.createMemoryHandlers(), {}));
});
afterAll(() => server.close());

describe('nested objects across versions', () => {
  it('created in v1 with the old nested names reads in v2 with the new names and the later defaults', async () => {
    const body = { name: 'Ann', shipping: { postcode: '1234', city: 'Graz', region: 'south' }, stops: [{ name: 'dock' }, { name: 'gate' }] };
    const created = await server.call('POST', '/v1/customers', { body });
    expect(created.status).toBe(201);
    const id = created.body['id'] as string;
    // region is not stored (removed in v2): v1 answers its fallback.
    expect(created.body).toEqual({
      id,
      name: 'Ann',
      shipping: { postcode: '1234', city: 'Graz', region: 'none' },
      stops: [{ name: 'dock' }, { name: 'gate' }],
    });
    const v2 = await server.call('GET', `/v2/customers/${id}`);
    expect(v2.body).toEqual({
      id,
      name: 'Ann',
      shipping: { zip: '1234', city: 'Graz', floor: 0 },
      stops: [
        { label: 'dock', priority: 1 },
        { label: 'gate', priority: 1 },
      ],
    });
  });

  it('created in v2 reads in v1 with the old names, later nested fields dropped', async () => {
    const body = { name: 'Bo', shipping: { zip: '999', city: 'Linz', floor: 3, note: 'ring twice' }, stops: [{ label: 'ramp', priority: 5 }] };
    const created = await server.call('POST', '/v2/customers', { body });
    expect(created.status).toBe(201);
    const id = created.body['id'] as string;
    expect(created.body).toEqual({ id, ...body });
    const v1 = await server.call('GET', `/v1/customers/${id}`);
    expect(v1.body).toEqual({ id, name: 'Bo', shipping: { postcode: '999', city: 'Linz', region: 'none' }, stops: [{ name: 'ramp' }] });
    const list = await server.call('GET', '/v1/customers');
    expect(list.body.data!.find((c) => c['id'] === id)).toEqual(v1.body);
  });

  it('a v1 patch and replace migrate nested objects up (whole objects take the later defaults)', async () => {
    const created = await server.call('POST', '/v2/customers', { body: { name: 'Cy', shipping: { zip: '1', city: 'Wels', floor: 7 } } });
    const id = created.body['id'] as string;
    const patched = await server.call('PATCH', `/v1/customers/${id}`, { body: { shipping: { postcode: '2', city: 'Enns', region: 'x' } } });
    expect(patched.status).toBe(200);
    expect(patched.body['shipping']).toEqual({ postcode: '2', city: 'Enns', region: 'none' });
    expect((await server.call('GET', `/v2/customers/${id}`)).body['shipping']).toEqual({ zip: '2', city: 'Enns', floor: 0 });
    const replaced = await server.call('PUT', `/v1/customers/${id}`, {
      body: { name: 'Cy', shipping: { postcode: '3', city: 'Steyr', region: 'y' }, stops: [{ name: 'back' }] },
    });
    expect(replaced.status).toBe(200);
    expect((await server.call('GET', `/v2/customers/${id}`)).body).toMatchObject({
      shipping: { zip: '3', city: 'Steyr', floor: 0 },
      stops: [{ label: 'back', priority: 1 }],
    });
  });

  it('each version validates nested objects with its own names', async () => {
    const v1WithV2Name = await server.call('POST', '/v1/customers', { body: { name: 'D', shipping: { zip: '1', city: 'A', region: 'r' } } });
    expect(v1WithV2Name.status).toBe(400);
    const v2WithV1Name = await server.call('POST', '/v2/customers', { body: { name: 'D', shipping: { zip: '1', city: 'A' }, stops: [{ name: 'x' }] } });
    expect(v2WithV1Name.status).toBe(400);
  });

  it('emits nested plans only where something differs', async () => {
    const { routes } = (await import(path.join(outDir, 'server/collections/customers.ts'))) as {
      routes: { versions: Record<string, { up?: unknown; down?: unknown }> };
    };
    expect(routes.versions['v1']!.up).toEqual({
      nested: {
        shipping: { renames: { postcode: 'zip' }, drop: ['region'], fill: { floor: 0 } },
        stops: { renames: { name: 'label' }, fill: { priority: 1 } },
      },
    });
    expect(routes.versions['v1']!.down).toEqual({
      shipping: { key: 'shipping', nested: { fields: ['postcode', 'city', 'region'], down: { postcode: { key: 'zip' }, region: { fallback: 'none' } } } },
      stops: { key: 'stops', nested: { fields: ['name'], down: { name: { key: 'label' } } } },
    });
    // The newest version has nothing to migrate and only copies: neither is written.
    expect(routes.versions['v2']).not.toHaveProperty('up');
    expect(routes.versions['v2']).not.toHaveProperty('down');
  });
});
