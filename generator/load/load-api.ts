/**
 * @module Stage "load": imports the user's TypeScript API module (and its relative imports) with jiti,
 * and hands back the `defineApi()` data. A module that fails to load is a diagnostic, not a crash.
 */
import { createJiti } from 'jiti';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ApiDef } from '../dsl/defs.ts';
import type { Diagnostic } from '../model/diagnostics.ts';

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

/** Loads the API module at `file`. Every call reads the module afresh (for `--watch`). */
export async function loadApi(file: string): Promise<LoadResult> {
  const source = path.resolve(file);
  const fail = (message: string, line = 1, at = source): LoadResult => ({
    ok: false,
    diagnostics: [{ code: message.startsWith('RG002') ? 'RG002' : 'RG001', severity: 'error', message: message.replace(/^RG00\d /, ''), loc: { file: at, line, member: '' } }],
  });
  if (!existsSync(source)) return fail(`cannot find the API module ${file}; pass its path, e.g. restgen generate src/api.ts.`);
  const jiti = createJiti(source, { moduleCache: true, fsCache: true, sourceMaps: false });
  // Modules this load adds to the module cache are the API's files; forget them afterwards so that the
  // next load (in --watch) reads them afresh.
  const before = new Set(Object.keys(jiti.cache));
  const loaded = (): string[] => {
    const added = Object.keys(jiti.cache).filter((k) => !before.has(k));
    for (const k of added) delete jiti.cache[k];
    return added.filter((k) => path.isAbsolute(k)).sort();
  };
  let mod: unknown;
  try {
    mod = await jiti.import(source);
  } catch (error) {
    loaded();
    const where = lineIn(error, path.dirname(source));
    const text = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return fail(`the API module failed to load: ${text}. Fix the error and run again.`, where?.line ?? 1, where?.file ?? source);
  }
  const files = loaded();
  const def = (mod as { default?: unknown }).default;
  if (!isApiDef(def))
    return fail(`RG002 ${path.basename(source)} must export default defineApi({...}) from 'restgen'.`);
  return { ok: true, def, source, files };
}
