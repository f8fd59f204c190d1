/**
 * @module restgen's one module loader, for the API module, the config file and the server `serve` runs: oxc's native
 * transform strips the types and turns `import`/`export` into calls this runner answers (the module-runner form), and
 * the code runs as an async function compiled under the module's own file name, so stack frames, and with them builder
 * call sites and errors, name the user's file. The transform prints code anew, so lines move: each file's source maps
 * map positions back (for the DSL's call sites, see `dsl/call-site.ts`, and for errors).
 *
 * Every load reads the files afresh (for `--watch`): TypeScript and JavaScript ES modules (`.ts`, `.mts`, `.js`,
 * `.mjs`; a `.js` file in a CommonJS package, and `.cjs`, are required as CommonJS), JSON, and packages, resolved
 * from the importing file (an ES-module-only package as Node resolves an `import`) and imported by Node itself. A failure is data
 * ({@link LoadFailure}): a syntax error at oxc's position, a missing file or package at the import that names it, an
 * import of a name the module does not export, or the error the module threw, at the line and column it was thrown.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { moduleScopeOf } from './module-scope.ts';
import { callSitesOn, sourceLines } from '../dsl/call-site.ts';
import { describeFailure, RunnerError, type LoadFailure, type ModuleInfo } from './load-failure.ts';
import { chainPositionMaps, createPositionMap, type PositionMap } from './source-map.ts';

export type { LoadFailure } from './load-failure.ts';

/** The two transforms of oxc-transform this runner uses (its module-runner form is Vite's SSR transform). */
export interface NativeTransform {
  transformSync(filename: string, source: string, options: { sourcemap: boolean }): TransformOutput;
  moduleRunnerTransformSync(filename: string, source: string, options: { sourcemap: boolean }): TransformOutput;
}

/** What a transform answers: code, its map, and errors with spans into the source it was given. */
interface TransformOutput {
  readonly code: string;
  readonly map?: { readonly mappings: string };
  readonly errors: readonly { readonly message: string; readonly helpMessage?: string | null; readonly labels?: readonly { readonly start: number }[] }[];
}

/** The names the module-runner form expects in scope, in the order the compiled function takes them. */
const PARAMS = ['__vite_ssr_exports__', '__vite_ssr_import_meta__', '__vite_ssr_import__', '__vite_ssr_dynamic_import__', '__vite_ssr_exportAll__'] as const;

type Namespace = Record<string | symbol, unknown>;
type ModuleFunction = (
  exports: Namespace,
  meta: object,
  load: (spec: string, options?: ImportOptions) => Promise<unknown>,
  dynamic: (spec: string) => Promise<unknown>,
  exportAll: (from: unknown) => void,
) => Promise<void>;

/** The second argument of `__vite_ssr_import__`: the names the import statement takes from the module. */
interface ImportOptions {
  readonly importedNames?: readonly string[];
}

/** Files the runner transforms itself; `.js` only in an ES module package. */
const TRANSFORMED = /\.(?:m?ts|mjs|js)$/;

/** The result of a run: the entry's namespace and every file loaded, or why it failed and the files read until then. */
export type RunResult =
  | { readonly ok: true; readonly mod: Namespace; readonly files: string[] }
  | { readonly ok: false; readonly failure: LoadFailure; readonly files: string[] };

/** The file a relative specifier names: as written, `.js` written for `.ts`, or without extension. */
function resolveRelative(spec: string, from: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [
    base,
    base.replace(/\.([cm]?)js$/, '.$1ts'),
    `${base}.ts`,
    `${base}.mts`,
    `${base}.js`,
    `${base}.mjs`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.js'),
  ];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** The package.json of the package `file` belongs to: the nearest one above it that names a package. */
function packageManifestOf(file: string): string | undefined {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    try {
      if (typeof (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'string') return manifest;
    } catch {
      // Not JSON: not the package's manifest; look further up.
    }
  }
  return undefined;
}

/** The name of the package a bare specifier imports: `zod` for `zod/v4`, `@scope/pkg` for `@scope/pkg/sub`. */
const packageName = (spec: string): string =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * The file URL a bare specifier imported from `from` names, or undefined when it is not installed there. Node's
 * `require.resolve` answers most packages fast; a package that exports only an `import` entry (ES modules only) is
 * resolved as Node resolves an `import`, by exsolve, loaded only then.
 */
async function resolvePackage(spec: string, from: string): Promise<string | undefined> {
  try {
    return pathToFileURL(createRequire(from).resolve(spec)).href;
  } catch {
    // Not resolvable for require: an ES-module-only package, or none at all.
  }
  const { resolveModuleURL } = await import('exsolve');
  try {
    return resolveModuleURL(spec, { from: pathToFileURL(from), conditions: ['node', 'import'] });
  } catch {
    // Not installed where the importing file looks.
    return undefined;
  }
}

/** Creates a runner over `oxc`; each {@link run} loads a module graph afresh (for `--watch`). */
export function createModuleRunner(oxc: NativeTransform): { run(file: string): Promise<RunResult> } {
  const once = async (entry: string, sourcemap: boolean): Promise<RunResult> => {
    const modules = new Map<string, Promise<Namespace> | Namespace>();
    const infos = new Map<string, ModuleInfo>();
    const lines = sourceLines();

    // Packages the API's files import (restgen aside) are inputs too: shared limits or field lists in a package can
    // change while no file of the API does. Their entry file and package.json are recorded.
    const packageFiles = new Set<string>();
    const loadPackage = async (spec: string, from: string, names: readonly string[]): Promise<unknown> => {
      if (isBuiltin(spec)) return import(spec);
      const url = await resolvePackage(spec, from);
      if (url === undefined) {
        const pkg = packageName(spec);
        throw new RunnerError(
          `cannot find package '${pkg}' imported here; install it in this project: npm install ${pkg === 'restgen' ? '-D restgen' : pkg}`,
          from,
          { spec },
        );
      }
      const resolved = new URL(url).pathname;
      if (spec !== 'restgen' && !spec.startsWith('restgen/')) {
        packageFiles.add(resolved);
        const manifest = packageManifestOf(resolved);
        if (manifest) packageFiles.add(manifest);
      }
      let ns: unknown;
      try {
        ns = await import(url);
      } catch (error) {
        throw new RunnerError(`importing '${spec}' failed: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}`, from, { spec });
      }
      checkNames(ns, spec, from, names);
      return ns;
    };

    /** An import of a name the module does not export is an error, as in Node's ES modules (not an undefined value). */
    const checkNames = (ns: unknown, spec: string, from: string, names: readonly string[]): void => {
      if (typeof ns !== 'object' || ns === null) return;
      const missing = names.find((n) => !(n in ns));
      if (missing !== undefined)
        throw new RunnerError(`the module '${spec}' does not provide an export named '${missing}'`, from, { spec, name: missing, exported: Object.keys(ns) });
    };

    const load = async (spec: string, from: string, names: readonly string[] = []): Promise<unknown> => {
      if (!spec.startsWith('.') && !path.isAbsolute(spec)) return loadPackage(spec, from, names);
      const file = resolveRelative(spec, from);
      if (!file)
        throw new RunnerError(`cannot find the module '${spec}' imported here (looked for ${path.basename(spec)} and its .ts, .js and index files)`, from, {
          spec,
        });
      // A module already started (an import cycle, or a second importer) shares its namespace, whose exports are
      // getters defined before anything runs, as ES modules' live bindings are.
      const known = modules.get(file);
      if (known) return known;
      const started = evaluate(file);
      modules.set(file, started);
      const ns = await started;
      checkNames(ns, spec, from, names);
      return ns;
    };

    const evaluate = async (file: string): Promise<Namespace> => {
      if (file.endsWith('.json')) {
        const text = readFileSync(file, 'utf8');
        infos.set(file, { text });
        try {
          return namespaceOf({ default: JSON.parse(text) as unknown });
        } catch (error) {
          throw new RunnerError(`${path.basename(file)} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, file, { offset: 0 });
        }
      }
      if (file.endsWith('.cjs') || (file.endsWith('.js') && !moduleScopeOf(path.dirname(file)).esm)) return commonJs(file);
      if (!TRANSFORMED.test(file))
        throw new RunnerError(`${path.basename(file)} is not a module restgen loads (.ts, .mts, .js, .mjs, .cjs or .json)`, file, { offset: 0 });
      const source = readFileSync(file, 'utf8');
      infos.set(file, { text: source });
      const stripped = oxc.transformSync(file, source, { sourcemap });
      syntaxError(stripped, file, true);
      const runnable = oxc.moduleRunnerTransformSync(file.replace(/\.m?ts$/, '.js'), stripped.code, { sourcemap });
      syntaxError(runnable, file, false);
      let map: PositionMap | undefined;
      if (sourcemap && stripped.map && runnable.map) {
        map = chainPositionMaps(createPositionMap(runnable.map.mappings), createPositionMap(stripped.map.mappings));
        const back = map;
        infos.set(file, { text: source, map: back });
        if (callSitesOn()) lines.set(file, (line, column) => back({ line, column })?.line ?? line);
      }
      const exports = namespaceOf({});
      modules.set(file, exports);
      // The wrapper's first line is numbered 0, so the module's code keeps the lines oxc gave it.
      const script = new vm.Script(`(async function (${PARAMS.join(', ')}) {\n${runnable.code}\n})`, { filename: file, lineOffset: -1 });
      const fn = script.runInThisContext() as ModuleFunction;
      const url = pathToFileURL(file).href;
      const meta = {
        url,
        filename: file,
        dirname: path.dirname(file),
        resolve: (spec: string) => (spec.startsWith('.') ? pathToFileURL(resolveRelative(spec, file) ?? path.resolve(path.dirname(file), spec)).href : spec),
      };
      const exportAll = (from: unknown): void => {
        if (typeof from !== 'object' || from === null) return;
        for (const key of Object.keys(from))
          if (key !== 'default' && !(key in exports))
            Object.defineProperty(exports, key, { enumerable: true, configurable: true, get: () => (from as Namespace)[key] });
      };
      const imported = (spec: string, options?: ImportOptions): Promise<unknown> => load(spec, file, options?.importedNames ?? []);
      await fn(exports, meta, imported, (spec) => load(spec, file), exportAll);
      return exports;
    };

    /** A CommonJS file, required afresh (its cached copy is forgotten first): its exports as the default, and by name. */
    const commonJs = (file: string): Namespace => {
      const require = createRequire(file);
      delete require.cache[file];
      infos.set(file, { text: readFileSync(file, 'utf8') });
      const exported: unknown = require(file);
      const named = typeof exported === 'object' && exported !== null ? (exported as Record<string, unknown>) : {};
      return namespaceOf({ ...named, default: exported });
    };

    /** The first error of a transform; `own`: its spans are offsets into the file's own text (the first transform's are). */
    const syntaxError = (out: TransformOutput, file: string, own: boolean): void => {
      const first = out.errors[0];
      if (!first) return;
      const help = first.helpMessage ? ` (${first.helpMessage})` : '';
      throw new RunnerError(`syntax error: ${first.message}${help}`, file, { offset: own ? (first.labels?.[0]?.start ?? 0) : 0 });
    };

    const entryFile = path.resolve(entry);
    try {
      const mod = (await load(entryFile, entryFile)) as Namespace;
      return { ok: true, mod, files: [...new Set([...modules.keys(), ...packageFiles])].sort() };
    } catch (error) {
      // A failed load registers no line maps: nothing it defined is kept.
      for (const file of modules.keys()) lines.delete(file);
      return { ok: false, failure: await describeFailure(error, infos, entryFile), files: [...new Set([...infos.keys(), ...packageFiles])].sort() };
    }
  };
  return {
    async run(entry: string) {
      // Source maps only for a load that records call sites (without them no line is ever mapped back), or to say
      // where a failure is: a load without them that fails is run again with them.
      const first = await once(entry, callSitesOn());
      return first.ok || callSitesOn() ? first : once(entry, true);
    },
  };
}

/** A namespace object holding `values`, marked as a module namespace. */
function namespaceOf(values: Record<string, unknown>): Namespace {
  const ns = Object.assign(Object.create(null) as Namespace, values);
  Object.defineProperty(ns, Symbol.toStringTag, { value: 'Module' });
  return ns;
}
