/**
 * @module The contract between emitters and the pipeline. An emitter is pure, `(api, options) => files`, and
 * each file is a renderer applied to plain data: what the file is generated from is exactly the data it is given.
 * Emitters declare no cache keys; the pipeline keys a file (and every piece a renderer composes it from) by the
 * renderer's name and a hash of its data, so no emitter can forget an input.
 */
import type { ApiIR } from '../model/ir.ts';
import type { Render, RuntimeFiles } from '../templates/load-templates.ts';

/** How the formatter treats a file. */
export type FileLanguage = 'typescript' | 'json' | 'markdown';

/** What a renderer may use besides its data: restgen's templates, and other renderers. */
export interface RenderUse {
  /** Renders a Handlebars template by name (`zod/schemas`), user overrides applied. */
  readonly template: Render;
  /** Another renderer's text for `data`: a cache around the pipeline may answer it without running it. */
  readonly call: <D>(renderer: Renderer<D>, data: D) => string;
}

/**
 * A pure function from plain data to text, with a name that identifies it across runs. Defined once, at module
 * level (see {@link renderer}): it reads nothing but its data and what `use` gives.
 */
export interface Renderer<D> {
  readonly name: string;
  // A method, so that files of any data type fit in one list (`OutputFile[]`); each is built from its own pair.
  render(data: D, use: RenderUse): string;
}

const names = new Set<string>();

/**
 * Defines a renderer. A name defined twice is refused: a renderer made inside an emitter (a closure over some of
 * the API, which its data would not show) fails on the emitter's second run.
 */
export function renderer<D>(name: string, render: (data: D, use: RenderUse) => string): Renderer<D> {
  if (names.has(name)) throw new Error(`internal error: renderer ${name} is defined twice (define renderers once, at module level)`);
  names.add(name);
  return { name, render };
}

/**
 * One generated file, its path relative to the output folder (POSIX separators): `renderer` applied to `data`.
 * The text is unformatted unless `preformatted`. `content` renders it outright (no cache), for tests and tools.
 */
export interface OutputFile<D = unknown> {
  readonly path: string;
  readonly language: FileLanguage;
  /**
   * The content is already exactly what prettier prints with its default options (a test of the emitter
   * must prove it); the writer then skips prettier unless the project configures it.
   */
  readonly preformatted?: boolean;
  readonly renderer: Renderer<D>;
  /** Plain data (no functions, maps, class instances): everything the file is generated from. */
  readonly data: D;
  /** The text, rendered without any cache (on first read). */
  readonly content: string;
}

/** What every emitter receives besides the IR. */
export interface EmitOptions {
  /** The API module's path relative to the output folder, POSIX (`../api.ts`): for headers and comments. */
  readonly sourcePath: string;
  /** Renders a Handlebars template by name (`zod/schemas`), user overrides applied: what `content` renders with. */
  readonly render: Render;
  /** restgen's runtime (`runtime/**.ts` by relative path), copied verbatim into the output. */
  readonly runtime: RuntimeFiles;
}

/** An emitter: one output folder, no file system, clock, environment or randomness. */
export type Emitter = (api: ApiIR, options: EmitOptions) => readonly OutputFile[];
