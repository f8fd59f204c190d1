/**
 * @module The contract between emitters and the writer. Emitters are pure: `(api, options) => files`.
 */
import type { ApiIR } from '../model/ir.ts';
import type { Render, RuntimeFiles } from '../templates/load-templates.ts';

/** How the formatter treats a file. */
export type FileLanguage = 'typescript' | 'json' | 'markdown';

/** One generated file, its path relative to the output folder (POSIX separators), content unformatted. */
export interface OutputFile {
  readonly path: string;
  readonly content: string;
  readonly language: FileLanguage;
  /**
   * The content is already exactly what prettier prints with its default options (a test of the emitter
   * must prove it); the writer then skips prettier unless the project configures it.
   */
  readonly preformatted?: boolean;
  /**
   * A hash of what the content is rendered from (see `keyed-file.ts`); a keyed file renders its content
   * only when it is read. Files without a key (restgen's runtime, copied verbatim) are known by their text.
   */
  readonly key?: string;
}

/**
 * Returns `compute()`, or the text it returned before for the same `kind` and `input` (a cache: `input`
 * must be everything the text depends on, besides restgen itself and its templates).
 */
export type Memo = (kind: string, input: unknown, compute: () => string, holds?: MemoHolds) => string;

/**
 * What a memoised text is: `part` (the default), a piece output files are assembled from (an OpenAPI
 * document's collection, CHANGES.md's comparison of one collection), which a cache keeps for later runs even
 * when a run does not need it; `file`, a whole output file's text, which the file's header stands for once
 * written, so a cache keeps it only while runs use it; `fact`, a small answer that is no rendered text (a
 * collection's summary, the lock's verdict), kept like a part but not counted as a render.
 */
export type MemoHolds = 'file' | 'part' | 'fact';

/** What every emitter receives besides the IR. */
export interface EmitOptions {
  /** The API module's path relative to the output folder, POSIX (`../api.ts`): for headers and comments. */
  readonly sourcePath: string;
  /** Renders a Handlebars template by name (`zod/schemas`), user overrides applied. */
  readonly render: Render;
  /** restgen's runtime (`runtime/**.ts` by relative path), copied verbatim into the output. */
  readonly runtime: RuntimeFiles;
  /** Reuses text rendered from the same input before (rendering through `render` already does); none computes every time. */
  readonly memo?: Memo;
}

/** An emitter: one output folder, no file system, clock, environment or randomness. */
export type Emitter = (api: ApiIR, options: EmitOptions) => readonly OutputFile[];
