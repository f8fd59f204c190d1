/**
 * @module orval, measured in the same bench run on the same API: restgen's own OpenAPI document of the
 * synthetic API's newest version goes in, orval writes a fetch client and zod schemas (mode single, no
 * prettier), as `shared/performance.md` measured it. orval lives in `bench/peers/` with its own lock file,
 * installed there on first use, so it is never part of restgen's own install (orval 8 declares Node
 * >= 22.18; it runs on Node 20, but its engine warning must not reach restgen's users).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Side } from './measure.ts';
import { moveAside } from './restgen-paths.ts';

const PEERS = fileURLToPath(new URL('./peers/', import.meta.url));

/** The orval version the peers' lock file pins. */
export function orvalVersion(): string {
  const lock = JSON.parse(readFileSync(path.join(PEERS, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
  return lock.packages['node_modules/orval']?.version ?? 'unknown';
}

/** The CLI script of orval, installing `bench/peers/` from its lock file first when it is missing. */
export function ensureOrval(): string {
  const bin = path.join(PEERS, 'node_modules/orval/dist/bin/orval.mjs');
  if (!existsSync(bin)) {
    console.log(`installing orval ${orvalVersion()} into bench/peers (npm ci, once)...`);
    // No install scripts: the only one in the tree (esbuild's) checks a binary npm already picked.
    execFileSync('npm', ['ci', '--prefix', PEERS, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { stdio: 'inherit' });
  }
  return bin;
}

/** Writes an orval config in `dir` for `openapi`: one fetch client and one zod file, unformatted. */
function writeConfig(dir: string, openapi: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'orval.config.mjs');
  const input = JSON.stringify(openapi);
  writeFileSync(
    file,
    [
      `export default {`,
      `  client: { input: { target: ${input} }, output: { target: './out/client.ts', client: 'fetch', mode: 'single', prettier: false } },`,
      `  zod: { input: { target: ${input} }, output: { target: './out/zod.ts', client: 'zod', mode: 'single', prettier: false } },`,
      `};`,
      ``,
    ].join('\n'),
  );
  return file;
}

/** A cold orval run on `openapi` (its output folder moved aside before each), working in `dir`; `trash` as restgen's cold runs. */
export function orvalCold(openapi: string, dir: string, trash: string): Side {
  const bin = ensureOrval();
  const config = writeConfig(dir, openapi);
  return { prepare: () => moveAside(path.join(dir, 'out'), trash), spec: { args: [bin, '--config', config], cwd: dir } };
}
