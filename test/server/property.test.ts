/**
 * Property tests over HTTP, for every version and collection of the shop example: bodies the generated
 * schemas accept never answer 400; random JSON, mutated bodies, raw text and random list queries never
 * answer 5xx.
 */
import fc from 'fast-check';
import path from 'node:path';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { project } from '../../generator/model/project.ts';
import { loadIr } from '../helpers/load-ir.ts';
import { validInputOf } from './arbitrary.ts';
import { SHOP_MIGRATIONS, generateInto, importServer, registerOf, start, testAuthenticate, type Running } from './helpers.ts';

interface Target {
  readonly version: string;
  readonly path: string;
  readonly create: z.ZodType | undefined;
  readonly patch: z.ZodType | undefined;
}

let server: Running;
const targets: Target[] = [];
const RUNS = 25;

beforeAll(async () => {
  const outDir = await generateInto('property');
  const mod = await importServer(outDir);
  server = await start((app) =>
    registerOf(mod, 'Shop')(app, mod.createMemoryHandlers(), { authenticate: testAuthenticate, migrations: SHOP_MIGRATIONS, rateLimit: false }),
  );
  const ir = await loadIr();
  for (const v of ir.versions) {
    const schemas = (await import(path.join(outDir, `${v.name}/schemas.ts`))) as Record<string, z.ZodType>;
    // The webhook endpoints check URLs and event types beyond their schema (test/webhooks covers them).
    for (const c of project(ir, v.name).collections.filter((x) => x.builtin === undefined))
      targets.push({
        version: v.name,
        path: `/${v.name}/${c.path}`,
        create: c.operations.includes('create') ? schemas[`${c.typeName}Create`] : undefined,
        patch: c.operations.includes('update') ? schemas[`${c.typeName}Patch`] : undefined,
      });
  }
});
afterAll(() => server.close());

/** Creates one resource from generated valid bodies (retrying on unique collisions) and returns its id. */
async function createOne(t: Target): Promise<string> {
  for (const body of fc.sample(validInputOf(t.create!), 20)) {
    const answer = await server.call('POST', t.path, { body });
    if (answer.status === 201) return answer.body['id'] as string;
  }
  throw new Error(`could not create in ${t.path}`);
}

describe('valid bodies never answer 400', () => {
  it('covers every version and collection', () => {
    expect(targets.map((t) => t.path)).toEqual(['/v1/customers', '/v1/orders', '/v2/customers', '/v2/orders', '/v3/customers', '/v3/orders', '/v3/coupons']);
  });

  it('create: 201, or 409 on a unique collision', async () => {
    for (const t of targets.filter((x) => x.create)) {
      await fc.assert(
        fc.asyncProperty(validInputOf(t.create!), async (body) => {
          // The generator is checked against the schema itself, so a 400 is the server's fault.
          expect(t.create!.safeParse(body).success).toBe(true);
          const answer = await server.call('POST', t.path, { body });
          expect([201, 409], `${t.path} ${JSON.stringify(body)} -> ${JSON.stringify(answer.body)}`).toContain(answer.status);
        }),
        { numRuns: RUNS },
      );
    }
  });

  it('update: 200, or 409 on a unique collision', async () => {
    for (const t of targets.filter((x) => x.patch)) {
      const id = await createOne(t);
      await fc.assert(
        fc.asyncProperty(validInputOf(t.patch!), async (body) => {
          expect(t.patch!.safeParse(body).success).toBe(true);
          // `If-Match: *` (the resource exists): coupons require a precondition on writes.
          const answer = await server.call('PATCH', `${t.path}/${id}`, { body, headers: { 'if-match': '*' } });
          expect([200, 409], `${t.path} ${JSON.stringify(body)} -> ${JSON.stringify(answer.body)}`).toContain(answer.status);
        }),
        { numRuns: RUNS },
      );
    }
  });
});

describe('nothing a client sends answers 5xx', () => {
  const methods = fc.constantFrom('POST', 'PATCH', 'PUT');
  it('random JSON bodies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), methods, fc.jsonValue(), async (t, method, body) => {
        const answer = await server.call(method, method === 'POST' ? t.path : `${t.path}/6f1c2f0e-8d0b-4b7a-9c39-3a3f0b7e2d11`, {
          raw: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: RUNS * 4 },
    );
  });

  it('valid bodies with one field replaced by random JSON or an extra field: 400 unless still valid', async () => {
    for (const t of targets.filter((x) => x.create)) {
      const mutated = fc
        .tuple(validInputOf(t.create!), fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue())
        .map(([body, key, value]) => ({ ...(body as object), [key]: value }));
      await fc.assert(
        fc.asyncProperty(mutated, async (body) => {
          const answer = await server.call('POST', t.path, { body });
          const valid = t.create!.safeParse(body).success;
          expect(valid ? [201, 409] : [400], `${t.path} ${JSON.stringify(body)}`).toContain(answer.status);
        }),
        { numRuns: RUNS },
      );
    }
  });

  it('random raw text as a JSON body, and random list queries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets),
        fc.string({ maxLength: 60 }),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
        async (t, raw, query) => {
          const posted = await server.call('POST', t.path, { raw, headers: { 'content-type': 'application/json' } });
          expect(posted.status).toBeLessThan(500);
          const listed = await server.call('GET', `${t.path}?${new URLSearchParams(query).toString()}`);
          expect(listed.status).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });
});
