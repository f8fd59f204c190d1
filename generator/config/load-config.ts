/**
 * @module Finds and loads a project's `restgen.config.ts` (or `.mts`, `.js`, `.mjs`): the one in the working
 * folder, or the file `--config` names. A config that does not load or does not check is a list of located
 * diagnostics (RG210-RG217), like an API module's.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_SITE, type RestgenConfig } from '../dsl/define-config.ts';
import type { CallSite } from '../dsl/defs.ts';
import { DiagnosticBag, refOf, type Diagnostic } from '../model/diagnostics.ts';
import type { SourceRef } from '../model/ir.ts';
import { checkConfig } from './check-config.ts';
import { CONFIG_FILES } from './config-files.ts';

export { CONFIG_FILES } from './config-files.ts';

/** A loaded, checked config. */
export interface LoadedConfig {
  /** The config file (absolute); relative paths in it are relative to its folder. */
  readonly file: string;
  readonly config: RestgenConfig;
  /** Where a diagnostic about one of its options points: the property inside `defineConfig({...})`. */
  readonly refOf: (...keys: readonly string[]) => SourceRef;
}

/** What loading found: no config, a config, or the diagnostics that say why it cannot be used. */
export type ConfigResult = { readonly ok: true; readonly loaded?: LoadedConfig } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

const fail = (code: Diagnostic['code'], message: string, file: string, line = 1): ConfigResult => ({
  ok: false,
  diagnostics: [{ code, severity: 'error', message, loc: { file, line, member: '' } }],
});

/** Loads the config `explicit` names (relative to `cwd`), or else the one in `cwd` when there is one. */
export async function loadConfig(cwd: string, explicit?: string): Promise<ConfigResult> {
  let file: string;
  if (explicit !== undefined) {
    file = path.resolve(cwd, explicit);
    if (!existsSync(file)) return fail('RG210', `cannot find the config file ${explicit}; pass the path of a restgen.config.ts, or leave --config out.`, file);
  } else {
    const found = CONFIG_FILES.map((name) => path.join(cwd, name)).filter((f) => existsSync(f));
    if (found.length === 0) return { ok: true };
    if (found.length > 1)
      return fail(
        'RG217',
        `found ${found.map((f) => path.basename(f)).join(' and ')}; keep one config file (restgen would not know which one you mean).`,
        found[1]!,
      );
    file = found[0]!;
  }
  // Imported only now: a project without a config file never loads the module loader for it.
  const { failureDiagnostic, importModule } = await import('../load/load-api.ts');
  const imported = await importModule(file);
  if (!imported.ok) return { ok: false, diagnostics: [failureDiagnostic('RG210', 'the config file', imported.failure)] };
  const value = (imported.mod as { default?: unknown }).default;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('RG210', `${path.basename(file)} must export default defineConfig({...}) from 'restgen'.`, file);
  if ((value as { kind?: unknown }).kind === 'api-definition')
    return fail(
      'RG210',
      `${path.basename(file)} is an API module (defineApi), not a config file; pass it as the module (restgen generate ${explicit ?? path.basename(file)}), and name a restgen.config.ts with --config.`,
      file,
    );
  const site = (value as { [CONFIG_SITE]?: CallSite })[CONFIG_SITE];
  const base = refOf(site, { file, line: 1, member: '' });
  const at = (...keys: readonly string[]): SourceRef => (site ? { ...base, path: keys } : base);
  const bag = new DiagnosticBag();
  const config = checkConfig(value, path.basename(file), base, bag);
  if (bag.hasErrors) return { ok: false, diagnostics: bag.items };
  return { ok: true, loaded: { file, config, refOf: at } };
}
