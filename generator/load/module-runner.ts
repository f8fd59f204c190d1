/**
 * @module The fast way to load a user's TypeScript API module: oxc's native transform strips the types and turns
 * `import`/`export` into calls this runner answers (the module-runner form), and the code runs as an async
 * function compiled under the module's own file name, so stack frames, and with them builder call sites, name
 * the user's file. The transform prints code anew, so lines move: each file's source maps are registered for
 * the DSL's call sites (see `dsl/call-site.ts`), which map a line back only when a diagnostic reads it.
 *
 * It handles what API modules are made of: TypeScript and ES modules, relative imports of other TypeScript
 * files, and packages (imported by Node itself, resolved from the importing file). Anything else (a relative
 * JavaScript or JSON file, a package Node cannot resolve from there, a parse error) is {@link Unsupported}; on
 * that or any other failure the caller loads the module the compatible way instead, which also reports a
 * module's own error at its exact line.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { callSitesOn, sourceLines } from '../dsl/call-site.ts';
import { chainPositionMaps, createPositionMap, type PositionMap } from './source-map.ts';

/** The two transforms of oxc-transform this runner uses (its module-runner form is Vite's SSR transform). */
export interface NativeTransform {
  transformSync(filename: string, source: string, options: { sourcemap: boolean }): { code: string; map?: { mappings: string }; errors: readonly unknown[] };
  moduleRunnerTransformSync(filename: string, source: string, options: { sourcemap: boolean }): { code: string; map?: { mappings: string }; errors: readonly unknown[] };
}

/** Thrown when a module graph needs something this runner does not do; the caller falls back. */
export class Unsupported extends Error {}

/** The names the module-runner form expects in scope, in the order the compiled function takes them. */
const PARAMS = ['__vite_ssr_exports__', '__vite_ssr_import_meta__', '__vite_ssr_import__', '__vite_ssr_dynamic_import__', '__vite_ssr_exportAll__'] as const;

type Namespace = Record<string | symbol, unknown>;
type ModuleFunction = (exports: Namespace, meta: object, load: (spec: string) => Promise<unknown>, dynamic: (spec: string) => Promise<unknown>, exportAll: (from: unknown) => void) => Promise<void>;

/** Extensions of the files the runner transforms itself. */
const OWN = /\.m?ts$/;

/** The TypeScript file a relative specifier names: as written, `.js` written for `.ts`, or without extension. */
function resolveRelative(spec: string, from: string): string {
  const base = path.resolve(path.dirname(from), spec);
  const candidates = [base, base.replace(/\.([cm]?)js$/, '.$1ts'), `${base}.ts`, `${base}.mts`, path.join(base, 'index.ts')];
  for (const c of candidates) if (existsSync(c) && statSync(c).isFile()) return c;
  throw new Unsupported(`cannot resolve ${spec} from ${from}`);
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

/** Creates a runner over `oxc`; each {@link run} loads a module graph afresh (for `--watch`). */
export function createModuleRunner(oxc: NativeTransform): { run(file: string): Promise<{ mod: Namespace; files: string[] }> } {
  return {
    async run(entry: string) {
      const modules = new Map<string, Promise<Namespace> | Namespace>();
      const lines = sourceLines();

      // Packages the API's files import (restgen aside) are inputs too: shared limits or field lists in a package
      // can change while no file of the API does. Their entry file and package.json are recorded.
      const packageFiles = new Set<string>();
      const loadPackage = async (spec: string, from: string): Promise<unknown> => {
        if (isBuiltin(spec)) return import(spec);
        let resolved: string;
        try {
          resolved = createRequire(from).resolve(spec);
        } catch (error) {
          throw new Unsupported(`cannot resolve ${spec}: ${error instanceof Error ? error.message : String(error)}`);
        }
        if (spec !== 'restgen' && !spec.startsWith('restgen/')) {
          packageFiles.add(resolved);
          const manifest = packageManifestOf(resolved);
          if (manifest) packageFiles.add(manifest);
        }
        return import(pathToFileURL(resolved).href);
      };

      const load = (spec: string, from: string): Promise<unknown> | Namespace => {
        if (!spec.startsWith('.') && !path.isAbsolute(spec)) return loadPackage(spec, from);
        const file = resolveRelative(spec, from);
        if (!OWN.test(file)) throw new Unsupported(`${file} is not TypeScript`);
        // A module already started (an import cycle, or a second importer) shares its namespace, whose
        // exports are getters defined before anything runs, as ES modules' live bindings are.
        const known = modules.get(file);
        if (known) return known;
        const exports: Namespace = Object.create(null) as Namespace;
        Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
        modules.set(file, exports);
        const done = evaluate(file, exports).then(() => exports);
        modules.set(file, done);
        return done;
      };

      const evaluate = async (file: string, exports: Namespace): Promise<void> => {
        const source = readFileSync(file, 'utf8');
        // Source maps only for a load that records call sites: without them no line is ever mapped back.
        const sourcemap = callSitesOn();
        const stripped = oxc.transformSync(file, source, { sourcemap });
        const runnable = stripped.errors.length === 0 ? oxc.moduleRunnerTransformSync(file.replace(OWN, '.js'), stripped.code, { sourcemap }) : undefined;
        if (!runnable || runnable.errors.length > 0 || (sourcemap && (!stripped.map || !runnable.map))) throw new Unsupported(`oxc could not transform ${file}`);
        if (sourcemap) {
          const map: PositionMap = chainPositionMaps(createPositionMap(runnable.map!.mappings), createPositionMap(stripped.map!.mappings));
          lines.set(file, (line, column) => map({ line, column })?.line ?? line);
        }
        // The wrapper's first line is numbered 0, so the module's code keeps the lines oxc gave it.
        const script = new vm.Script(`(async function (${PARAMS.join(', ')}) {\n${runnable.code}\n})`, { filename: file, lineOffset: -1 });
        const fn = script.runInThisContext() as ModuleFunction;
        const url = pathToFileURL(file).href;
        const meta = { url, filename: file, dirname: path.dirname(file), resolve: (spec: string) => (spec.startsWith('.') ? pathToFileURL(resolveRelative(spec, file)).href : spec) };
        const exportAll = (from: unknown): void => {
          if (typeof from !== 'object' || from === null) return;
          for (const key of Object.keys(from))
            if (key !== 'default' && !(key in exports)) Object.defineProperty(exports, key, { enumerable: true, configurable: true, get: () => (from as Namespace)[key] });
        };
        const imported = async (spec: string): Promise<unknown> => load(spec, file);
        await fn(exports, meta, imported, imported, exportAll);
      };

      try {
        const mod = await load(path.resolve(entry), path.resolve(entry));
        return { mod: mod as Namespace, files: [...new Set([...modules.keys(), ...packageFiles])].sort() };
      } catch (error) {
        // The caller loads the module again another way, whose lines are the files' own.
        for (const file of modules.keys()) lines.delete(file);
        throw error;
      }
    },
  };
}
