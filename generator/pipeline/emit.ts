/**
 * @module The emit stage: every emitter describes its files (`emitAll`), and a file is rendered through the cache
 * (`renderThrough`): each piece a renderer composes it of (`use.call`) is kept under the hash of the renderer's name
 * and its data, so a run renders only the pieces a change reaches. What a file depends on is its data: the framework
 * derives it, no emitter declares it.
 */
import type { Part } from '../dsl/define-config.ts';
import { PART_NAMES } from '../emit/parts.ts';
import type { OutputFile, RenderUse } from '../emit/types.ts';
import type { ApiIR } from '../model/ir.ts';
import type { Render } from '../templates/load-templates.ts';
import type { Cache } from './cache.ts';
import { digest, hashOf, type Recall } from './digest.ts';

/** The emitted files and the templates they render with. */
export interface Emitted {
  /** Every file, sorted by path; nothing rendered yet. */
  readonly files: readonly OutputFile[];
  readonly template: Render;
}

/** Runs the emitters of `parts` (default: all): the files described, nothing rendered yet. */
export async function emitAll(ir: ApiIR, sourcePath: string, templatesDir?: string, parts: readonly Part[] = PART_NAMES): Promise<OutputFile[]> {
  return [...(await emitWith(ir, sourcePath, templatesDir, parts)).files];
}

/**
 * {@link emitAll}, with the templates the files render with; `cache` keeps compiled templates. A path produced twice
 * is a bug in restgen, not in the user's API.
 */
export async function emitWith(ir: ApiIR, sourcePath: string, templatesDir: string | undefined, parts: readonly Part[], cache?: Cache): Promise<Emitted> {
  const [{ EMITTERS }, { loadRuntime, loadTemplates }] = await Promise.all([import('../emit/registry.ts'), import('../templates/load-templates.ts')]);
  const { render } = loadTemplates(templatesDir, cache && ((name, text, compile) => cache.memo(hashOf('template', name, text), compile)));
  const runtime = loadRuntime();
  const files = EMITTERS.filter((e) => parts.includes(e.name)).flatMap((e) => e.emit(ir, { sourcePath, render, runtime }));
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.path)) throw new Error(`internal error: two emitters produce ${f.path}`);
    seen.add(f.path);
  }
  return { files: files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), template: render };
}

/** The hash of derived data (see `digest.ts`) through `cache`: by what it was computed from, once it is known. */
export const recallThrough =
  (cache: Cache): Recall =>
  (recipe, compute) =>
    cache.memo(hashOf('content', recipe), compute);

/** The key of `file`'s text: its renderer and its data. */
export const keyOf = (file: OutputFile, recall?: Recall): string => hashOf(file.renderer.name, digest(file.data, recall));

/** Renders `file` with every piece it is composed of through `cache` (the file's own text is not kept: see `cache.ts`). */
export function renderThrough(file: OutputFile, template: Render, cache: Cache): string {
  const recall = recallThrough(cache);
  const use: RenderUse = { template, call: (r, data) => cache.memo(hashOf(r.name, digest(data, recall)), () => r.render(data, use)) };
  return file.renderer.render(file.data, use);
}
