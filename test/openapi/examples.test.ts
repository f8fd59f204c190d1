/**
 * Every OpenAPI document shows a valid example for every pattern-constrained string (derived from the
 * pattern, or the field's own `.example()`), and every example in every document validates against the
 * schema it sits in (ajv, draft 2020-12, formats asserted). Patterns restgen cannot derive an example
 * from are RG190 (see test/dsl/diagnostics.test.ts); here, the derivation itself is tested too.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleOfPattern } from '../../generator/model/pattern-example.ts';
import { HEADER_API } from '../server/helpers.ts';
import { addFormats, generateExample, type GeneratedExample } from './generate-openapi.ts';

const VAULT_API = new URL('../attack/fixtures/vault.ts', import.meta.url).pathname;
const examples: GeneratedExample[] = [];
beforeAll(async () => {
  examples.push(
    await generateExample('openapi-examples'),
    await generateExample('openapi-examples-header', HEADER_API),
    await generateExample('openapi-examples-vault', VAULT_API),
  );
});
afterAll(() => examples.forEach((e) => e.cleanup()));

/** Every object in a JSON value with its JSON pointer. */
function* nodes(value: unknown, pointer = ''): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield* nodes(value[i], `${pointer}/${i}`);
  else if (typeof value === 'object' && value !== null) {
    yield [pointer, value as Record<string, unknown>];
    for (const [k, v] of Object.entries(value)) yield* nodes(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  }
}

describe('examples in the OpenAPI documents', () => {
  it('every pattern-constrained string has one, and every example validates against its schema', () => {
    let checked = 0;
    for (const example of examples)
      for (const version of example.versions) {
        const doc = example.doc(version);
        const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: true });
        addFormats(ajv);
        const defs = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/')) as Record<string, unknown>;
        for (const [pointer, node] of nodes(doc)) {
          const where = `${example.ir.name} ${version} ${pointer}`;
          if (typeof node['pattern'] === 'string')
            expect(Array.isArray(node['examples']) && (node['examples'] as unknown[]).length > 0, `${where} has a pattern and no example`).toBe(true);
          if (!Array.isArray(node['examples']) || pointer.endsWith('/properties')) continue;
          const { examples: values, ...schema } = node;
          const validate = ajv.compile(JSON.parse(JSON.stringify({ ...schema, $defs: defs }).replaceAll('"#/components/schemas/', '"#/$defs/')) as object);
          for (const value of values as unknown[]) {
            expect(validate(value), `${where}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors)}`).toBe(true);
            checked++;
          }
        }
      }
    expect(checked).toBeGreaterThan(20);
  });

  it("a field's own example() wins over a derived one", () => {
    const doc = examples[0]!.doc('v1');
    const order = doc.components.schemas['Order'] as { properties: Record<string, { examples?: unknown[] }> };
    expect(order.properties['product_id']!.examples).toEqual([7]);
  });
});

describe('exampleOfPattern', () => {
  it.each([
    ['^[A-Z]{2}-\\d{4,8}$', 0, Infinity, 'AA-0000'],
    ['^\\d{4,10}$', 0, Infinity, '0000'],
    ['^[a-z0-9_-]+$', 3, 20, 'aaa'],
    ['^(foo|bar)+baz?$', 0, Infinity, 'fooba'],
    ['^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$', 0, Infinity, 'a@a.aa'],
    ['^\\$\\d+(\\.\\d{2})?$', 0, Infinity, '$0'],
    ['^x*$', 5, 5, 'xxxxx'],
  ])('%s (length %i..%s) gives %j, which matches', (pattern, min, max, expected) => {
    const example = exampleOfPattern(pattern, min, max);
    expect(example).toBe(expected);
    expect(new RegExp(pattern).test(example!)).toBe(true);
  });

  it.each(['^(?=.*\\d)\\w+$', '^(a)\\1$', '\\bword\\b', '^\\p{L}+$'])('derives nothing from %s', (pattern) => {
    expect(exampleOfPattern(pattern)).toBeNull();
  });

  it('derives nothing when the length bounds cannot be met', () => {
    expect(exampleOfPattern('^ab$', 3)).toBeNull();
  });
});
