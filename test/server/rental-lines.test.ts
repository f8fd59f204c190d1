/**
 * The route tables of a 5-collection, 3-version API (fixtures/rental-api.ts: lifecycle, events, renames, a
 * collection added later) write what a collection's versions share once: `collection`, `path`, `operations`,
 * `public`, `id` and the state field appear once per collection module, and a version writes only what it has of
 * its own. The generated server type-checks and its routes answer as each version says.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles, tempDir } from '../helpers/temp-api.ts';
import { generate } from '../../generator/pipeline/generate.ts';
import { importServer, registerOf, start, type Running } from './helpers.ts';

const API = fileURLToPath(new URL('./fixtures/rental-api.ts', import.meta.url));
const tmp = tempDir('rental-lines');
let server: Running | undefined;
afterAll(async () => {
  await server?.close();
  tmp.cleanup();
});

let out = '';
beforeAll(async () => {
  const result = await generate({ apiPath: API, outDir: tmp.dir });
  expect(result.diagnostics).toEqual([]);
  out = tmp.dir;
});

const SCOPES = ['customers', 'fleet', 'rentals', 'billing', 'webhooks'].flatMap((s) => [`${s}:read`, `${s}:write`]);
const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0;

describe('route tables', () => {
  it('write what a collection shares across versions once, and per version only its own', () => {
    const modules = listFiles(path.join(out, 'server/collections'));
    expect(modules.sort()).toEqual(['customers.ts', 'invoices.ts', 'locations.ts', 'rentals.ts', 'vehicles.ts', 'webhook_endpoints.ts']);
    for (const file of modules) {
      const text = readFileSync(path.join(out, 'server/collections', file), 'utf8');
      const table = text.slice(text.indexOf('export const routes'), text.indexOf('export const memory'));
      for (const member of [/^ {2}collection,$/gm, /^ {2}path: /gm, /^ {2}operations: /gm, /^ {2}public: /gm, /^ {2}id: /gm])
        expect(count(table, member), `${file} ${member}`).toBe(1);
      // Nothing a version has not of its own: no empty down, no null up, no empty transitions.
      expect(table, file).not.toMatch(/down: \{\}|up: null|transitions: \{\}/);
    }
    const rentals = readFileSync(path.join(out, 'server/collections/rentals.ts'), 'utf8');
    expect(count(rentals, /stateField: "status"/g)).toBe(1);
    // invoices exist from v2 on.
    expect(readFileSync(path.join(out, 'server/collections/invoices.ts'), 'utf8')).toContain('$.CollectionRoutes<"v2" | "v3">');
    const routes = readFileSync(path.join(out, 'server/routes.ts'), 'utf8');
    expect(routes.replace(/\s+/g, '')).toContain('collections:[$customers,$locations,$vehicles,$rentals,$invoices,$webhook_endpoints,]');
    expect(routes).not.toContain('routes:');
  });

  it('serve each version as it is: a collection added later, a renamed field, a transition', async () => {
    const mod = await importServer(out);
    server = await start((app) =>
      registerOf(mod, 'Rental')(app, mod.createMemoryHandlers(), {
        authenticate: () => ({ id: 'staff', scopes: SCOPES }),
        rateLimit: false,
        migrations: { v3: { vehicles: { notes: { value: () => undefined } } } },
      }),
    );
    expect((await server.call('GET', '/v1/invoices')).status).toBe(404);
    expect((await server.call('GET', '/v2/invoices')).status).toBe(200);
    const customer = await server.call('POST', '/v1/customers', { body: { email: 'ada@example.com', name: 'Ada' } });
    expect(customer.status).toBe(201);
    const v2 = await server.call('GET', `/v2/customers/${String(customer.body['id'])}`);
    expect(v2.body).toMatchObject({ fullName: 'Ada', licenseNumber: 'UNKNOWN' });
    const location = await server.call('POST', '/v3/locations', { body: { name: 'Central', city: 'Lyon' } });
    const vehicle = await server.call('POST', '/v3/vehicles', {
      body: { plate: 'AB-123', model: 'Zoe', category: 'compact', location_id: location.body['id'], dailyRate: 4500 },
    });
    expect(vehicle.status).toBe(201);
    const rental = await server.call('POST', '/v3/rentals', {
      body: { customer_id: customer.body['id'], vehicle_id: vehicle.body['id'], startsOn: '2026-08-01', endsOn: '2026-08-03' },
    });
    expect(rental.body['status']).toBe('reserved');
    const picked = await server.call('POST', `/v1/rentals/${String(rental.body['id'])}:pickUp`, { body: {} });
    expect(picked.status).toBe(200);
    expect(picked.body['status']).toBe('active');
  });
});
