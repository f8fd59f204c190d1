/**
 * The package's manifest is honest: the peer dependencies are exactly what the generated code imports (per
 * part, from the registry's table), server-only packages are optional peers, runtime dependencies are
 * pinned and free of install scripts, and `exports`, `bin` and `files` point at the build.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PART_NAMES, PARTS, partOf, peersOf } from '../../generator/emit/parts.ts';
import { RUNTIME } from '../../generator/emit/runtime-package.ts';
import { RUNTIME_CONTRACT } from '@restgen/runtime/contract';
import { CONTRACT_FORMAT } from '../../generator/conformance/contract.ts';
import { CONFORMANCE_PACKAGE } from '../../generator/conformance/load-package.ts';
import { listFiles } from '../helpers/temp-api.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean; dev?: boolean }>;
};

describe('package.json', () => {
  it('declares as peers exactly the packages the parts import, with the same ranges', () => {
    expect(manifest['peerDependencies']).toEqual(peersOf(PART_NAMES));
    for (const part of PART_NAMES)
      for (const [name, range] of Object.entries(PARTS[part].peers)) expect(manifest['peerDependencies']![name], `${part}: ${name}`).toBe(range);
  });

  it('marks a peer optional exactly when only the server imports it', () => {
    const optional = Object.keys(manifest['peerDependenciesMeta'] ?? {}).sort();
    const serverOnly = Object.keys(peersOf(PART_NAMES)).filter((name) => PART_NAMES.every((p) => p === 'server' || !(name in PARTS[p].peers)));
    expect(optional).toEqual(serverOnly.sort());
    expect(Object.values(manifest['peerDependenciesMeta'] ?? {})).toEqual(serverOnly.map(() => ({ optional: true })));
  });

  it('every package the committed generated code imports is a peer of the part that owns the file', () => {
    for (const example of ['shop', 'header-versioning', 'ledger']) {
      const dir = path.join(ROOT, 'examples', example, 'generated');
      for (const file of listFiles(dir).filter((f) => f.endsWith('.ts'))) {
        const text = readFileSync(path.join(dir, file), 'utf8');
        const bare = [...text.matchAll(/from "([^".][^"]*)"/g)].map((m) => m[1]!).filter((s) => !s.startsWith('node:'));
        const peers = peersOf([partOf(file)]);
        for (const spec of bare) {
          const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
          expect(name in peers, `${example}/${file} imports ${spec}, which the ${partOf(file)} part does not declare`).toBe(true);
        }
      }
    }
  });

  it('keeps the runtime small: no package of the generated code, exact versions, no install scripts', () => {
    const deps = manifest['dependencies'] as Record<string, string>;
    for (const name of Object.keys(peersOf(PART_NAMES))) expect(deps[name], name).toBeUndefined();
    for (const [name, version] of Object.entries(deps)) expect(version, name).toMatch(/^\d+\.\d+\.\d+$/);
    const scripted = Object.entries(lock.packages).filter(([key, p]) => key !== '' && p.hasInstallScript && !p.dev);
    expect(scripted.map(([key]) => key)).toEqual([]);
  });

  it('points exports and bin at the build and ships only what a user needs', () => {
    expect(manifest['exports']).toEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './contract': { types: './dist/contract.d.ts', default: './dist/contract.js' },
      './package.json': './package.json',
    });
    expect(manifest['bin']).toEqual({ restgen: './bin/restgen.js' });
    expect(manifest['files']).toEqual(['bin/', 'dist/', 'templates/', 'docs/diff-report.png', 'runtime/client/', 'runtime/zod/']);
    expect(manifest['scripts']!['prepare'], 'no install-time script').toBeUndefined();
    expect(manifest['engines']).toEqual({ node: '>=20.19' });
    expect(readFileSync(path.join(ROOT, 'bin/restgen.js'), 'utf8')).toContain("import('../dist/cli.js')");
  });
});

describe('packages/runtime/package.json (@restgen/runtime)', () => {
  const runtime = JSON.parse(readFileSync(path.join(ROOT, 'packages/runtime/package.json'), 'utf8')) as Record<string, Record<string, unknown>> & {
    name: string;
    version: string;
    restgen: { contract: number };
  };

  it('is the package, version and contract the generated server asks for', () => {
    expect(runtime.name).toBe(RUNTIME.name);
    // The range is a caret range on the package's own version line.
    const [major, minor] = runtime.version.split('.').map(Number);
    expect(RUNTIME.range).toBe(major === 0 ? `^0.${minor}.0` : `^${major}.0.0`);
    expect(RUNTIME.contract).toBe(RUNTIME_CONTRACT);
    expect(runtime.restgen.contract).toBe(RUNTIME_CONTRACT);
    expect((manifest['devDependencies'] as Record<string, string>)[RUNTIME.name]).toBe(runtime.version);
  });

  it("declares the server part's packages as peers, jose optional, and builds only when packed", () => {
    const { [RUNTIME.name]: _self, ...serverPeers } = PARTS.server.peers;
    // @opentelemetry/api: only `@restgen/runtime/otel` imports it, which user code (never generated code) imports.
    const peers = { ...serverPeers, '@opentelemetry/api': '^1.9.0' };
    expect(runtime['peerDependencies']).toEqual(Object.fromEntries(Object.entries(peers).sort(([a], [b]) => (a < b ? -1 : 1))));
    expect(runtime['peerDependenciesMeta']).toEqual({ '@opentelemetry/api': { optional: true }, jose: { optional: true } });
    // Its one dependency classifies webhook destination addresses (IANA special-purpose registries).
    expect(runtime['dependencies']).toEqual({ 'ipaddr.js': '2.5.0' });
    expect(Object.keys(runtime['scripts']!).filter((s) => /install|prepare/.test(s))).toEqual([]);
    expect(runtime['exports']).toEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      // What restgen's generator shares with the runtime (bundled into restgen's own build, see tsdown.config.ts).
      './contract': { types: './dist/contract.d.ts', default: './dist/contract.js' },
      './jwt': { types: './dist/jwt.d.ts', default: './dist/jwt.js' },
      './otel': { types: './dist/otel.d.ts', default: './dist/otel.js' },
      './package.json': './package.json',
    });
  });
});

describe('packages/conformance/package.json (@restgen/conformance)', () => {
  const conformance = JSON.parse(readFileSync(path.join(ROOT, 'packages/conformance/package.json'), 'utf8')) as Record<string, Record<string, unknown>> & {
    name: string;
    version: string;
    restgen: { contract: number };
  };

  it('is the package and version restgen conformance loads, reading the contract format restgen writes', () => {
    expect(conformance.name).toBe(CONFORMANCE_PACKAGE.name);
    const [major, minor] = conformance.version.split('.').map(Number);
    expect(CONFORMANCE_PACKAGE.range).toBe(major === 0 ? `^0.${minor}.0` : `^${major}.0.0`);
    expect(conformance.restgen.contract).toBe(CONTRACT_FORMAT);
    expect((manifest['devDependencies'] as Record<string, string>)[CONFORMANCE_PACKAGE.name]).toBe(conformance.version);
  });

  it("carries the test tool's dependencies, pinned, which restgen no longer has", () => {
    expect(conformance['dependencies']).toEqual({ ajv: expect.stringMatching(/^\d+\.\d+\.\d+$/), 'fast-check': expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    for (const name of Object.keys(conformance['dependencies']!)) expect(manifest['dependencies']![name], name).toBeUndefined();
    expect(Object.keys(conformance['scripts']!).filter((s) => /install|prepare/.test(s))).toEqual([]);
    expect(conformance['engines']).toEqual({ node: '>=20.19' });
  });

  it("reads restgen's contract and the runtime's operations table, as peers; exports one entry", () => {
    const [major, minor] = (manifest['version'] as unknown as string).split('.').map(Number);
    expect(conformance['peerDependencies']).toEqual({ [RUNTIME.name]: RUNTIME.range, restgen: major === 0 ? `^0.${minor}.0` : `^${major}.0.0` });
    expect(conformance['peerDependenciesMeta']).toEqual({ restgen: { optional: true } });
    expect(conformance['exports']).toEqual({ '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' });
    expect(conformance['files']).toEqual(['dist/', 'CHANGELOG.md']);
  });
});

describe('packages/postgres/package.json (@restgen/postgres)', () => {
  const postgres = JSON.parse(readFileSync(path.join(ROOT, 'packages/postgres/package.json'), 'utf8')) as Record<string, Record<string, unknown>> & {
    name: string;
    version: string;
  };

  it('needs the runtime the generated server asks for, pg as a peer, and nothing of its own', () => {
    expect(postgres.name).toBe('@restgen/postgres');
    expect(postgres['peerDependencies']).toEqual({ '@restgen/runtime': RUNTIME.range, '@types/pg': '^8.11.0', pg: '^8.11.0' });
    expect(postgres['peerDependenciesMeta']).toEqual({ '@types/pg': { optional: true } });
    expect(postgres['dependencies']).toBeUndefined();
    expect(Object.keys(postgres['scripts']!).filter((s) => /install|prepare/.test(s))).toEqual([]);
    expect((manifest['devDependencies'] as Record<string, string>)['@restgen/postgres']).toBe(postgres.version);
  });

  it('points exports and its migration bin at the build and ships only the build', () => {
    expect(postgres['exports']).toEqual({ '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' });
    expect(postgres['bin']).toEqual({ 'restgen-postgres': './dist/cli.js' });
    expect(postgres['files']).toEqual(['dist/', 'CHANGELOG.md']);
    expect(postgres['engines']).toEqual({ node: '>=20.19' });
    expect(readFileSync(path.join(ROOT, 'packages/postgres/src/cli.ts'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('imports the runtime only through its declared entry, never its sources', () => {
    for (const file of listFiles(path.join(ROOT, 'packages/postgres/src'))) {
      const text = readFileSync(path.join(ROOT, 'packages/postgres/src', file), 'utf8');
      expect(text, file).not.toMatch(/from '\.\.\/\.\.\/runtime|packages\/runtime/);
    }
  });
});
