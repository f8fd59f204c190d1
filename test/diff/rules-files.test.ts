/**
 * The rules of file fields and formats (breaking-changes.md read for files: `maxBytes` is a bound on uploads,
 * `types` an enum of media types; a format is a way to send and read bodies), their routes (a file's download
 * among them), and the lock: a change to a file field of a released version is judged like any other.
 */
import { describe, expect, it } from 'vitest';
import { f } from '../../generator/dsl/index.ts';
import { contractOf } from '../../generator/lock/index.ts';
import { apiAtOfContract } from '../../generator/lock/contract.ts';
import { diffApis } from '../../generator/diff/diff-apis.ts';
import { project } from '../../generator/model/project.ts';
import { collection, defineApi } from '../../generator/dsl/index.ts';
import { apiWith, diffEdit, diffField, irOf, summary } from './helpers.ts';

const at = 'items.x';
const pdf = (maxBytes: number, types: [string, ...string[]] = ['application/pdf']) => f.file({ maxBytes, types }).optional();
const stored = { id: 'existing-data-may-not-satisfy', level: 'warning', location: at };

describe('file fields', () => {
  it('maxBytes lowered: breaking for uploads, and files stored before may be larger', () => {
    const found = diffField(pdf(2000), pdf(1000));
    expect(summary(found)).toEqual([{ id: 'request-file-max-bytes-lowered', level: 'breaking', location: at }, stored]);
    expect(found[0]!.message).toBe('items.x: maxBytes 2000 → 1000');
  });

  it('maxBytes raised: a warning, for downloads may be larger than clients expect', () => {
    expect(summary(diffField(pdf(1000), pdf(2000)))).toEqual([{ id: 'response-file-max-bytes-raised', level: 'warning', location: at }]);
  });

  it('a type added: a warning for downloads; a type removed: breaking for uploads, and stored files may have it', () => {
    expect(summary(diffField(pdf(10), pdf(10, ['application/pdf', 'image/png'])))).toEqual([
      { id: 'response-file-type-added', level: 'warning', location: at },
    ]);
    expect(summary(diffField(pdf(10, ['application/pdf', 'image/png']), pdf(10)))).toEqual([
      { id: 'request-file-type-removed', level: 'breaking', location: at },
      stored,
    ]);
  });

  it('a file field added is an optional field added, its download among the routes it touches', () => {
    const found = diffEdit(apiWith({}), apiWith({ x: pdf(10) }));
    expect(summary(found)).toEqual([{ id: 'optional-field-added', level: 'safe', location: at }]);
    expect(found[0]!.affects.routes).toContain('GET /v1/items/{id}/x');
    expect(found[0]!.affects.client).toContain('v1.items.download');
  });

  it('a file that became another kind of value is an incompatible type change', () => {
    expect(summary(diffField(pdf(10), f.string().optional()))).toEqual([{ id: 'field-type-changed', level: 'breaking', location: at }]);
  });

  it('a released version that changes a file field breaks its lock', () => {
    const locked = contractOf(apiWith({ x: pdf(2000) }), 'v1');
    expect(locked.collections[0]!.fields.find((x) => x.name === 'x')!.type).toEqual({ kind: 'file', maxBytes: 2000, types: ['application/pdf'] });
    const now = project(apiWith({ x: pdf(1000) }), 'v1');
    const found = diffApis(apiAtOfContract('test', locked, 'restgen.lock.json'), now, { match: 'name' });
    expect(summary(found)[0]).toEqual({ id: 'request-file-max-bytes-lowered', level: 'breaking', location: at });
  });
});

describe('formats', () => {
  const api = (formats?: ('json' | 'xml')[]) =>
    irOf(
      defineApi({
        name: 'test',
        versions: { v1: { released: '2026-01-01' } },
        ...(formats ? { formats } : {}),
        collections: { items: collection({ fields: { id: f.id() } }) },
      }),
    );

  it('XML added is safe; XML removed is breaking (its bodies now answer 415, an Accept of it alone 406)', () => {
    expect(summary(diffEdit(api(), api(['json', 'xml'])))).toEqual([{ id: 'format-added', level: 'safe', location: 'formats' }]);
    expect(summary(diffEdit(api(['json', 'xml']), api()))).toEqual([{ id: 'format-removed', level: 'breaking', location: 'formats' }]);
    expect(summary(diffEdit(api(['json']), api()))).toEqual([]);
  });

  it('the lock holds the formats of a released version', () => {
    expect(contractOf(api(['json', 'xml']), 'v1').formats).toEqual(['json', 'xml']);
    expect(contractOf(api(), 'v1')).not.toHaveProperty('formats');
  });
});
