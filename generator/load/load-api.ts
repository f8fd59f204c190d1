/**
 * @module Stage "load": imports the user's TypeScript API module (and its relative imports) with restgen's module
 * loader (`module-runner.ts`), and hands back the `defineApi()` data. A module that fails to load is a diagnostic
 * (RG001, at the line and column of what failed), not a crash.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ApiDef } from '../dsl/defs.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import { createModuleRunner, type LoadFailure } from './module-runner.ts';

/** The result of loading: the definition, or the diagnostics that explain why there is none. */
export type LoadResult =
  | { readonly ok: true; readonly def: ApiDef; readonly source: string; readonly files: readonly string[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

function isApiDef(value: unknown): value is ApiDef {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'api-definition';
}

/** The outcome of importing a module: its exports and every file it loaded, or where and why it failed. */
export type Imported =
  | { readonly ok: true; readonly mod: unknown; readonly files: string[] }
  | { readonly ok: false; readonly failure: LoadFailure; readonly files: string[] };

let runner: Promise<ReturnType<typeof createModuleRunner>> | undefined;

/**
 * Imports a TypeScript or JavaScript module afresh (every call reads the files again, for `--watch`): the API
 * module, a config file, the server `serve` runs. oxc-transform is loaded on first use.
 */
export async function importModule(source: string): Promise<Imported> {
  runner ??= import('oxc-transform').then((oxc) => createModuleRunner(oxc));
  return (await runner).run(source);
}

/** A diagnostic for a failure: `code` at its file, line and column, with `what` failed to load. */
export function failureDiagnostic(code: Diagnostic['code'], what: string, failure: LoadFailure): Diagnostic {
  return {
    code,
    severity: 'error',
    message: `${what} failed to load: ${failure.message}${/[.?!]$/.test(failure.message) ? '' : '.'} Fix the error and run again.`,
    loc: { file: failure.file, line: failure.line, member: '' },
    column: failure.column,
  };
}

/** Loads the API module at `file`. Every call reads the module afresh (for `--watch`). */
export async function loadApi(file: string): Promise<LoadResult> {
  const source = path.resolve(file);
  const fail = (code: 'RG001' | 'RG002', message: string): LoadResult => ({
    ok: false,
    diagnostics: [{ code, severity: 'error', message, loc: { file: source, line: 1, member: '' } }],
  });
  if (!existsSync(source))
    return fail(
      'RG001',
      `cannot find the API module; pass its path (restgen generate src/api.ts), set api in restgen.config.ts, or start one with restgen init.`,
    );
  if (statSync(source).isDirectory())
    return fail('RG001', `this is a folder, not a module; pass the API module inside it, e.g. ${path.basename(source)}/api.ts.`);
  const attempt = await importModule(source);
  if (!attempt.ok) return { ok: false, diagnostics: [failureDiagnostic('RG001', 'the API module', attempt.failure)] };
  const def = (attempt.mod as { default?: unknown }).default;
  if (!isApiDef(def)) return fail('RG002', `${path.basename(source)} must export default defineApi({...}) from 'restgen'.`);
  return { ok: true, def, source, files: attempt.files };
}
