/**
 * One test per field row of breaking-changes.md, on read-write, request-only (writeOnly) and
 * response-only (readOnly) variants of the same field where direction matters.
 */
import { describe, expect, it } from 'vitest';
import { f } from '../../generator/dsl/index.ts';
import { apiWith, diffEdit, diffField, summary } from './helpers.ts';

const at = 'items.x';
const one = (id: string, level: string, location = at) => [{ id, level, location }];
/** The warning a narrowing of a stored (answered) field adds: records written before may not satisfy it. */
const stored = one('existing-data-may-not-satisfy', 'warning');

describe('field added', () => {
  it('required field without a default: breaking for creates and replaces, safe for responses', () => {
    const found = diffEdit(apiWith({}), apiWith({ x: f.string() }));
    expect(summary(found)).toEqual(one('request-required-field-added', 'breaking'));
    expect(found[0]!.affects.routes).toEqual(['POST /v1/items', 'PUT /v1/items/{id}']);
    expect(summary(diffEdit(apiWith({}), apiWith({ x: f.string().writeOnly() })))).toEqual(one('request-required-field-added', 'breaking'));
    expect(summary(diffEdit(apiWith({}), apiWith({ x: f.datetime().readOnly() })))).toEqual(one('response-required-field-added', 'safe'));
  });
  it('with a default: breaking only where a replace leaves it out (reset to the default); a create gets it', () => {
    const found = diffEdit(apiWith({}), apiWith({ x: f.string().default('a') }));
    expect(summary(found)).toEqual(one('request-field-with-default-added', 'breaking'));
    expect(found[0]!.affects.routes).toEqual(['PUT /v1/items/{id}']);
    expect(found[0]!.message).toBe(
      'items.x was added (required, default "a"): a replace that leaves it out resets it to "a"; a create that leaves it out gets it',
    );
  });
  it('with a default, in a collection without replace whose create accepts the omission: nothing breaks (safe)', () => {
    const shape = { collection: { operations: ['list', 'get', 'create', 'update', 'delete'] as const } };
    const found = diffEdit(apiWith({}, shape), apiWith({ x: f.string().default('a') }, shape));
    expect(summary(found)).toEqual(one('response-field-with-default-added', 'safe'));
    expect(found[0]!.message).toBe(
      'items.x was added (default "a"): requests that leave it out get the default, and none of them overwrites a stored value with it',
    );
    // Write-only as well: no answer carries it, and no request breaks.
    expect(summary(diffEdit(apiWith({}, shape), apiWith({ x: f.string().default('a').writeOnly() }, shape)))).toEqual(one('optional-field-added', 'safe'));
  });
  it('with a default, added with the replace itself: no replace sent before breaks (safe)', () => {
    const before = apiWith({}, { collection: { operations: ['list', 'get', 'create'] } });
    const found = diffEdit(before, apiWith({ x: f.string().default('a') }));
    expect(summary(found).filter((x) => x.location === at)).toEqual(one('response-field-with-default-added', 'safe'));
    expect(found.map((x) => x.id)).toContain('operation-added');
  });
  it('with a default in a nested object: an update that sends the object resets it too', () => {
    const found = diffField(f.object({ a: f.string() }), f.object({ a: f.string(), b: f.int().default(0) }));
    expect(summary(found)).toEqual(one('request-field-with-default-added', 'breaking', 'items.x.b'));
    expect(found[0]!.affects.routes).toEqual(['PUT /v1/items/{id}', 'PATCH /v1/items/{id}']);
  });
  it('required field in a collection without create or replace: optional in PATCH, safe', () => {
    const shape = { collection: { operations: ['list', 'get', 'update'] as const } };
    expect(summary(diffEdit(apiWith({}, shape), apiWith({ x: f.string() }, shape)))).toEqual(one('response-required-field-added', 'safe'));
  });
  it('optional field: safe on every side', () => {
    for (const x of [f.string().optional(), f.string().optional().writeOnly(), f.string().optional().readOnly()])
      expect(summary(diffEdit(apiWith({}), apiWith({ x })))).toEqual(one('optional-field-added', 'safe'));
  });
  it('optional query parameter (a new filter): safe', () => {
    const found = diffEdit(apiWith({}), apiWith({ x: f.string().optional().filterable() }));
    expect(summary(found)).toEqual([...one('optional-field-added', 'safe'), ...one('query-parameter-added', 'safe')]);
    expect(found[1]!.affects.routes).toEqual(['GET /v1/items']);
  });
});

describe('field removed', () => {
  it('required read-write field: breaking on both sides', () => {
    const found = diffEdit(apiWith({ x: f.string() }), apiWith({}));
    expect(summary(found)).toEqual(one('required-field-removed', 'breaking'));
    expect(found[0]!.direction).toBe('both');
  });
  it('optional read-write field: breaking, decided by requests (bodies are strict: sending it now answers 400)', () => {
    const found = diffEdit(apiWith({ x: f.string().optional() }), apiWith({}));
    expect(summary(found)).toEqual(one('request-optional-field-removed', 'breaking'));
    expect(found[0]!.direction).toBe('request');
    // Only the routes that take the field in a request: a GET is not broken by it.
    expect(found[0]!.affects.routes).toEqual(['POST /v1/items', 'PUT /v1/items/{id}', 'PATCH /v1/items/{id}']);
  });
  it('optional read-only field: a warning for responses only', () => {
    expect(summary(diffEdit(apiWith({ x: f.string().optional().readOnly() }), apiWith({})))).toEqual(one('response-optional-field-removed', 'warning'));
  });
  it('optional write-only field: breaking (requests only)', () => {
    expect(summary(diffEdit(apiWith({ x: f.string().optional().writeOnly() }), apiWith({})))).toEqual(one('request-optional-field-removed', 'breaking'));
  });
  it('required write-only field: breaking (requests only)', () => {
    const found = diffEdit(apiWith({ x: f.string().writeOnly() }), apiWith({}));
    expect(summary(found)).toEqual(one('required-field-removed', 'breaking'));
    expect(found[0]!.direction).toBe('request');
  });
  it('required read-only field: breaking (responses only)', () => {
    const found = diffEdit(apiWith({ x: f.datetime().readOnly() }), apiWith({}));
    expect(summary(found)).toEqual(one('required-field-removed', 'breaking'));
    expect(found[0]!.direction).toBe('response');
  });
  it('query parameter removed: breaking (unknown query parameters answer 400), safe when it was deprecated first', () => {
    expect(summary(diffField(f.string().filterable(), f.string()))).toEqual(one('query-parameter-removed', 'breaking'));
    expect(summary(diffField(f.string().filterable().deprecated(), f.string().deprecated()))).toEqual(one('deprecated-query-parameter-removed', 'safe'));
  });
});

describe('requiredness', () => {
  it('optional became required: breaking for requests, safe for responses', () => {
    expect(summary(diffField(f.string().optional(), f.string()))).toEqual(one('request-field-became-required', 'breaking'));
    expect(summary(diffField(f.string().optional().writeOnly(), f.string().writeOnly()))).toEqual(one('request-field-became-required', 'breaking'));
    expect(summary(diffField(f.string().optional().readOnly(), f.string().readOnly()))).toEqual(one('response-field-became-required', 'safe'));
  });
  it('required became optional: safe for requests, breaking for responses', () => {
    expect(summary(diffField(f.string(), f.string().optional()))).toEqual(one('response-field-became-optional', 'breaking'));
    expect(summary(diffField(f.string().writeOnly(), f.string().optional().writeOnly()))).toEqual(one('request-field-became-optional', 'safe'));
    expect(summary(diffField(f.string().readOnly(), f.string().optional().readOnly()))).toEqual(one('response-field-became-optional', 'breaking'));
  });
  it('a finding decided by requests lists only request routes; one breaking both sides lists every route', () => {
    const [required] = diffField(f.string().optional(), f.string());
    expect(required!.direction).toBe('request');
    expect(required!.affects.routes).toEqual(['POST /v1/items', 'PUT /v1/items/{id}']);
    expect(required!.affects.client).toEqual(['v1.items.create', 'v1.items.replace']);
    const [retyped] = diffField(f.int(), f.string());
    expect(retyped!.direction).toBe('both');
    expect(retyped!.affects.routes).toEqual(['GET /v1/items', 'GET /v1/items/{id}', 'POST /v1/items', 'PUT /v1/items/{id}', 'PATCH /v1/items/{id}']);
  });
});

describe('types and formats', () => {
  it('type changed incompatibly (int to string): breaking on every side', () => {
    for (const [b, a] of [
      [f.int(), f.string()],
      [f.int().writeOnly(), f.string().writeOnly()],
      [f.int().readOnly(), f.string().readOnly()],
    ] as const)
      expect(summary(diffField(b, a))).toEqual(one('field-type-changed', 'breaking'));
  });
  it('type widened (int to number): safe for requests, breaking for responses', () => {
    expect(summary(diffField(f.int(), f.number()))).toEqual(one('response-field-type-widened', 'breaking'));
    expect(summary(diffField(f.int().writeOnly(), f.number().writeOnly()))).toEqual(one('request-field-type-widened', 'safe'));
    expect(summary(diffField(f.int().readOnly(), f.number().readOnly()))).toEqual(one('response-field-type-widened', 'breaking'));
  });
  it('type narrowed (number to int): breaking for requests', () => {
    expect(summary(diffField(f.number(), f.int()))).toEqual(one('request-field-type-narrowed', 'breaking'));
    expect(summary(diffField(f.number().readOnly(), f.int().readOnly()))).toEqual(one('response-field-type-narrowed', 'safe'));
  });
  it('format changed (datetime to date, uuid to string): breaking', () => {
    expect(summary(diffField(f.datetime(), f.date()))).toEqual(one('field-format-changed', 'breaking'));
    expect(summary(diffField(f.uuid().readOnly(), f.string().readOnly()))).toEqual(one('field-format-changed', 'breaking'));
    expect(summary(diffField(f.uuid().writeOnly(), f.string().writeOnly()))).toEqual(one('field-format-changed', 'breaking'));
  });
  it('became nullable: safe for requests, breaking for responses', () => {
    expect(summary(diffField(f.string(), f.string().nullable()))).toEqual(one('response-field-became-nullable', 'breaking'));
    expect(summary(diffField(f.string().writeOnly(), f.string().nullable().writeOnly()))).toEqual(one('request-field-became-nullable', 'safe'));
    expect(summary(diffField(f.string().readOnly(), f.string().nullable().readOnly()))).toEqual(one('response-field-became-nullable', 'breaking'));
  });
  it('became non-nullable: breaking for requests, safe for responses', () => {
    expect(summary(diffField(f.string().nullable(), f.string()))).toEqual(one('request-field-became-non-nullable', 'breaking'));
    expect(summary(diffField(f.string().nullable().writeOnly(), f.string().writeOnly()))).toEqual(one('request-field-became-non-nullable', 'breaking'));
    expect(summary(diffField(f.string().nullable().readOnly(), f.string().readOnly()))).toEqual(one('response-field-became-non-nullable', 'safe'));
  });
});

describe('enums', () => {
  it('enum value added: safe for requests, warning for responses', () => {
    expect(summary(diffField(f.enum(['a']), f.enum(['a', 'b'])))).toEqual(one('response-enum-value-added', 'warning'));
    expect(summary(diffField(f.enum(['a']).writeOnly(), f.enum(['a', 'b']).writeOnly()))).toEqual(one('request-enum-value-added', 'safe'));
    expect(summary(diffField(f.enum(['a']).readOnly(), f.enum(['a', 'b']).readOnly()))).toEqual(one('response-enum-value-added', 'warning'));
  });
  it('enum value removed: breaking for requests, warning for responses', () => {
    expect(summary(diffField(f.enum(['a', 'b']), f.enum(['a'])))).toEqual([...one('request-enum-value-removed', 'breaking'), ...stored]);
    // Write-only values are stored but never answered: no older-data warning.
    expect(summary(diffField(f.enum(['a', 'b']).writeOnly(), f.enum(['a']).writeOnly()))).toEqual(one('request-enum-value-removed', 'breaking'));
    expect(summary(diffField(f.enum(['a', 'b']).readOnly(), f.enum(['a']).readOnly()))).toEqual([...stored, ...one('response-enum-value-removed', 'warning')]);
  });
  it('a read-only filter is a request too: removing a value breaks ?x=b', () => {
    const found = diffField(f.enum(['a', 'b']).readOnly().filterable(), f.enum(['a']).readOnly().filterable());
    expect(summary(found)).toEqual([...one('request-enum-value-removed', 'breaking'), ...stored]);
    expect(found[0]!.affects.routes).toContain('GET /v1/items');
  });
  it('became an enum: breaking for requests, safe for responses', () => {
    expect(summary(diffField(f.string(), f.enum(['a'])))).toEqual(one('request-field-became-enum', 'breaking'));
    expect(summary(diffField(f.string().readOnly(), f.enum(['a']).readOnly()))).toEqual(one('response-field-became-enum', 'safe'));
  });
});

describe('bounds and patterns', () => {
  it('bound tightened (max length down, minimum up, min items up, max items down): breaking for requests, safe for responses', () => {
    expect(summary(diffField(f.string().max(200), f.string().max(100)))).toEqual([...one('request-bound-tightened', 'breaking'), ...stored]);
    expect(summary(diffField(f.int().min(1), f.int().min(5)))).toEqual([...one('request-bound-tightened', 'breaking'), ...stored]);
    expect(summary(diffField(f.array(f.string()).min(0), f.array(f.string()).min(1)))).toEqual([...one('request-bound-tightened', 'breaking'), ...stored]);
    expect(summary(diffField(f.array(f.string()).max(10), f.array(f.string()).max(5)))).toEqual([...one('request-bound-tightened', 'breaking'), ...stored]);
    expect(summary(diffField(f.string().max(200).readOnly(), f.string().max(100).readOnly()))).toEqual([...stored, ...one('response-bound-tightened', 'safe')]);
    expect(summary(diffField(f.string().max(200).writeOnly(), f.string().max(100).writeOnly()))).toEqual(one('request-bound-tightened', 'breaking'));
  });
  it('bound loosened or removed: safe for requests, breaking for responses', () => {
    expect(summary(diffField(f.string().max(100), f.string().max(200)))).toEqual(one('response-bound-loosened', 'breaking'));
    expect(summary(diffField(f.int().min(1), f.int()))).toEqual(one('response-bound-loosened', 'breaking'));
    expect(summary(diffField(f.string().max(100).writeOnly(), f.string().writeOnly()))).toEqual(one('request-bound-loosened', 'safe'));
  });
  it('bound set where there was none: breaking for requests, safe for responses', () => {
    expect(summary(diffField(f.int(), f.int().max(10)))).toEqual([...one('request-bound-added', 'breaking'), ...stored]);
    expect(summary(diffField(f.int().readOnly(), f.int().max(10).readOnly()))).toEqual([...stored, ...one('response-bound-added', 'safe')]);
  });
  it('pattern added: breaking for requests, safe for responses', () => {
    expect(summary(diffField(f.string(), f.string().pattern(/^[a-z]+$/)))).toEqual([...one('request-pattern-added', 'breaking'), ...stored]);
    expect(
      summary(
        diffField(
          f.string().readOnly(),
          f
            .string()
            .pattern(/^[a-z]+$/)
            .readOnly(),
        ),
      ),
    ).toEqual([...stored, ...one('response-pattern-added', 'safe')]);
  });
  it('pattern changed: warning', () => {
    expect(summary(diffField(f.string().pattern(/^[a-z]+$/), f.string().pattern(/^[a-z0-9]+$/)))).toEqual([...stored, ...one('pattern-changed', 'warning')]);
    expect(summary(diffField(f.string().pattern(/^a$/).readOnly(), f.string().pattern(/^b$/).readOnly()))).toEqual([
      ...stored,
      ...one('pattern-changed', 'warning'),
    ]);
  });
  it('existing data may not satisfy a narrowing of a stored field: a warning of its own on the routes that answer it', () => {
    const found = diffField(f.string().max(200), f.string().max(100));
    const older = found.find((x) => x.id === 'existing-data-may-not-satisfy')!;
    expect(older).toMatchObject({ level: 'warning', direction: 'response', location: at });
    expect(older.message).toBe(
      'items.x: existing data may not satisfy this (max length 200 → 100): records written before keep their values, which are still answered',
    );
    expect(older.affects.routes).toEqual(['GET /v1/items', 'GET /v1/items/{id}', 'POST /v1/items', 'PUT /v1/items/{id}', 'PATCH /v1/items/{id}']);
    // A loosening leaves stored data valid: no such warning.
    expect(diffField(f.string().max(100), f.string().max(200)).map((x) => x.id)).not.toContain('existing-data-may-not-satisfy');
  });
  it('pattern removed: a loosening, breaking for responses', () => {
    expect(summary(diffField(f.string().pattern(/^a$/), f.string()))).toEqual(one('response-pattern-removed', 'breaking'));
  });
});

describe('defaults, access and other modifiers', () => {
  it('default value changed: warning for requests', () => {
    const found = diffField(f.enum(['a', 'b']).default('a'), f.enum(['a', 'b']).default('b'));
    expect(summary(found)).toEqual(one('request-default-changed', 'warning'));
    expect(found[0]!.message).toContain('"a" → "b"');
  });
  it('field became read-only: breaking (requests that send it are rejected)', () => {
    const found = diffField(f.string(), f.string().readOnly());
    expect(summary(found)).toEqual(one('field-became-read-only', 'breaking'));
    expect(found[0]!.direction).toBe('request');
  });
  it('no longer read-only, with a default: judged as a field with a default added to requests', () => {
    const found = diffField(f.string().readOnly(), f.string().default('a'));
    expect(summary(found)).toEqual(one('request-field-with-default-added', 'breaking'));
    expect(found[0]!.affects.routes).toEqual(['PUT /v1/items/{id}']);
    // Without a replace no request breaks (a create may leave it out); answers carried it already.
    const shape = { collection: { operations: ['list', 'get', 'create'] as const } };
    expect(summary(diffField(f.string().readOnly(), f.string().default('a'), shape))).toEqual(one('optional-field-added', 'safe'));
  });
  it('field became write-only: responses lose it', () => {
    expect(summary(diffField(f.string(), f.string().writeOnly()))).toEqual(one('required-field-removed', 'breaking'));
  });
  it('became unique: breaking for requests (409)', () => {
    expect(summary(diffField(f.string(), f.string().unique()))).toEqual(one('field-became-unique', 'breaking'));
  });
  it('deprecated: safe', () => {
    expect(summary(diffField(f.string(), f.string().deprecated()))).toEqual(one('field-deprecated', 'safe'));
  });
});
