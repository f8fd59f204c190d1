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
    const specifiers = listFiles(dir).flatMap((f) =>
      [...readFileSync(path.join(dir, f), 'utf8').matchAll(/\b(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]),
    );
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((s) => !/^\.\/[a-z0-9_.-]+\.js$/i.test(s ?? ''))).toEqual([]);
  });

  it('type-checks with browser libraries only, strict and exact optional properties', async () => {
    expect(await typeCheckClient(fresh.dir)).toBe('');
  });
});
