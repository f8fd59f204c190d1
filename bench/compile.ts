/**
 * @module What the server benchmarks run: generated TypeScript compiled to JavaScript (oxc-transform, types
 * stripped, ES modules kept) as a deployment runs `tsc` output under plain node, and the runtime package
 * built from its current sources (the generated code imports `@restgen/runtime`, whose `dist/` it resolves).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'oxc-transform';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Compiles every `.ts` file under `from` into `.js` under `to` (types stripped, ES modules kept), copying the rest. */
export function compileTree(from: string, to: string): void {
  for (const name of readdirSync(from)) {
    const source = path.join(from, name);
    if (statSync(source).isDirectory()) {
      compileTree(source, path.join(to, name));
      continue;
    }
    mkdirSync(to, { recursive: true });
    if (!name.endsWith('.ts')) writeFileSync(path.join(to, name), readFileSync(source));
    else writeFileSync(path.join(to, name.replace(/\.ts$/, '.js')), compileFile(source));
  }
}

/** One TypeScript file as JavaScript. */
export function compileFile(file: string): string {
  const result = transformSync(file, readFileSync(file, 'utf8'), { sourcemap: false });
  if (result.errors.length > 0) throw new Error(`${file}: ${JSON.stringify(result.errors)}`);
  return result.code;
}

/** Builds `@restgen/runtime` (`packages/runtime/dist`) from its sources, so that a benchmark measures them. */
export function buildRuntime(): void {
  execFileSync('npm', ['run', 'build', '--silent', '-w', '@restgen/runtime'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}
