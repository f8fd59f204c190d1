/**
 * README.md is a pitch and a quick start, and the package ships it alone: at most 300 lines, the two commands of a
 * clone, the install lines of a user's project (the generator as a dev dependency, the runtime package and its
 * peers), and links only into the docs site (docs/...), never into sources a package user does not have.
 */
import { describe, expect, it } from 'vitest';
import { read } from './pages.ts';

const README = read('README.md');

describe('README.md', () => {
  it('is at most 300 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('gives the two commands and the install lines', () => {
    expect(README).toContain('npm ci && npm run example');
    expect(README).toContain('npm ci && npm test');
    expect(README).toContain('npm install -D restgen');
    expect(README).toMatch(/npm install @restgen\/runtime fastify @fastify\/rate-limit zod/);
  });

  it('links only into docs/ (pages of the site, and the screenshot the package ships)', () => {
    const links = [...README.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/i.test(l));
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((l) => !l.startsWith('docs/'))).toEqual([]);
  });
});
