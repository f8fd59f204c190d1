/**
 * @module Test helper: fast-check arbitraries of the values a generated zod schema accepts, read from
 * the schema's JSON Schema (`z.toJSONSchema`, input side). Covers what restgen's schemas use: objects,
 * strings (length, pattern, formats), integers and numbers with bounds, booleans, enums, arrays, nullable.
 */
import fc from 'fast-check';
import { z } from 'zod';

type Json = Record<string, unknown>;

const email = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/), fc.stringMatching(/^[a-z]{1,8}$/), fc.constantFrom('com', 'org', 'io'))
  .map(([user, host, tld]) => `${user}@${host}.${tld}`);
const instant = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true });
const FORMATS: Readonly<Record<string, fc.Arbitrary<string>>> = {
  email,
  uuid: fc.uuid({ version: 4 }),
  'date-time': instant.map((d) => d.toISOString()),
  date: instant.map((d) => d.toISOString().slice(0, 10)),
  uri: fc.stringMatching(/^[a-z]{1,8}$/).map((p) => `https://example.com/${p}`),
};

function stringOf(schema: Json): fc.Arbitrary<string> {
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : undefined;
  const format = typeof schema['format'] === 'string' ? FORMATS[schema['format']] : undefined;
  const base =
    format ??
    (typeof schema['pattern'] === 'string'
      ? fc.stringMatching(new RegExp(schema['pattern']))
      : fc.string({ minLength: min, maxLength: Math.min(max ?? 40, min + 40) }));
  return base.filter((s) => [...s].length >= min && (max === undefined || [...s].length <= max));
}

/** A schema JSON Schema cannot state (`{}`): a file, which a request sends only as a multipart part, never in JSON. */
const unsendable = (schema: Json): boolean => Object.keys(schema).length === 0;

/** An arbitrary of the values `schema` (a JSON Schema object) accepts. */
export function arbitraryOf(schema: Json): fc.Arbitrary<unknown> {
  if (Array.isArray(schema['anyOf'])) return fc.oneof(...(schema['anyOf'] as Json[]).filter((s) => !unsendable(s)).map(arbitraryOf));
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  switch (schema['type']) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringOf(schema);
    case 'integer':
    case 'number': {
      const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : -1e6;
      const max = typeof schema['maximum'] === 'number' ? Math.min(schema['maximum'], min + 1e6) : min + 2e6;
      return schema['type'] === 'integer' ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'array': {
      const minLength = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
      const maxLength = typeof schema['maxItems'] === 'number' ? schema['maxItems'] : minLength + 4;
      return fc.array(arbitraryOf(schema['items'] as Json), { minLength, maxLength: Math.min(maxLength, minLength + 4) });
    }
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Record<string, Json>;
      const required = new Set((schema['required'] ?? []) as string[]);
      // `{ not: {} }` is a read-only field: never sent.
      const writable = Object.entries(properties).filter(([, p]) => !('not' in p) && !unsendable(p));
      const model = Object.fromEntries(writable.map(([k, p]) => [k, arbitraryOf(p)]));
      return fc.record(model, { requiredKeys: writable.map(([k]) => k).filter((k) => required.has(k)) });
    }
    default:
      return fc.jsonValue();
  }
}

/** An arbitrary of valid inputs of a zod schema. */
export function validInputOf(schema: z.ZodType): fc.Arbitrary<unknown> {
  return arbitraryOf(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json);
}
