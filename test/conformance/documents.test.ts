/**
 * The contract restgen hands @restgen/conformance holds each version's OpenAPI document exactly as `generate` writes
 * it, and the documented-answers judge reads it: a status the
 * operation does not list, a body that breaks its schema, the wrong content type, a missing ETag or Location,
 * and a weak ETag are each reported; a documented answer is not. The run's own request bodies are checked
 * against the same document, and the values it makes for every field of both examples pass.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { contractOf, type ConformanceContract } from '../../generator/conformance/contract.ts';
import { bodyOf } from '../../packages/conformance/src/context.ts';
import { createVersionDocument } from '../../packages/conformance/src/documents.ts';
import type { Exchange } from '../../packages/conformance/src/types.ts';
import { createValues } from '../../packages/conformance/src/values.ts';
import { loadIr } from '../helpers/load-ir.ts';
import { HEADER_API } from '../server/helpers.ts';

let shop: ConformanceContract;
let notes: ConformanceContract;
beforeAll(async () => {
  [shop, notes] = (await Promise.all([loadIr(), loadIr(HEADER_API)])).map(contractOf) as [ConformanceContract, ConformanceContract];
});

/** A version of a contract. */
const version = (contract: ConformanceContract, name: string) => contract.versions.find((v) => v.name === name)!;

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
  it('holds the documents generate writes, every version', () => {
    for (const name of ['v1', 'v2', 'v3']) {
      const written = JSON.parse(readFileSync(new URL(`../../examples/shop/generated/openapi/${name}.json`, import.meta.url), 'utf8')) as Record<
        string,
        unknown
      >;
      expect({ ...version(shop, name).document, 'x-restgen': written['x-restgen'] }, name).toEqual(written);
    }
  });

  it('accepts a documented answer and reports each way an answer can break the document', () => {
    const doc = createVersionDocument(version(shop, 'v3').document);
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
    const doc = createVersionDocument(version(shop, 'v1').document);
    const v1 = { id: customer.id, email: customer.email, name: 'A', tier: 'free', tags: [], createdAt: customer.createdAt };
    const problems = doc.judge('GET', '/v1/customers/{id}', answer(200, { ...json, etag: '"abc"' }, v1));
    expect(problems).toEqual(['the documented Deprecation header is missing', 'the documented Sunset header is missing']);
  });
});

describe("the run's request values", () => {
  it('every body the run makes for create, replace and transitions is valid for its version, over many draws', () => {
    for (const contract of [shop, notes]) {
      const values = createValues(42);
      for (const { name: version, api, document } of contract.versions) {
        const doc = createVersionDocument(document);
        const prefix = contract.ir.versioning.in === 'path' ? `/${version}` : '';
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
      const f = version(shop, 'v3')
        .api.collections.find((c) => c.name === collection)!
        .fields.find((x) => x.name === field)!;
      const drawn = Array.from({ length: 300 }, () => values.field(f, () => ''));
      expect(new Set(drawn).size, field).toBe(drawn.length);
    }
  });

  it('a value other than the current one differs, and an enum of one value has none', () => {
    const values = createValues(3);
    const fields = version(shop, 'v3').api.collections.find((c) => c.name === 'customers')!.fields;
    const tier = fields.find((f) => f.name === 'tier')!;
    expect(values.other(tier, 'free', () => '')).toBe('pro');
    const email = fields.find((f) => f.name === 'email')!;
    expect(values.other(email, 'a@example.com', () => '')).not.toBe('a@example.com');
    expect(values.other({ ...tier, type: { kind: 'enum', values: ['only'] } }, 'only', () => '')).toBeUndefined();
  });
});
