/**
 * The DSL's types for operating versions (checked by `tsc --noEmit` over this file): `default` is `'latest'`
 * or one of the declared versions, and only with header versioning; a brownout has a start and an end.
 */
import { describe, expect, it } from 'vitest';
import { collection, defineApi, f } from '../../generator/dsl/index.ts';

const collections = { things: collection({ fields: { id: f.id() } }) };

describe('DSL types of version operations', () => {
  it('accept a default that is latest or a declared version, brownouts and docs', () => {
    const versions = {
      '2025-01-15': {
        released: '2025-01-15',
        deprecated: '2026-01-01',
        brownouts: [{ start: '2026-06-01T10:00:00Z', end: '2026-06-01T11:00:00Z' }],
        docs: 'https://docs.example.com/upgrade',
      },
      '2025-09-01': { released: '2025-09-01' },
    };
    const latest = defineApi({ name: 'x', versions, versioning: { in: 'header', header: 'X-Version', default: 'latest' }, collections });
    const named = defineApi({ name: 'x', versions, versioning: { in: 'header', default: '2025-01-15' }, collections });
    // @ts-expect-error default names one of the versions
    defineApi({ name: 'x', versions, versioning: { in: 'header', default: '2030-01-01' }, collections });
    // @ts-expect-error default applies to header versioning only
    defineApi({ name: 'x', versions, versioning: { in: 'path', default: 'latest' }, collections });
    // @ts-expect-error a brownout has an end
    defineApi({ name: 'x', versions: { v1: { released: '2025-01-15', brownouts: [{ start: '2026-06-01T10:00:00Z' }] } }, collections });
    expect([latest.kind, named.kind]).toEqual(['api-definition', 'api-definition']);
  });
});
