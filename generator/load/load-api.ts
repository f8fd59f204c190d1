/**
 * @module Stage "load": imports the user's TypeScript API module (and its relative imports) with jiti,
 * and hands back the `defineApi()` data. A module that fails to load is a diagnostic, not a crash.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ApiDef } from '../dsl/defs.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import { sourceLines } from '../dsl/call-site.ts';
import { createModuleRunner } from './module-runner.ts';

/** The result of loading: the definition, or the diagnostics that explain why there is none. */
export type LoadResult =
  | { readonly ok: true; readonly def: ApiDef; readonly source: string; readonly files: readonly string[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

function isApiDef(value: unknown): value is ApiDef {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'api-definition';
}

/** The first stack line of `error` that points into `file`'s folder, as a line number. */
function lineIn(error: unknown, dir: string): { file: string; line: number } | undefined {
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  for (const m of stack.matchAll(/\(?((?:file:\/\/)?\/[^():\s]+):(\d+):\d+\)?/g)) {
    const file = m[1]!.replace(/^file:\/\//, '');
    if (file.startsWith(dir) && !file.includes('node_modules')) return { file, line: Number(m[2]) };
  }
  return undefined;
}

/**
 * Compiles a module for jiti with sucrase: it only strips types and rewrites imports, keeps every line where
 * it was (call sites stay exact), and is about fifty times faster than jiti's default Babel pipeline on a
 * large API module, which matters because the module is recompiled after every edit.
 */
function stripTypes(transform: typeof import('sucrase').transform, options: { source: string; filename?: string }): { code: string } {
  const typescript = /\.[cm]?tsx?$/.test(options.filename ?? '');
  const result = transform(options.source, {
    transforms: typescript ? ['typescript', 'imports'] : ['imports'],
    ...(options.filename ? { filePath: options.filename } : {}),
  });
  // CommonJS has no import.meta; jiti gives every module its __filename.
  const code = result.code.replace(/\bimport\.meta\.url\b/g, 'require("node:url").pathToFileURL(__filename).href');
  return { code };
}

/** The outcome of importing a user's module: its exports and every file it loaded, or the error it threw. */
export type Imported = { readonly ok: true; readonly mod: unknown; readonly files: string[] } | { readonly ok: false; readonly error: unknown };

/** Imports `source` once; the modules it added to the module cache are listed and then forgotten. */
async function importOnce(source: string, fast: boolean): Promise<Imported> {
  // Imported on demand: a module the native runner loads never pays for loading jiti or sucrase.
  const [{ createJiti }, { transform }] = await Promise.all([import('jiti'), import('sucrase')]);
  const strip = (options: { source: string; filename?: string }) => stripTypes(transform, options);
  const jiti = createJiti(source, { moduleCache: true, fsCache: !fast, sourceMaps: false, ...(fast ? { transform: strip } : {}) });
  // Forgetting what this load added lets the next load (in --watch) read the files afresh.
  const before = new Set(Object.keys(jiti.cache));
  const loaded = (): string[] => {
    const added = Object.keys(jiti.cache).filter((k) => !before.has(k));
    for (const k of added) delete jiti.cache[k];
    return added.filter((k) => path.isAbsolute(k)).sort();
  };
  try {
    const mod = await jiti.import(source);
    return { ok: true, mod, files: loaded() };
  } catch (error) {
    loaded();
    return { ok: false, error };
  }
}

/** Which way to load a module first: `native` (oxc, when its binding loads) or `sucrase` (jiti with sucrase). */
export type TransformChoice = 'native' | 'sucrase';

let runner: Promise<ReturnType<typeof createModuleRunner> | undefined> | undefined;

/** The native module runner, or undefined when oxc-transform's binding is not available on this platform. */
function nativeRunner(): Promise<ReturnType<typeof createModuleRunner> | undefined> {
  return (runner ??= import('oxc-transform').then(
    (oxc) => createModuleRunner(oxc),
    // No binding for this platform (or no package): the sucrase path serves, only slower.
    () => undefined,
  ));
}

/**
 * Imports a user's TypeScript (or JavaScript) module afresh: with oxc's native transform first (see
 * `module-runner.ts`), then with jiti and sucrase, then with jiti's own (Babel) pipeline when the module needs
 * what sucrase's CommonJS output cannot give, such as top-level await. A module the native path cannot load
 * (or that throws) is loaded again the next way, so its error is reported at its exact line.
 */
export async function importModule(source: string, transform: TransformChoice = 'native'): Promise<Imported> {
  const native = transform === 'native' && /\.m?ts$/.test(source) ? await nativeRunner() : undefined;
  if (native) {
    try {
      return { ok: true, ...(await native.run(source)) };
    } catch {
      // Unsupported by the native path, or the module threw: the next path loads it (and reports the error).
    }
  }
  // The next paths run code at the files' own lines: no line map of an earlier native load may apply to the
  // call sites they capture (sites captured before keep the map they were captured with).
  sourceLines().clear();
  const attempt = await importOnce(source, true);
  return attempt.ok ? attempt : importOnce(source, false);
}

/** Where and why a module failed to load: the first line of the error, and the line that threw in `dir`. */
export function describeLoadError(error: unknown, dir: string, fallback: string): { text: string; file: string; line: number } {
  const where = lineIn(error, dir);
  const first = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  // A package the module imports is not installed where it looks: say how to install it.
  const pkg = /Cannot find (?:module|package) '((?:@[^/']+\/)?[^/'.][^/']*)/.exec(first)?.[1];
  const text = pkg ? `${first} (install it in this project: npm install ${pkg === 'restgen' ? '-D restgen' : pkg})` : first;
  return { text, file: where?.file ?? fallback, line: where?.line ?? 1 };
}

/** Loads the API module at `file`. Every call reads the module afresh (for `--watch`). `transform` picks the first way tried (tests). */
export async function loadApi(file: string, transform: TransformChoice = 'native'): Promise<LoadResult> {
  const source = path.resolve(file);
  const fail = (message: string, line = 1, at = source): LoadResult => ({
    ok: false,
    diagnostics: [{ code: message.startsWith('RG002') ? 'RG002' : 'RG001', severity: 'error', message: message.replace(/^RG00\d /, ''), loc: { file: at, line, member: '' } }],
  });
  if (!existsSync(source)) return fail(`cannot find the API module; pass its path (restgen generate src/api.ts), set api in restgen.config.ts, or start one with restgen init.`);
  if (statSync(source).isDirectory()) return fail(`this is a folder, not a module; pass the API module inside it, e.g. ${path.basename(source)}/api.ts.`);
  const attempt = await importModule(source, transform);
  if (!attempt.ok) {
    const why = describeLoadError(attempt.error, path.dirname(source), source);
    return fail(`the API module failed to load: ${why.text}. Fix the error and run again.`, why.line, why.file);
  }
  const { mod, files } = attempt;
  const def = (mod as { default?: unknown }).default;
  if (!isApiDef(def))
    return fail(`RG002 ${path.basename(source)} must export default defineApi({...}) from 'restgen'.`);
  return { ok: true, def, source, files };
}
