/**
 * The documented-answers judge reads the version's OpenAPI document as `generate` writes it: a status the
 * operation does not list, a body that breaks its schema, the wrong content type, a missing ETag or Location,
 * and a weak ETag are each reported; a documented answer is not. The run's own request bodies are checked
 * against the same document, and the values it makes for every field of both examples pass.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createVersionDocument } from '../../generator/conformance/documents.ts';
import { bodyOf } from '../../generator/conformance/context.ts';
import { createValues } from '../../generator/conformance/values.ts';
import type { Exchange } from '../../generator/conformance/types.ts';
import type { ApiIR } from '../../generator/model/ir.ts';
import { project } from '../../generator/model/project.ts';
import { buildOpenApiDocument } from '../../generator/emit/openapi/build-document.ts';
import { printJson } from '../../generator/emit/openapi/print-json.ts';
import { loadIr } from '../helpers/load-ir.ts';
import { HEADER_API } from '../server/helpers.ts';

let shop: ApiIR;
let notes: ApiIR;
beforeAll(async () => {
  [shop, notes] = await Promise.all([loadIr(), loadIr(HEADER_API)]);
});

const customer = {
  id: '3b241101-e2bb-4255-8caf-4136c566a962',
  email: 'a@example.com',
  name: 'A',
  tier: 'free',
  tags: [],
  createdAt: '2026-01-01T00:00:00.000Z',
};
const answer = (status: number, headers: Record<string, string>, body?: unknown): Exchange => ({
  request: { method: 'GET', url: 'http://x/v3/customers/1', headers: {} },
  answer: { status, headers, ...(body !== undefined ? { body } : {}) },
});
const json = { 'content-type': 'application/json; charset=utf-8' };

describe('judging answers', () => {
  it('builds the same document generate writes', () => {
    const written = JSON.parse(readFileSync(new URL('../../examples/shop/generated/openapi/v3.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    const built = JSON.parse(printJson(buildOpenApiDocument(project(shop, 'v3')))) as Record<string, unknown>;
    expect({ ...built, 'x-restgen': written['x-restgen'] }).toEqual(written);
  });

  it('accepts a documented answer and reports each way an answer can break the document', () => {
    const doc = createVersionDocument(project(shop, 'v3'));
    const judge = (e: Exchange) => doc.judge('GET', '/v3/customers/{id}', e);
    expect(judge(answer(200, { ...json, etag: '"abc"' }, customer))).toEqual([]);
    expect(judge(answer(201, { ...json, etag: '"abc"' }, customer))[0]).toMatch(/answered 201, which GET \/v3\/customers\/\{id\} does not document/);
    expect(judge(answer(200, { ...json, etag: '"abc"' }, { ...customer, tier: 'gold' }))[0]).toMatch(
      /does not match the documented schema: #\/tier must be equal to one of the allowed values/,
    );
    expect(judge(answer(200, { 'content-type': 'text/plain', etag: '"abc"' }, 'hello'))[0]).toMatch(
      /Content-Type is "text\/plain"; the document says application\/json/,
    );
    expect(judge(answer(200, json, customer))).toEqual(['the documented ETag header is missing']);
    expect(judge(answer(200, { ...json, etag: 'W/"abc"' }, customer))).toEqual(['ETag W/"abc" is not a strong entity tag ("...")']);
    expect(judge(answer(304, { etag: '"abc"' }, 'x'))).toEqual(['304 documents no body, but one came']);
    expect(doc.judge('POST', '/v3/customers', answer(201, { ...json, etag: '"abc"' }, customer))).toEqual(['the documented Location header is missing']);
  });

  it("checks a deprecated version's Deprecation and Sunset headers", () => {
    const doc = createVersionDocument(project(shop, 'v1'));
    const v1 = { id: customer.id, email: customer.email, name: 'A', tier: 'free', tags: [], createdAt: customer.createdAt };
    const problems = doc.judge('GET', '/v1/customers/{id}', answer(200, { ...json, etag: '"abc"' }, v1));
    expect(problems).toEqual(['the documented Deprecation header is missing', 'the documented Sunset header is missing']);
  });
});

describe("the run's request values", () => {
  it('every body the run makes for create, replace and transitions is valid for its version, over many draws', () => {
    for (const ir of [shop, notes]) {
      const values = createValues(42);
      for (const version of ir.versions.map((v) => v.name)) {
        const api = project(ir, version);
        const doc = createVersionDocument(api);
        const prefix = ir.versioning.in === 'path' ? `/${version}` : '';
        for (const c of api.collections.filter((x) => x.builtin === undefined))
          for (let i = 0; i < 40; i++) {
            const refs = () => '3b241101-e2bb-4255-8caf-4136c566a962';
            if (c.operations.includes('create'))
              for (const which of ['all', 'required'] as const)
                expect(doc.requestProblems('POST', `${prefix}/${c.path}`, bodyOf(values, c.fields, which, refs)), `${version} ${c.name} ${which}`).toEqual([]);
            if (c.operations.includes('replace'))
              expect(doc.requestProblems('PUT', `${prefix}/${c.path}/{id}`, bodyOf(values, c.fields, 'required', refs))).toEqual([]);
            for (const t of c.lifecycle?.transitions ?? [])
              expect(doc.requestProblems('POST', `${prefix}/${c.path}/{id}:${t.name}`, bodyOf(values, t.input, 'all', refs))).toEqual([]);
          }
      }
    }
  });

  it('unique fields get a value no other draw of the run got, patterned ones too', () => {
    const values = createValues(1);
    for (const [collection, field] of [
      ['customers', 'email'],
      ['coupons', 'code'],
    ] as const) {
      const f = project(shop, 'v3')
        .collections.find((c) => c.name === collection)!
        .fields.find((x) => x.name === field)!;
      const drawn = Array.from({ length: 300 }, () => values.field(f, () => ''));
      expect(new Set(drawn).size, field).toBe(drawn.length);
    }
  });

  it('a value other than the current one differs, and an enum of one value has none', () => {
    const values = createValues(3);
    const fields = project(shop, 'v3').collections.find((c) => c.name === 'customers')!.fields;
    const tier = fields.find((f) => f.name === 'tier')!;
    expect(values.other(tier, 'free', () => '')).toBe('pro');
    const email = fields.find((f) => f.name === 'email')!;
    expect(values.other(email, 'a@example.com', () => '')).not.toBe('a@example.com');
    expect(values.other({ ...tier, type: { kind: 'enum', values: ['only'] } }, 'only', () => '')).toBeUndefined();
  });
});
