/**
 * @module The stages before writing: load, build and check the API module (`loadModel`), and run the emitters
 * (`emitAll`). `generate` runs them; `diff`, `serve` and the tests use them on their own.
 */
import type { Part } from '../dsl/define-config.ts';
import type { ApiDef } from '../dsl/defs.ts';
import { asPreformatted } from '../emit/keyed-file.ts';
import { PART_NAMES } from '../emit/parts.ts';
import type { Memo, OutputFile } from '../emit/types.ts';
import type { CollectionReuse } from '../model/collection-reuse.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { ApiIR } from '../model/ir.ts';
import type { Render } from '../templates/load-templates.ts';

/**
 * Loads, builds and checks an API module. With `callSites: false` builders record no call sites: the model's
 * source refs then name the API module, not the lines (for a run that reports nothing; see `generate`).
 */
export async function loadModel(
  apiPath: string,
  { callSites = true, reuse }: { readonly callSites?: boolean; readonly reuse?: CollectionReuse } = {},
): Promise<{ ir?: ApiIR; def?: ApiDef; files?: readonly string[]; diagnostics: Diagnostic[] }> {
  // Imported on demand: a run the up-to-date cache answers never pays for loading them.
  const [{ loadApi }, { buildApi }, { checkApi }, { DiagnosticBag }, { withoutCallSites }] = await Promise.all([
    import('../load/load-api.ts'),
    import('../model/build.ts'),
    import('../model/check.ts'),
    import('../model/diagnostics.ts'),
    import('../dsl/call-site.ts'),
  ]);
  const loaded = callSites ? await loadApi(apiPath) : await withoutCallSites(() => loadApi(apiPath));
  if (!loaded.ok) return { diagnostics: [...loaded.diagnostics] };
  const bag = new DiagnosticBag();
  // Kept collections only serve a build without call sites: one with them is for reporting, and a kept
  // collection's refs would name no line.
  const ir = buildApi(loaded.def, loaded.source, bag, callSites ? undefined : reuse);
  // Whole-API rules run even after build errors, so one run reports every mistake.
  checkApi(ir, bag);
  return bag.hasErrors ? { diagnostics: bag.items } : { ir, def: loaded.def, files: loaded.files, diagnostics: bag.items };
}

/**
 * Runs the emitters of `parts` (default: all); a path produced twice is a bug in restgen, not in the user's
 * API. With a `memo` (the render cache), a file whose view model is unchanged is not rendered again.
 */
export async function emitAll(ir: ApiIR, sourcePath: string, templatesDir?: string, parts: readonly Part[] = PART_NAMES, memo?: Memo): Promise<OutputFile[]> {
  const [{ EMITTERS }, { loadRuntime, loadTemplates }] = await Promise.all([import('../emit/registry.ts'), import('../templates/load-templates.ts')]);
  const templates = loadTemplates(templatesDir, memo);
  // A view model holds no source locations: its plain JSON is its key.
  const render: Render = memo ? (name, view) => memo(`render ${name}`, JSON.stringify(view), () => templates.render(name, view), 'file') : templates.render;
  const runtime = loadRuntime();
  // restgen's own templates lay files out exactly as prettier prints them with its defaults; a user's
  // template override comes with no such promise, so its files are formatted.
  const exact = templatesDir === undefined;
  // Keyed files render when their content is first read (see `keyed-file.ts`): emitting builds keys only.
  const files = EMITTERS.filter((e) => parts.includes(e.name)).flatMap((e) => {
    const emitted = e.emit(ir, { sourcePath, render, runtime, ...(memo ? { memo } : {}) });
    return exact ? emitted.map(asPreformatted) : emitted;
  });
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.path)) throw new Error(`internal error: two emitters produce ${f.path}`);
    seen.add(f.path);
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

