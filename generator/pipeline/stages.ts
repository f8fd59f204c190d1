/**
 * @module The stages before writing: load, build and check the API module (`loadModel`), and run the emitters
 * (`emitAll`). `generate` runs them; `diff`, `serve` and the tests use them on their own.
 */
import type { Part } from '../dsl/define-config.ts';
import type { ApiDef } from '../dsl/defs.ts';
import { COPY, fileKey, type PartText } from '../emit/keyed-file.ts';
import { PART_NAMES } from '../emit/parts.ts';
import type { OutputFile } from '../emit/types.ts';
import type { Memo } from './memo.ts';
import type { CollectionReuse } from '../model/collection-reuse.ts';
import type { Diagnostic } from '../model/diagnostics.ts';
import type { ApiIR } from '../model/ir.ts';

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
 * Runs the emitters of `parts` (default: all): the files described, nothing rendered yet (see {@link renderFile}).
 * A path produced twice is a bug in restgen, not in the user's API. `memo` keeps compiled templates.
 */
export async function emitAll(ir: ApiIR, sourcePath: string, templatesDir?: string, parts: readonly Part[] = PART_NAMES, memo?: Memo): Promise<OutputFile[]> {
  const [{ EMITTERS }, { loadRuntime, loadTemplates }] = await Promise.all([import('../emit/registry.ts'), import('../templates/load-templates.ts')]);
  const templates = loadTemplates(templatesDir, memo);
  const runtime = loadRuntime();
  const files = EMITTERS.filter((e) => parts.includes(e.name)).flatMap((e) => e.emit(ir, { sourcePath, render: templates.render, runtime }));
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.path)) throw new Error(`internal error: two emitters produce ${f.path}`);
    seen.add(f.path);
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * A part's text through the cache: facts are kept as facts (not counted as renders), the rest as parts. A part's own
 * parts are asked for only when the part itself is not in the cache.
 */
export function partThrough(memo: Memo): PartText {
  const through: PartText = (p) => memo(p.kind, p.input, () => p.compute((p.parts ?? []).map(through)), p.fact ? 'fact' : 'part');
  return through;
}

/** A file's key, its parts' texts (where the key needs them) through the cache. */
export const keyThrough = (file: OutputFile, memo: Memo): string => fileKey(file, partThrough(memo));

/**
 * A file's text, rendered through the cache: its parts through it (each kept on its own, so a file assembled from
 * hundreds of parts renders only the changed ones), then the file itself, which the cache counts and does not keep.
 */
export function renderFile(file: OutputFile, memo: Memo): string {
  // A copy's text is at hand: nothing to render.
  if (file.kind === COPY) return file.content;
  const texts = (file.parts ?? []).map(partThrough(memo));
  return memo(file.kind, file.input, () => file.render(texts), 'file');
}
