/**
 * The generated client of the example (its golden files are checked with the rest of the example's output
 * by test/golden): self-containment, and a type check under browser-only libraries (no Node types),
 * strict, `module: nodenext`, `noUnusedLocals` and `exactOptionalPropertyTypes`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInto, listFiles, typeCheckClient } from './generate-client.ts';

let fresh: { dir: string; cleanup: () => void };

beforeAll(async () => {
  fresh = await generateInto('client-golden');
});
afterAll(() => fresh?.cleanup());

describe('generated client of examples/shop', () => {
  it('imports nothing outside its own folder', () => {
    const dir = path.join(fresh.dir, 'client');
    const files = listFiles(dir);
    // Each specifier is relative, ends in `.js` and names a generated module of the folder.
    const imports = files.flatMap((f) =>
      [...readFileSync(path.join(dir, f), 'utf8').matchAll(/\b(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => ({ f, s: m[1] ?? '' })),
    );
    expect(imports.length).toBeGreaterThan(files.length);
    const target = ({ f, s }: { f: string; s: string }): string => path.posix.join(path.posix.dirname(f), s).replace(/\.js$/, '.ts');
    const outside = imports.filter((i) => !/^\.\.?\/[a-z0-9_./-]+\.js$/i.test(i.s) || !files.includes(target(i)));
    expect(outside).toEqual([]);
    expect(imports.filter((i) => i.s.startsWith('../')).map(target)).toContain('runtime/promises.ts');
  });

  it('type-checks with browser libraries only, strict and exact optional properties', async () => {
    expect(await typeCheckClient(fresh.dir)).toBe('');
  });
});
