/**
 * @module The contract between emitters and the pipeline. Emitters are pure: `(api, options) => files`, each file
 * a description of what renders it; caching, formatting and writing are the pipeline's.
 */
import type { ApiIR } from '../model/ir.ts';
import type { Render, RuntimeFiles } from '../templates/load-templates.ts';

/** How the formatter treats a file. */
export type FileLanguage = 'typescript' | 'json' | 'markdown';

/**
 * A piece of work an output file is assembled from (a collection's part of an OpenAPI document): `compute`
 * returns the same text for the same `kind` and `input`, so a cache around the emit stage may keep it.
 */
export interface RenderPart {
  readonly kind: string;
  /** Everything the text depends on besides restgen itself, as text. */
  readonly input: string;
  /** Computes the text, given the texts of its own parts (in their order). */
  readonly compute: (parts: readonly string[]) => string;
  /**
   * Finer pieces it is assembled from (CHANGES.md's pair of versions from each collection's comparison): a cache
   * that holds the part never asks for them, and one that does not renders only those that changed.
   */
  readonly parts?: readonly RenderPart[];
  /**
   * A small answer rather than rendered text (a collection's summary): the file's key holds its text, not its
   * input, so a change that leaves the answer alone leaves the file's key alone too.
   */
  readonly fact?: boolean;
}

/**
 * One generated file, its path relative to the output folder (POSIX separators). An emitter describes the file
 * (what renders it, from what, out of which parts) and renders nothing until asked: `content` renders it
 * outright; the pipeline renders it through its cache (`render` given its parts' texts), and not at all when
 * the file on disk is known to be up to date. The text is unformatted unless `preformatted`.
 */
export interface OutputFile {
  readonly path: string;
  readonly language: FileLanguage;
  /**
   * The content is already exactly what prettier prints with its default options (a test of the emitter
   * must prove it); the writer then skips prettier unless the project configures it.
   */
  readonly preformatted?: boolean;
  /** What renders the file (`render zod/collection`, `openapi`, `copy`). */
  readonly kind: string;
  /** Everything the file's text depends on besides restgen itself, as text: with `kind`, the file's key. */
  readonly input: string;
  /** The pieces the text is assembled from, in order (none for most files). */
  readonly parts?: readonly RenderPart[];
  /** Renders the text from the texts of its parts (in the order of `parts`). */
  readonly render: (parts: readonly string[]) => string;
  /** The text, rendered without any cache (on first read). */
  readonly content: string;
}

/** What every emitter receives besides the IR. */
export interface EmitOptions {
  /** The API module's path relative to the output folder, POSIX (`../api.ts`): for headers and comments. */
  readonly sourcePath: string;
  /** Renders a Handlebars template by name (`zod/schemas`), user overrides applied. */
  readonly render: Render;
  /** restgen's runtime (`runtime/**.ts` by relative path), copied verbatim into the output. */
  readonly runtime: RuntimeFiles;
}

/** An emitter: one output folder, no file system, clock, environment or randomness. */
export type Emitter = (api: ApiIR, options: EmitOptions) => readonly OutputFile[];
