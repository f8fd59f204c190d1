/**
 * docs/guide/real-database.md shows the PostgreSQL reference as it is: every code block that names a file of
 * examples/shop-postgres or of @restgen/postgres's sources on its first line is that file (or, marked as an excerpt,
 * a part of it).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const GUIDE = readFileSync(new URL('../../docs/guide/real-database.md', import.meta.url), 'utf8');
const blocks = [
  ...GUIDE.matchAll(/```(ts|sql)\n(?:\/\/|--) ((?:examples\/shop-postgres|packages\/postgres\/src)\/[\w.-]+)( \(excerpt\))?\n([\s\S]*?)\n```/g),
].map((m) => ({
  file: m[2]!,
  excerpt: m[3] !== undefined,
  code: m[4]!,
}));

describe('the real-database guide', () => {
  it('shows files of the example', () => {
    expect(blocks.map((b) => b.file)).toEqual(
      expect.arrayContaining([
        'examples/shop-postgres/db.ts',
        'examples/shop-postgres/orders.ts',
        'examples/shop-postgres/cursor.ts',
        'examples/shop-postgres/server.ts',
        'examples/shop-postgres/coupons.ts',
        'examples/shop-postgres/schema.sql',
        'packages/postgres/src/migrations.ts',
      ]),
    );
  });
  it.each(blocks.map((b) => [b.file, b] as const))('%s is shown as it is', (_file, block) => {
    const text = readFileSync(new URL(`../../${block.file}`, import.meta.url), 'utf8');
    if (block.excerpt) expect(text).toContain(block.code);
    else expect(`${block.code}\n`).toBe(text);
  });
});
