/**
 * The format patterns restgen writes into OpenAPI documents are zod's own: generating never loads zod, so the
 * table is checked here against the zod restgen depends on (an upgrade of zod that changes one fails this test).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZOD_FORMAT_PATTERNS } from '../../generator/model/zod-formats.ts';
import { checkTypeValue } from '../../generator/model/values.ts';

const pattern = (schema: z.ZodType): unknown => (z.toJSONSchema(schema) as { pattern?: unknown }).pattern;

describe('zod format patterns', () => {
  it('equal what zod reports for each format', () => {
    expect(ZOD_FORMAT_PATTERNS).toEqual({
      datetime: pattern(z.iso.datetime({ offset: true })),
      date: pattern(z.iso.date()),
      uuid: pattern(z.uuid()),
      email: pattern(z.email()),
    });
  });

  it('accept and reject what zod accepts and rejects', () => {
    const samples = [
      '2026-02-29T00:00:00Z',
      '2024-02-29T10:00:00+02:00',
      '2026-01-15T09:30:00.123Z',
      '2026-01-15',
      '2026-13-01',
      '0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e',
      '0b7e2d11-8d0b-0b7a-9c39-3a3f6f1c2f0e',
      'someone@example.com',
      'a@b',
      'x.y+z@mail.example.org',
      '',
    ];
    const schemas = { datetime: z.iso.datetime({ offset: true }), date: z.iso.date(), uuid: z.uuid(), email: z.email() } as const;
    for (const [format, schema] of Object.entries(schemas))
      for (const s of samples)
        expect(new RegExp(ZOD_FORMAT_PATTERNS[format as keyof typeof schemas]).test(s), `${format} ${s}`).toBe(schema.safeParse(s).success);
  });

  it('values are still checked with zod itself (loaded on first use)', () => {
    expect(checkTypeValue({ kind: 'uuid' }, 'nope')).toBe('"nope" is not a UUID');
    expect(checkTypeValue({ kind: 'uuid' }, '0b7e2d11-8d0b-4b7a-9c39-3a3f6f1c2f0e')).toBeUndefined();
    expect(checkTypeValue({ kind: 'url' }, 'https://example.com/x')).toBeUndefined();
    expect(checkTypeValue({ kind: 'url' }, 'not a url')).toBe('"not a url" is not an absolute URL');
  });
});
